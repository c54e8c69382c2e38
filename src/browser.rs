//! Browser services: the page's URL as a [`Config`], the base URL
//! `embed.js` left, JS values as JSON, the clipboard (which may be missing
//! or refuse) and file downloads.

use serde_json::Value;
use wasm_bindgen::prelude::*;
use web_sys::UrlSearchParams;

use crate::config::Config;
use crate::i18n;

/// The global `embed.js` sets before it loads a bundle: the bundle's base
/// URL. While it is set, `start` leaves the page alone.
const EMBED_GLOBAL: &str = "mcpLanesEmbed";

/// The bundle's base URL when `embed.js` loaded the module.
pub fn script_base() -> Option<String> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &EMBED_GLOBAL.into())
        .ok()?
        .as_string()
}

/// The page's configuration from its URL (query and fragment).
pub fn page_config() -> Config {
    let location = web_sys::window().map(|w| w.location());
    let search = location
        .as_ref()
        .and_then(|l| l.search().ok())
        .unwrap_or_default();
    let params = UrlSearchParams::new_with_str(&search).ok();
    let hash = location.and_then(|l| l.hash().ok()).unwrap_or_default();
    let mut config = Config::from_url(|key| params.as_ref().and_then(|p| p.get(key)), &hash);
    config.reduced_motion = reduced_motion();
    config
}

