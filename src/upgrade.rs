//! The hand-over from the lite bundle to the full one.
//!
//! The lite bundle (first visit) has no simulator. When a person asks for
//! something that needs it, the lite page writes a hand-over into the
//! global `mcpLanesHandoff` (JSON: the permalink of the state after the
//! change, plus what a link does not record: selection, editor, playback
//! speed, the focused control and the open panels), imports the full
//! bundle, whose start reads and clears it ([`take_handoff`]) and renders
//! into a new root, and then removes itself. Both bundles render the same
//! page, so the person sees the change made, with focus where it was.

use std::cell::RefCell;

#[cfg(feature = "engine")]
use serde_json::Value;
#[cfg(not(feature = "engine"))]
use wasm_bindgen::prelude::*;
use web_sys::Element;
use yew::AppHandle;

use crate::components::app::App;
use crate::config::Config;

/// The global the hand-over travels in.
const GLOBAL: &str = "mcpLanesHandoff";
/// The full bundle's module, next to the page.
#[cfg(not(feature = "engine"))]
const FULL: &str = "mcp-lanes-web.js";

thread_local! {
    /// The running app and its root element (the lite one is destroyed
    /// once the full one is up).
    static RUNNING: RefCell<Option<(AppHandle<App>, Element)>> = const { RefCell::new(None) };
    /// Set once the hand-over started: later changes wait for the full page.
    static HANDING_OVER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// What a hand-over restores beyond the permalink.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Arrival {
    /// The inspected event (lane, event).
    pub selected: Option<(usize, usize)>,
    /// Show the request editor.
    pub editor: bool,
    /// `data-testid` of the control that had focus.
    pub focus: Option<String>,
    /// `data-testid`s of the open `<details>` panels.
    pub open: Vec<String>,
}

/// A new element at the end of the body for an app to render into.
pub fn new_root() -> Option<Element> {
    let document = web_sys::window()?.document()?;
    let root = document.create_element("div").ok()?;
    root.set_class_name("app-root");
    document.body()?.append_child(&root).ok()?;
    Some(root)
}

/// Keeps the running app and its root (so the lite one can be taken down).
pub fn keep(handle: AppHandle<App>, root: Element) {
    RUNNING.with(|r| *r.borrow_mut() = Some((handle, root)));
}

/// Full bundle: reads and clears the hand-over, if the lite page left one,
/// and makes `config` open what it describes.
#[cfg(feature = "engine")]
pub fn take_handoff(config: &mut Config) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(text) = js_sys::Reflect::get(&window, &GLOBAL.into())
        .ok()
        .and_then(|v| v.as_string())
    else {
        return;
    };
    let _ = js_sys::Reflect::delete_property(&window, &GLOBAL.into());
    let Ok(v) = serde_json::from_str::<Value>(&text) else {
        return;
    };
    if let Some(link) = v["link"].as_str() {
        config.link = Some(mcp_lanes_core::share::from_fragment(link));
        config.step = 0;
    }
    if let Some(speed) = v["speed"].as_u64().map(|s| s as usize) {
        config.speed = (speed < crate::state::SPEEDS.len()).then_some(speed);
    }
    // The lite page stopped playback to hand over; a figure's `autoplay`
    // must not start it again.
    config.autoplay = false;
    let pair = |v: &Value| Some((v[0].as_u64()? as usize, v[1].as_u64()? as usize));
    config.arrival = Some(Arrival {
        selected: pair(&v["selected"]),
        editor: v["editor"].as_bool().unwrap_or(false),
        focus: v["focus"].as_str().map(str::to_string),
        open: v["open"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect(),
    });
}

/// Lite bundle: there is never a hand-over to take.
#[cfg(not(feature = "engine"))]
pub fn take_handoff(_config: &mut Config) {}

/// Full bundle: opens the panels and focuses the control the hand-over
/// names, inside `root`.
#[cfg(feature = "engine")]
pub fn arrive(root: &Element, arrival: &Arrival) {
    for id in &arrival.open {
        if let Ok(Some(el)) =
            root.query_selector(&format!("details[data-testid=\"{}\"]", css_id(id)))
        {
            let _ = el.set_attribute("open", "");
        }
    }
    if let Some(id) = &arrival.focus {
        if let Ok(Some(el)) = root.query_selector(&format!("[data-testid=\"{}\"]", css_id(id))) {
            if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                let _ = el.focus();
            }
        }
    }
}

