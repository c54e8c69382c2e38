//! How the full bundle starts: the page (on the root of the drawn or lite
//! page it takes over), or, loaded by `www/embed.js`, figures mounted with
//! `McpLanes.mount(host, options)`. The exported items have plain
//! comments: wasm-bindgen would copy doc comments into the JS glue.

use mcp_lanes_core::scenarios::file::{self, MAX_DEPTH, MAX_FILE_BYTES};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::Element;

use super::hand_over;
use crate::browser::{
    load_catalog, load_full_catalog, localize_page, page_config, prefetch_catalog, script_base,
};
use crate::config::{Config, FileRequest, Mode};
use crate::figure::{self, Handle};
use crate::recording::{
    cross_origin, fetch_file, resolved, stylesheet, stylesheet_ready, with_recording, FULL_CSS,
};
use crate::runtime::{self, Page};

/// Fetches (or reads) the scenario file a configuration asks for and
/// checks it, saying its problems in `lang` (the figure's language, selected
/// again after the fetch: another figure may have drawn meanwhile); the
/// configuration then carries its scenario or its problems. A relative URL
/// is the course page's ([`resolved`]); a problem names the whole URL.
async fn with_file(mut config: Config, lang: &str) -> Config {
    let loaded = match config.file.clone() {
        None => return config,
        Some(FileRequest::Inline(value)) => file::load_value(&value),
        Some(FileRequest::Url(url)) => match fetch_file(&resolved(&url), MAX_FILE_BYTES).await {
            Ok(text) => {
                crate::i18n::select(lang);
                file::load(&text)
            }
            Err(why) => {
                crate::i18n::select(lang);
                let url = resolved(&url);
                // Said in the installed language (the catalog came first).
                let mut said = crate::i18n::tf("file.unloadable", &[("url", &url), ("why", &why)]);
                if cross_origin(&url) {
                    said.push_str(&crate::i18n::t("file.cors"));
                }
                Err(vec![file::FileError::new("", said.into())])
            }
        },
    };
    // The author's text in the page's language, and the problems said in
    // it (the whole catalog, notes included, is installed by now).
    let loaded = loaded
        .map(|file| file.localized(&crate::i18n::lang()))
        .map(std::rc::Rc::new)
        .map_err(|errors| {
            errors
                .iter()
                .map(|e| crate::i18n::note(&e.note()))
                .collect::<Vec<_>>()
        });
    if let Err(problems) = &loaded {
        gloo::console::error!(format!(
            "mcp-lanes: the scenario file cannot be shown:\n  {}",
            problems.join("\n  ")
        ));
    }
    config.loaded = Some(loaded);
    config
}

/// Whether a JS value nests deeper than a scenario file may (or refers to
/// itself): checked before it is read, as a cycle or a very deep object
/// would make the reader recurse without end.
fn too_deep(value: &JsValue, depth: usize) -> bool {
    if depth > MAX_DEPTH + 2 {
        return true;
    }
    if js_sys::Array::is_array(value) {
        return js_sys::Array::from(value)
            .iter()
            .any(|item| too_deep(&item, depth + 1));
    }
    if value.is_object() && !value.is_function() {
        let object: &js_sys::Object = value.unchecked_ref();
        return js_sys::Object::keys(object).iter().any(|key| {
            js_sys::Reflect::get(value, &key).is_ok_and(|item| too_deep(&item, depth + 1))
        });
    }
    false
}

/// Mount options as JSON, read with serde-wasm-bindgen.
fn read_options(options: &JsValue) -> Result<Value, String> {
    if options.is_undefined() || options.is_null() {
        return Ok(Value::Null);
    }
    if too_deep(options, 0) {
        return Err(format!(
            "options: nested more than {MAX_DEPTH} levels deep (the limit), or an object that contains itself"
        ));
    }
    serde_wasm_bindgen::from_value::<Value>(options.clone())
        .map_err(|err| format!("options: cannot be read ({err})"))
}

thread_local! {
    /// The running page (kept: its listeners live as long as it does).
    static PAGE: std::cell::RefCell<Option<Page>> = const { std::cell::RefCell::new(None) };
}