/// Whether the person asked for reduced motion (no autoplay then).
pub fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// A figure's colour options as custom properties of `el` (an iframe's
/// root element, or a mounted figure's host), through the CSSOM, which a
/// strict `style-src` allows: the light ones as the properties style.css
/// reads (`--ink`, ...), the dark ones as `--dark-ink`, ..., which it
/// prefers in the dark scheme. Names and values were checked by
/// `Config::from_options` (known names, hex digits).
pub fn apply_colors(el: &web_sys::HtmlElement, colors: &[Vec<(&'static str, String)>; 2]) {
    let style = el.style();
    for (dark, set) in colors.iter().enumerate() {
        for (property, value) in set {
            let name = if dark == 1 {
                format!("--dark{}", &property[1..])
            } else {
                property.to_string()
            };
            let _ = style.set_property(&name, value);
        }
    }
}

/// A JS value as JSON (`Null` for `undefined`); `None` when it cannot be
/// written as JSON (cycles, BigInt).
pub fn to_json(value: &JsValue) -> Option<Value> {
    if value.is_undefined() {
        return Some(Value::Null);
    }
    let text = js_sys::JSON::stringify(value).ok()?.as_string()?;
    serde_json::from_str(&text).ok()
}

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
pub fn copy_text(text: &str, done: impl Fn(bool) + 'static) {
    let Ok(promise) = write_text(text) else {
        done(false);
        return;
    };
    let done = std::rc::Rc::new(done);
    let failed = done.clone();
    let ok = Closure::once_into_js(move |_: JsValue| done(true));
    let err = Closure::once_into_js(move |_: JsValue| failed(false));
    promise.then(&ok, &err);
}

/// Offers `text` as a file download named `name` (the exports).
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

// No `inline_js` here: both bundles number their inline snippets into the
// same `snippets/` directory, so a snippet one bundle has and the other has
// not would shift the other's numbering.

/// The response for a catalog at `url`, fetched once per page: the promise
/// is kept in `globalThis.mcpLanesI18n`, so the full bundle after a
/// hand-over and every mounted figure reuse it (each reads a clone).
fn catalog(url: &str) -> js_sys::Promise {
    use js_sys::{Object, Promise, Reflect};
    let global = js_sys::global();
    let key = JsValue::from_str("mcpLanesI18n");
    let cache = match Reflect::get(&global, &key) {
        Ok(cache) if cache.is_object() => cache,
        _ => {
            let cache: JsValue = Object::new().into();
            let _ = Reflect::set(&global, &key, &cache);
            cache
        }
    };
    if let Ok(Ok(promise)) = Reflect::get(&cache, &url.into()).map(|p| p.dyn_into::<Promise>()) {
        return promise;
    }
    let Some(window) = web_sys::window() else {
        return Promise::reject(&"no window".into());
    };
    let promise = window.fetch_with_str(url);
    let _ = Reflect::set(&cache, &url.into(), &promise);
    promise
}

/// `navigator.languages` (or `navigator.language`), in order.
fn browser_languages() -> Vec<String> {
    let navigator =
        js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).unwrap_or_default();
    let list = js_sys::Reflect::get(&navigator, &"languages".into()).unwrap_or_default();
    let mut out: Vec<String> = js_sys::Array::from(&list)
        .iter()
        .filter_map(|l| l.as_string())
        .collect();
    if out.is_empty() {
        out.extend(
            js_sys::Reflect::get(&navigator, &"language".into())
                .ok()
                .and_then(|l| l.as_string()),
        );
    }
    out
}

/// Where the notes' templates of `tag` are (`i18n/<tag>.notes.json`).
fn notes_url(base: &str, tag: &str) -> String {
    format!("{base}i18n/{tag}.notes.json")
}

/// Whether this bundle fetches a language's notes' templates whole, with
/// its catalog (the full bundle: its simulator can write any note), or
/// each scenario's part with the scenario's recorded run (the lite bundle,
/// [`load_scenario_notes`]).
const WHOLE_NOTES: bool = cfg!(feature = "engine");

/// Where the notes' templates of `tag` that scenario `id`'s recorded run
/// needs are (`i18n/<tag>.notes/<id>.json`, written at build time by
/// `scripts/split-notes.mjs`).
fn scenario_notes_url(base: &str, tag: &str, id: &str) -> String {
    format!("{base}i18n/{tag}.notes/{id}.json")
}

/// Starts fetching what [`load_scenario_notes`] will want for scenario `id`
/// in the language [`load_catalog`] will choose (nothing for English).
pub fn prefetch_scenario_notes(
    base: &str,
    asked: Option<&str>,
    host: Option<&web_sys::Element>,
    id: &str,
) {
    let language = choose_language(asked, host);
    if language.tag != i18n::FALLBACK {
        let _ = catalog(&scenario_notes_url(base, &language.tag, id));
    }
}

/// Fetches and adds the notes' templates scenario `id`'s recorded run needs,
/// in the installed language (nothing for English, whose notes are the
/// core's own); false if they could not be had: the notes then show in
/// English.
pub async fn load_scenario_notes(id: &str) -> bool {
    let Some(base) = LOADED.with(|l| l.borrow().clone()) else {
        return false;
    };
    // The selected language's: another figure may be selected after the fetch.
    let tag = i18n::lang();
    if tag == i18n::FALLBACK {
        return true;
    }
    let url = scenario_notes_url(&base, &tag, id);
    match response_text(catalog(&url)).await {
        Some(text) => {
            i18n::with_language(&tag, || i18n::add_notes(&text));
            true
        }
        None => false,
    }
}

/// The text of the catalog of `tag` under `base`, if it can be fetched.
async fn catalog_text(base: &str, tag: &str) -> Option<String> {
    response_text(catalog(&format!("{base}i18n/{tag}.json"))).await
}

/// The text of a fetched catalog, if it came.
async fn response_text(promise: js_sys::Promise) -> Option<String> {
    use wasm_bindgen_futures::JsFuture;
    let response = JsFuture::from(promise).await.ok()?;
    let response: web_sys::Response = response.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    JsFuture::from(response.clone().ok()?.text().ok()?)
        .await
        .ok()?
        .as_string()
}

/// Chooses the language and installs its catalog (before the first
/// render): `asked` (the `lang` option or `?lang=`), else `host`'s
/// language (a mounted figure: the closest `lang` attribute of the course
/// page), else the browser's, else English. English is fetched too when
/// the chosen catalog is partial, or when it cannot be fetched. Returns the
/// installed language's tag. `base` is where `i18n/` is (`""`: next to the
/// page).
pub async fn load_catalog(
    base: &str,
    asked: Option<&str>,
    host: Option<&web_sys::Element>,
) -> String {
    let language = choose_language(asked, host);
    LOADED.with(|l| *l.borrow_mut() = Some(base.to_string()));
    // The notes' templates come in parallel, for any language but English
    // (English shows the core's own notes); the lite bundle fetches each
    // scenario's part instead (`load_scenario_notes`).
    let notes =
        (WHOLE_NOTES && language.tag != i18n::FALLBACK).then(|| notes_url(base, &language.tag));
    if let Some(url) = &notes {
        let _ = catalog(url);
    }
    let text = catalog_text(base, &language.tag).await;
    let english = if language.partial || text.is_none() {
        catalog_text(base, i18n::FALLBACK).await
    } else {
        None
    };
    match text {
        Some(text) => {
            i18n::install(&language.tag, &text, english.as_deref());
            if let Some(notes) = notes {
                if let Some(text) = response_text(catalog(&notes)).await {
                    i18n::with_language(&language.tag, || i18n::add_notes(&text));
                }
                i18n::select(&language.tag);
            }
            language.tag
        }
        None => {
            i18n::install(i18n::FALLBACK, english.as_deref().unwrap_or("{}"), None);
            i18n::FALLBACK.to_string()
        }
    }
}

thread_local! {
    /// Where the installed catalogs came from (for the parts fetched
    /// later: rules, the full bundle's, a scenario's notes).
    static LOADED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Fetches the rules' catalog of the installed language
/// (`i18n/<tag>.rules.json`, with English's when it is partial) and adds
/// it; false if it could not be had.
pub async fn load_rules() -> bool {
    load_part("rules", i18n::add_rules).await
}

/// Fetches `i18n/<tag>.<part>.json` of the installed language (and
/// English's, when the language is partial or its part could not be had)
/// and gives it to `add`; false if neither could be had.
async fn load_part(part: &str, add: fn(&str, Option<&str>)) -> bool {
    let Some(base) = LOADED.with(|l| l.borrow().clone()) else {
        return false;
    };
    // The selected language's (a figure's): it is added to that catalog
    // even when another figure is selected by the time it comes.
    let tag = i18n::lang();
    let partial = i18n::offered(&tag).is_some_and(|l| l.partial);
    let text = catalog_text(&base, &format!("{tag}.{part}")).await;
    let english = if partial || text.is_none() {
        catalog_text(&base, &format!("{}.{part}", i18n::FALLBACK)).await
    } else {
        None
    };
    i18n::with_language(&tag, || match (text, english) {
        (Some(text), english) => {
            add(&text, english.as_deref());
            true
        }
        (None, Some(english)) => {
            add(&english, None);
            true
        }
        (None, None) => false,
    })
}

/// Fetches the installed language's notes' templates whole
/// (`i18n/<tag>.notes.json`) and adds them: what the lite bundle needs to
/// draw a recording, whose verdicts and notices may say any note the core
/// writes (the full bundle fetches them with its catalog). Nothing to do
/// for English; false if they could not be had.
pub async fn load_all_notes() -> bool {
    let Some(base) = LOADED.with(|l| l.borrow().clone()) else {
        return false;
    };
    let tag = i18n::lang();
    if tag == i18n::FALLBACK {
        return true;
    }
    match response_text(catalog(&notes_url(&base, &tag))).await {
        Some(text) => {
            i18n::with_language(&tag, || i18n::add_notes(&text));
            true
        }
        None => false,
    }
}

/// Fetches the part of the installed language's catalog that only the
/// full bundle shows (`i18n/<tag>.full.json`: the settings panel, the
/// editor, the exporters, checks; split off the language's catalog at
/// build time by `scripts/split-catalogs.mjs`, so that a first visit does
/// not fetch it) and adds it, with English's when the language is
/// partial; false if it could not be had.
pub async fn load_full_catalog() -> bool {
    load_part("full", i18n::add).await
}

/// Starts fetching the catalog [`load_catalog`] will want (so that it
/// comes while other things are fetched).
pub fn prefetch_catalog(base: &str, asked: Option<&str>, host: Option<&web_sys::Element>) {
    let language = choose_language(asked, host);
    let _ = catalog(&format!("{base}i18n/{}.json", language.tag));
    if WHOLE_NOTES && language.tag != i18n::FALLBACK {
        let _ = catalog(&notes_url(base, &language.tag));
    }
}

/// The language to show (see [`load_catalog`]).
fn choose_language(asked: Option<&str>, host: Option<&web_sys::Element>) -> i18n::Language {
    let host_lang = host
        .and_then(|h| h.closest("[lang]").ok().flatten())
        .and_then(|el| el.get_attribute("lang"));
    let browser = browser_languages();
    let wanted = asked
        .into_iter()
        .chain(host_lang.as_deref())
        .chain(browser.iter().map(String::as_str));
    i18n::choose(wanted)
}

/// The page in the chosen language: `<html lang>` and the skip link
/// (index.html's own text).
pub fn localize_page(tag: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(html) = document.document_element() {
        let _ = html.set_attribute("lang", tag);
    }
    if let Ok(Some(skip)) = document.query_selector("[data-testid=skip-link]") {
        skip.set_text_content(Some(&i18n::t("page.skip")));
    }
}

/// Scrolls the window so that the playhead stays in view while playback
/// runs (a third of the window above it once it nears the bottom).
pub fn follow_playhead() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let playhead = window
        .document()
        .and_then(|d| d.query_selector("[data-playhead]").ok().flatten());
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if let Some(playhead) = playhead {
        let bottom = playhead.get_bounding_client_rect().bottom();
        if height > 0.0 && bottom > height - 48.0 {
            window.scroll_by_with_x_and_y(0.0, bottom - height + height / 3.0);
        }
    }
}

thread_local! {
    /// Where [`follow_end`] left the window (its `scrollY`).
    static FOLLOWED_TO: std::cell::Cell<Option<f64>> = const { std::cell::Cell::new(None) };
}

/// Keeps a growing conversation's end in view, as [`follow_playhead`]
/// does, until the person scrolls back up; once they scroll down to where
/// it left the window again, it follows again.
pub fn follow_end() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let y = window.scroll_y().unwrap_or(0.0);
    if FOLLOWED_TO.get().is_some_and(|left| y + 8.0 < left) {
        return;
    }
    follow_playhead();
    FOLLOWED_TO.set(window.scroll_y().ok());
}

