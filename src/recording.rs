//! What a page or figure fetches and reads besides its scenario's runs: a
//! file by URL (`?scenario-url=`, `?transcript=`, their options), and a
//! recorded conversation read by the core's importer (`checked::read`),
//! graded by the core and given S-SCHEMA by the schema worker after it is
//! drawn. Both bundles: the lite one draws recordings too, as they need no
//! simulator.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::Element;

use crate::checked::Checked;
use crate::config::{Config, FileRequest};
use crate::state::Action;

/// `fetch(url)` as text (same-origin credentials; CORS for another origin:
/// the browser decides). An error for a non-2xx status, a body declared
/// larger than the file limit, or a failed fetch. (Not an `inline_js`
/// snippet: both bundles write theirs to one folder, by position.)
pub async fn fetch_file(url: &str, limit: usize) -> Result<String, String> {
    let message = |err: JsValue| {
        err.dyn_ref::<js_sys::Error>()
            .and_then(|e| e.message().as_string())
            .unwrap_or_else(|| "the fetch failed".into())
    };
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(message)?
        .dyn_into()
        .map_err(|_| "no response".to_string())?;
    if !response.ok() {
        return Err(format!(
            "HTTP {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let declared = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|n| n.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit) {
        return Err(format!("larger than {limit} bytes, the limit"));
    }
    let text = JsFuture::from(response.text().map_err(message)?)
        .await
        .map_err(message)?;
    Ok(text.as_string().unwrap_or_default())
}

/// `url` made whole: a relative one against the course page (a script
/// figure's document; an iframe figure's embedding page, as its referrer
/// names it, when it names more than an origin), else against this page.
pub fn resolved(url: &str) -> String {
    let Some(window) = web_sys::window() else {
        return url.to_string();
    };
    let here = window.location().href().unwrap_or_default();
    let framed = window
        .parent()
        .ok()
        .flatten()
        .is_some_and(|p| !js_sys::Object::is(&p, &window));
    let referrer = window.document().map(|d| d.referrer()).unwrap_or_default();
    // A referrer cut to its origin (`https://course.example/`) says not
    // where the course page is: relative links then stay this page's.
    let course = web_sys::Url::new(&referrer)
        .ok()
        .filter(|u| u.pathname() != "/" || !u.search().is_empty());
    let base = match (framed, course) {
        (true, Some(course)) => course.href(),
        _ => here,
    };
    web_sys::Url::new_with_base(url, &base).map_or_else(|_| url.to_string(), |u| u.href())
}

/// Whether `url` (relative to the page) is on another origin.
pub fn cross_origin(url: &str) -> bool {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return false;
    };
    let base = location.href().unwrap_or_default();
    let origin = location.origin().unwrap_or_default();
    web_sys::Url::new_with_base(url, &base).is_ok_and(|u| u.origin() != origin)
}

/// Fetches (or reads) the recorded conversation a configuration asks for
/// (`?timeline=URL`, `?transcript=URL`, the `transcriptUrl` and
/// `transcript` options) and reads it with the core's importer: the
/// configuration then carries it, or why it cannot be shown.
pub async fn with_recording(mut config: Config, lang: &str) -> Config {
    let read = match config.timeline.clone() {
        None => return config,
        Some(FileRequest::Url(url)) => fetch_checked(&url, lang).await,
        // The option's JSON as text: the importer's limits (size, messages)
        // hold for it as for a file.
        Some(FileRequest::Inline(value)) => {
            let name = crate::i18n::t("check.inline_name");
            crate::checked::read(&name, &value.to_string()).map(Rc::new)
        }
    };
    if let Err(why) = &read {
        gloo::console::error!(format!("mcp-lanes: {why}"));
    }
    config.checked = Some(read);
    config
}

/// Fetches and reads the recording `url` names, in language `lang`; the
/// error says why it cannot be shown (and names CORS for another origin).
async fn fetch_checked(url: &str, lang: &str) -> Result<Rc<Checked>, String> {
    let fetched = fetch_file(url, mcp_lanes_core::import::MAX_BYTES).await;
    // Read (and its error said) in this figure's language, which another
    // figure may have selected during the fetch.
    crate::i18n::select(lang);
    match fetched {
        Ok(text) => crate::checked::read(url, &text).map(Rc::new),
        Err(why) => {
            let mut text = crate::i18n::tf("check.url_failed", &[("url", url), ("why", &why)]);
            if cross_origin(url) {
                text.push(' ');
                text.push_str(&crate::i18n::t("check.url_cors"));
            }
            Err(text)
        }
    }
}

/// Adds S-SCHEMA to a recording graded here, as `check --transcript` does:
/// each run's timeline goes to the schema worker (fetched now, never on a
/// first visit), and `dispatch` gets the verdicts once every run has them.
/// Nothing when the recording kept its own verdicts (a check report) or
/// the worker cannot answer (the page then shows the other rules only).
pub fn add_schema(checked: Rc<Checked>, dispatch: impl Fn(Action) + 'static) {
    if !checked.graded_here {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let mut verdicts = Vec::with_capacity(checked.runs.len());
        for run in &checked.runs {
            let Ok(json) = serde_json::to_string(run.timeline.as_ref()) else {
                return;
            };
            match crate::schema_worker::verdicts(json).await {
                Some(schema) => verdicts.push(schema),
                None => return,
            }
        }
        dispatch(Action::CheckedSchema {
            source: checked.source.clone(),
            verdicts,
        });
    });
}

/// The stylesheet of what only the full bundle draws (the editor, a lane's
/// settings, the exports) and of a check's verdicts, which the lite bundle
/// draws for a recording: never part of a first visit.
pub const FULL_CSS: &str = "full.css";

/// How long a render waits for a stylesheet before going on without it.
const STYLESHEET_WAIT_MS: i32 = 3_000;

/// A `<link rel="stylesheet">` to `href`.
pub fn stylesheet(href: &str) -> Result<Element, JsValue> {
    let link = gloo::utils::document().create_element("link")?;
    link.set_attribute("rel", "stylesheet")?;
    link.set_attribute("href", href)?;
    Ok(link)
}

/// Settles when `link` has loaded, failed, or after
/// [`STYLESHEET_WAIT_MS`]: what a bundle draws first (an opened
/// settings panel, the editor) is styled from its first frame.
pub fn stylesheet_ready(link: &Element) -> js_sys::Promise {
    let link = link.clone();
    js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(el) = link.dyn_ref::<web_sys::HtmlElement>() {
            el.set_onload(Some(&resolve));
            el.set_onerror(Some(&resolve));
        }
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                &resolve,
                STYLESHEET_WAIT_MS,
            );
        }
    })
}