/// Starts the page with what the URL and a hand-over say (under
/// `embed.js`, waits for `McpLanes.mount` instead).
pub fn start() {
    if script_base().is_some() {
        return;
    }
    let mut config = page_config();
    if let Some(handoff) = hand_over::take() {
        config.receive(&handoff);
    }
    // The rules of what only this bundle draws come with it.
    let styled = match (stylesheet(FULL_CSS), gloo::utils::document().head()) {
        (Ok(link), Some(head)) if head.append_child(&link).is_ok() => Some(stylesheet_ready(&link)),
        _ => None,
    };
    wasm_bindgen_futures::spawn_local(async move {
        prefetch_catalog("", config.lang.as_deref(), None);
        // The catalog first: a recorded check's problems are in its language.
        let tag = load_catalog("", config.lang.as_deref(), None).await;
        load_full_catalog().await;
        localize_page(&tag);
        if config.timeline.is_some() {
            config = with_recording(config, &tag).await;
        } else if config.file.is_some() {
            config = with_file(config, &tag).await;
        }
        // The options' problems, in the page's language now.
        config.problem = page_config().problem;
        if let Some(problem) = &config.problem {
            gloo::console::error!(format!("mcp-lanes: {problem}"));
        }
        if let Some(styled) = styled {
            let _ = JsFuture::from(styled).await;
        }
        // The page runs until it is closed.
        if let Some(page) = runtime::render_page(config) {
            PAGE.with(|p| *p.borrow_mut() = Some(page));
        }
    });
}

// Renders a figure into a shadow root on `host` (its styles stay inside,
// the page's stay outside; the page's CSS variables still theme it).
// Bad options give one console error, a notice in the figure and the
// defaults.
// A scenario file (`scenarioUrl`, or `scenario` as an object) is fetched
// and checked first; an invalid one shows its problems instead of lanes.
// A recorded conversation (`transcriptUrl`, or `transcript` as the file's
// JSON) is fetched and read by the core's importer, drawn with its
// verdicts; one that cannot be read is said in the figure's notice.
// `handoff` is a drawn or lite figure's hand-over (embed.js passes it): the
// figure opens that state on that figure's root (patching what differs),
// and embed.js then releases the figure that was there.
#[wasm_bindgen]
pub async fn mount(
    host: Element,
    options: JsValue,
    handoff: Option<String>,
) -> Result<Handle, JsValue> {
    figure::require_element(&host)?;
    let options = read_options(&options);
    let parse = |options: &Result<Value, String>| match options {
        Ok(options) => Config::from_options(Mode::Mount, options),
        Err(why) => {
            let mut config = Config::from_options(Mode::Mount, &Value::Null);
            config.problem = Some(crate::i18n::tf("options.unreadable", &[("why", why)]));
            config
        }
    };
    let mut config = parse(&options);
    if let Some(handoff) = &handoff {
        config.receive(handoff);
    }
    config.reduced_motion = crate::browser::reduced_motion();
    let base = script_base().unwrap_or_else(|| "/".into());
    prefetch_catalog(&base, config.lang.as_deref(), Some(&host));
    let lang = load_catalog(&base, config.lang.as_deref(), Some(&host)).await;
    // The whole catalog first: a file's problems are said in it.
    load_full_catalog().await;
    // (Each `await` may let another figure select its language.)
    crate::i18n::select(&lang);
    // A recording (read in the figure's language), else the file's own
    // text in the figure's language (its translations).
    config = if config.timeline.is_some() {
        with_recording(config, &lang).await
    } else {
        with_file(config, &lang).await
    };
    // The options' problems, in the figure's language now.
    config.problem = parse(&options).problem;
    // (The lite figure said so already.)
    if let (Some(problem), None) = (&config.problem, &handoff) {
        gloo::console::error!(format!("mcp-lanes: {problem}"));
    }
    let shadow = figure::shadow_root(&host)?;
    // A hand-over takes the figure's root over, and its stylesheet stays.
    let taken = match &handoff {
        Some(_) => shadow.query_selector(".app-root")?,
        None => None,
    };
    let sheets: &[&str] = if taken.is_some() {
        &[FULL_CSS]
    } else {
        shadow.set_inner_html("");
        &["style.css", FULL_CSS]
    };
    // Colour options: custom properties on the host, through the CSSOM.
    if let Some(el) = host.dyn_ref::<web_sys::HtmlElement>() {
        crate::browser::apply_colors(el, &config.colors);
    }
    let document = gloo::utils::document();
    let mut styled = Vec::new();
    for sheet in sheets {
        let link = stylesheet(&format!("{base}{sheet}"))?;
        shadow.append_child(&link)?;
        styled.push(stylesheet_ready(&link));
    }
    for ready in styled {
        let _ = JsFuture::from(ready).await;
    }
    let root = match taken {
        Some(root) => root,
        None => {
            let root = document.create_element("div")?;
            root.set_class_name("app-root");
            shadow.append_child(&root)?;
            root
        }
    };
    root.set_attribute("lang", &lang)?;
    // The figure draws in its own language from now on (`Page::mount`).
    crate::i18n::select(&lang);
    Ok(Handle::new(Some(Page::mount(root, config, Some(host)))))
}