/// `McpLanes.mount`'s refusal: one console error, and the error its promise
/// rejects with.
pub fn refuse<T>(why: &str) -> Result<T, JsValue> {
    let why = format!("mcp-lanes: {why}");
    gloo::console::error!(why.clone());
    Err(JsValue::from(js_sys::Error::new(&why)))
}

/// Refuses a host that is not an element (a script passed anything else).
pub fn require_element(host: &web_sys::Element) -> Result<(), JsValue> {
    if host.is_instance_of::<web_sys::Element>() {
        Ok(())
    } else {
        refuse("McpLanes.mount needs an element to show the figure in")
    }
}

/// The host's open shadow root, attached on the first mount (a hand-over
/// mounts again on the same host); refused for an element that cannot
/// hold one.
pub fn shadow_root(host: &web_sys::Element) -> Result<web_sys::ShadowRoot, JsValue> {
    match host.shadow_root() {
        Some(shadow) => Ok(shadow),
        None => host
            .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
            .or_else(|_| refuse("this element cannot hold a figure (use a <div>)")),
    }
}

/// Shows the picker's cards in `root` that have every word of its search
/// (case aside), and says so when none has (`www/figure.js` does the same
/// on the drawn page). Run after each render too: the patcher draws every
/// card.
pub fn filter_picker(root: &web_sys::Element) {
    use wasm_bindgen::JsCast;
    let query = root
        .query_selector("[data-testid='picker-search']")
        .ok()
        .flatten()
        .and_then(|i| i.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value().to_lowercase())
        .unwrap_or_default();
    let words: Vec<&str> = query.split_whitespace().collect();
    let mut shown = 0;
    if let Ok(items) = root.query_selector_all(".picker-list > li") {
        for i in 0..items.length() {
            let Some(li) = items
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
            else {
                continue;
            };
            let text = li.text_content().unwrap_or_default().to_lowercase();
            let hit = words.iter().all(|w| text.contains(w));
            li.set_hidden(!hit);
            shown += usize::from(hit);
        }
    }
    if let Some(none) = root
        .query_selector("[data-testid='picker-none']")
        .ok()
        .flatten()
        .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
    {
        none.set_hidden(shown > 0);
    }
}