/// A test id as it may appear in an attribute selector (ids are ours, but
/// a quote or backslash would break the selector).
#[cfg(feature = "engine")]
fn css_id(id: &str) -> String {
    id.chars().filter(|c| !matches!(c, '"' | '\\')).collect()
}

#[cfg(not(feature = "engine"))]
#[wasm_bindgen(
    inline_js = "export function load_module(url) { return import(url).then(m => m.default()); }"
)]
extern "C" {
    /// `import(url)` and run its wasm-bindgen init (the bundle's `main`).
    fn load_module(url: &str) -> js_sys::Promise;
}

/// Lite bundle: hands `upgrade` to the full bundle and, once it runs,
/// takes the lite page down. `state` is the lite page's (for what a link
/// does not record); `None` when the lite page never rendered. If the full
/// bundle cannot be loaded, `failed` hears it (the lite page stays as it
/// was, with a notice); without a lite page the body says so.
#[cfg(not(feature = "engine"))]
pub fn to_full(
    state: Option<&crate::state::State>,
    upgrade: crate::state::Upgrade,
    failed: Option<yew::Callback<()>>,
) {
    use mcp_lanes_core::share;
    if HANDING_OVER.with(|h| h.replace(true)) {
        return;
    }
    let root = RUNNING.with(|r| r.borrow().as_ref().map(|(_, root)| root.clone()));
    let document = web_sys::window().and_then(|w| w.document());
    let active = document
        .as_ref()
        .and_then(|d| d.active_element())
        .filter(|el| root.as_ref().is_some_and(|r| r.contains(Some(el))))
        .and_then(|el| el.get_attribute("data-testid"));
    let open: Vec<String> = root
        .as_ref()
        .and_then(|r| r.query_selector_all("details[open][data-testid]").ok())
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i))
                .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<Element>(n).ok())
                .filter_map(|el| el.get_attribute("data-testid"))
                .collect()
        })
        .unwrap_or_default();
    let handoff = serde_json::json!({
        "link": upgrade.link.as_ref().map(share::to_fragment),
        "selected": state.and_then(|s| s.selected).map(|s| [s.lane, s.event]),
        "editor": upgrade.editor,
        "speed": state.map(|s| s.speed),
        "focus": active,
        "open": open,
    });
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &GLOBAL.into(), &handoff.to_string().into());
    }
    let base = document
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    let url = web_sys::Url::new_with_base(FULL, &base)
        .map(|u| u.href())
        .unwrap_or_else(|_| FULL.to_string());
    // "Loading the simulator…" while the full bundle comes (style.css).
    if let Some(root) = &root {
        let _ = root.set_attribute("aria-busy", "true");
    }
    wasm_bindgen_futures::spawn_local(async move {
        let scroll = web_sys::window().and_then(|w| w.scroll_y().ok());
        if wasm_bindgen_futures::JsFuture::from(load_module(&url))
            .await
            .is_err()
        {
            gloo::console::error!(
                "mcp-lanes: the full bundle could not be loaded; reload the page to try again"
            );
            HANDING_OVER.with(|h| h.set(false));
            if let Some(window) = web_sys::window() {
                let _ = js_sys::Reflect::delete_property(&window, &GLOBAL.into());
            }
            match (root, failed) {
                (Some(root), Some(failed)) => {
                    let _ = root.remove_attribute("aria-busy");
                    failed.emit(());
                }
                _ => show_failure(),
            }
            return;
        }
        // The full page is up in its own root: take the lite one down.
        if let Some((handle, root)) = RUNNING.with(|r| r.borrow_mut().take()) {
            handle.destroy();
            root.remove();
        }
        if let (Some(window), Some(y)) = (web_sys::window(), scroll) {
            window.scroll_to_with_x_and_y(0.0, y);
        }
    });
}

/// Lite bundle, nothing rendered yet and no full bundle: says so in the
/// page (as text) instead of leaving it blank.
#[cfg(not(feature = "engine"))]
fn show_failure() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let (Ok(p), Some(body)) = (document.create_element("p"), document.body()) {
        p.set_class_name("load-failure");
        p.set_attribute("role", "alert").ok();
        p.set_text_content(Some(
            "mcp-lanes could not load its simulator. Check the connection and reload the page.",
        ));
        let _ = body.append_child(&p);
    }
}
