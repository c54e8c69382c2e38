//! Browser services the exports and the permalink use: the clipboard
//! (which may be missing or refuse) and file downloads.

use wasm_bindgen::prelude::*;
use yew::Callback;

#[wasm_bindgen]
extern "C" {
    /// A promise, as far as `then` goes.
    type Thenable;

    /// `navigator.clipboard.writeText`; throws where there is no clipboard.
    #[wasm_bindgen(catch, js_namespace = ["navigator", "clipboard"], js_name = writeText)]
    fn write_text(text: &str) -> Result<Thenable, JsValue>;

    /// `promise.then(ok, err)`.
    #[wasm_bindgen(method)]
    fn then(this: &Thenable, ok: &JsValue, err: &JsValue);
}

/// Puts `text` on the clipboard; `done` hears whether that worked (when it
/// did not, the caller shows the text in a field to copy by hand).
pub fn copy_text(text: &str, done: Callback<bool>) {
    let Ok(promise) = write_text(text) else {
        done.emit(false);
        return;
    };
    let failed = done.clone();
    let ok = Closure::once_into_js(move |_: JsValue| done.emit(true));
    let err = Closure::once_into_js(move |_: JsValue| failed.emit(false));
    promise.then(&ok, &err);
}

/// Offers `text` as a file download named `name` (the exports; full bundle).
#[cfg(feature = "engine")]
pub fn download(name: &str, mime: &str, text: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let a: web_sys::HtmlElement =
        wasm_bindgen::JsCast::dyn_into(document.create_element("a").ok()?).ok()?;
    a.set_attribute("href", &url).ok()?;
    a.set_attribute("download", name).ok()?;
    a.click();
    gloo::timers::callback::Timeout::new(1_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Some(())
}