/// The first card the picker's search shows in `root` (Enter opens it).
pub fn first_shown_card(root: &web_sys::Element) -> Option<web_sys::HtmlElement> {
    use wasm_bindgen::JsCast;
    root.query_selector(".picker-list > li:not([hidden]) > a")
        .ok()
        .flatten()?
        .dyn_into()
        .ok()
}

/// After a scenario was chosen (a card, Enter on one, back or forward):
/// the picker in `root` folds into its menu (its summary takes focus when
/// `focus`: the reader chose with it) and, when the scenario's title or
/// Play is out of the window, the page scrolls the menu to the top, so
/// that the title, Play and the lanes are in view
/// (`www/figure.js` does the same on the drawn page).
pub fn show_figure(root: &web_sys::Element, focus: bool) {
    use wasm_bindgen::JsCast;
    let found = |selector: &str| root.query_selector(selector).ok().flatten();
    let Some(picker) = found("[data-testid='scenario-picker']") else {
        return;
    };
    if let Some(details) = picker.dyn_ref::<web_sys::HtmlDetailsElement>() {
        details.set_open(false);
    }
    if focus {
        if let Some(summary) = found("[data-testid='scenario-picker'] > summary")
            .and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = summary.focus();
        }
    }
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let title = found("[data-testid='scenario-title']").map(|t| t.get_bounding_client_rect().top());
    let play = found("[data-testid='play']").map(|p| p.get_bounding_client_rect().bottom());
    if title.is_some_and(|t| t < 0.0) || play.is_some_and(|b| b > height) {
        picker.scroll_into_view();
    }
}

/// Scrolls `el` into view when its top is below the window (the inspector,
/// under the lanes on narrow screens, when something new is selected).
pub fn show_if_below(el: &web_sys::Element) {
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if el.get_bounding_client_rect().top() > height - 40.0 {
        el.scroll_into_view();
    }
}

/// Scrolls the element whose `data-testid` is `test_id`, inside the
/// element `from` belongs to (the page, or a figure's shadow root), into
/// the middle of the window once the page has drawn it ("What to fix":
/// the failing message).
pub fn scroll_to_test_id(from: &web_sys::Element, test_id: String) {
    use wasm_bindgen::JsCast;
    let root = from.get_root_node();
    gloo::timers::callback::Timeout::new(60, move || {
        let selector = format!("[data-testid=\"{test_id}\"]");
        let found = root
            .dyn_ref::<web_sys::Document>()
            .and_then(|d| d.query_selector(&selector).ok().flatten())
            .or_else(|| {
                root.dyn_ref::<web_sys::ShadowRoot>()
                    .and_then(|r| r.query_selector(&selector).ok().flatten())
            });
        if let Some(el) = found {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Center);
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    })
    .forget();
}

/// Opens `dialog` as a modal (remembering `focused` in `return_focus`) or
/// closes it; once closed, focus goes back to the remembered element.
pub fn show_modal(
    dialog: &web_sys::HtmlDialogElement,
    open: bool,
    focused: impl FnOnce() -> Option<web_sys::HtmlElement>,
    return_focus: &std::cell::RefCell<Option<web_sys::HtmlElement>>,
) {
    if open && !dialog.open() {
        *return_focus.borrow_mut() = focused();
        let _ = dialog.show_modal();
    } else if !open && dialog.open() {
        dialog.close();
    }
    if !open {
        if let Some(el) = return_focus.borrow_mut().take() {
            let _ = el.focus();
        }
    }
}

/// The elements under `root` that match `selector`, in document order
/// (none for a selector the browser rejects).
pub fn elements(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    root.query_selector_all(selector)
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i))
                .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// A yes/no option the person set earlier in this browser (`localStorage`),
/// if any.
pub fn remembered(key: &str) -> Option<bool> {
    let storage = web_sys::window()?.local_storage().ok().flatten()?;
    match storage.get_item(key).ok().flatten()?.as_str() {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// Remembers a yes/no option in this browser (nothing when storage is off).
pub fn remember(key: &str, on: bool) {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.set_item(key, if on { "1" } else { "0" });
    }
}

/// Focuses the element with test id `test_id` in `root` once it is there
/// (an island draws on a later turn): tries every 50 ms for two seconds.
pub fn focus_soon(root: &web_sys::Element, test_id: &'static str) {
    fn attempt(root: web_sys::Element, test_id: &'static str, left: u32) {
        let found = root
            .query_selector(&format!("[data-testid=\"{test_id}\"]"))
            .ok()
            .flatten()
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
        match found {
            Some(el) => {
                let _ = el.focus();
            }
            None if left > 0 => {
                gloo::timers::callback::Timeout::new(50, move || attempt(root, test_id, left - 1))
                    .forget();
            }
            None => {}
        }
    }
    let root = root.clone();
    gloo::timers::callback::Timeout::new(0, move || attempt(root, test_id, 40)).forget();
}
