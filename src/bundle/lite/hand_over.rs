//! The lite bundle's side of the hand-over to the full one (the full side,
//! in `bundle/full/hand_over.rs`, reads it).
//!
//! The lite bundle (first visit) has no simulator. When a person asks for
//! something that needs it, the state asks for an `Upgrade`; here the lite
//! page writes a [`Handoff`] into the global `mcpLanesHandoff`, imports the
//! full bundle and stops (its listeners and timers; what it drew stays).
//! The full bundle's start reads and clears the hand-over and runs its
//! runtime on the same root, patching what differs, so the person sees
//! the change made, with focus where it was.
//!
//! A script figure (`McpLanes.mount`, `entry::mount`) hands over on its
//! own: the [`Handoff`] goes to the `upgrade` function `embed.js` gave it,
//! which mounts the full bundle's figure on the same root in the same
//! shadow root and then releases the lite figure; the other figures on the
//! page stay lite.

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

use crate::config::{Arrival, Handoff, HANDOFF_GLOBAL};
use crate::state::{State, Upgrade};

pub use super::recorded::fetch_for;

/// The full bundle's module, next to the page.
const FULL: &str = "mcp-lanes-web.js";

/// Stops the lite page (what it drew stays, for the full page).
type TakeDown = Box<dyn FnOnce()>;

/// Hears that the full bundle could not be loaded.
pub type Failed = Box<dyn FnOnce()>;

thread_local! {
    /// The lite page's root element and what stops it once the full
    /// bundle runs.
    static RUNNING: RefCell<Option<(Element, TakeDown)>> = const { RefCell::new(None) };
    /// Set once the hand-over started: later changes wait for the full page.
    static HANDING_OVER: Cell<bool> = const { Cell::new(false) };
    /// The script figures on the page: each one's root element, the
    /// `upgrade` function embed.js gave it, and whether it is handing over.
    static FIGURES: RefCell<Vec<(Element, js_sys::Function, bool)>> = const { RefCell::new(Vec::new()) };
}

// The full bundle is fetched and compiled as soon as a reader shows the
// intent to change something (the pointer over, a touch on, or focus on a
// control marked `data-handover`: a lane's "Settings", the exports, the
// check panel, the editor tab), so that most of its load is done by the
// click; a visit without that intent never loads it. `load_module` then
// runs its init with the compiled module (or fetches it, if that failed).
#[wasm_bindgen(inline_js = r#"
let pending;
let part;
const fetchFull = (url) => {
  if (part) (globalThis.mcpLanesI18n ??= {})[part] ??= fetch(part);
  if (!pending) fetch(new URL('full.css', url)).catch(() => undefined);
  pending ??= [import(url), WebAssembly.compileStreaming(fetch(url.replace(/\.js$/, '_bg.wasm'))).catch(() => undefined)];
  return pending;
};
export function watch_intent(url, catalog) {
  part = catalog;
  const seen = (e) => {
    const target = e.composedPath()[0];
    if (target instanceof Element && target.closest('[data-handover]')) {
      fetchFull(url);
      for (const type of ['pointerover', 'focusin', 'touchstart']) document.removeEventListener(type, seen, true);
    }
  };
  for (const type of ['pointerover', 'focusin', 'touchstart']) document.addEventListener(type, seen, { capture: true, passive: true });
}
export function load_module(url) {
  const [module, wasm] = fetchFull(url);
  return Promise.all([module, wasm])
    .then(([m, compiled]) => m.default(compiled ? { module_or_path: compiled } : undefined))
    .catch((e) => {
      pending = undefined;
      throw e;
    });
}
"#)]
extern "C" {
    /// Fetches and compiles the full bundle (`url`, its JS glue), its part
    /// of the catalog (`catalog`, into the cache of `browser::catalog`) and
    /// its stylesheet (`full.css`, into the HTTP cache), at the first sign
    /// that a reader is about to change something, or at the hand-over.
    fn watch_intent(url: &str, catalog: &str);
    /// `import(url)` and run its wasm-bindgen init (the bundle's `main`),
    /// with the module `watch_intent` compiled when there is one.
    fn load_module(url: &str) -> js_sys::Promise;
}

/// The full bundle's JS glue, next to the page.
fn full_url() -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_default();
    web_sys::Url::new_with_base(FULL, &base)
        .map(|u| u.href())
        .unwrap_or_else(|_| FULL.to_string())
}

/// Keeps the lite page's root and what stops it (boot renders it).
pub fn keep(root: Element, take_down: TakeDown) {
    RUNNING.with(|r| *r.borrow_mut() = Some((root, take_down)));
    let part = format!("i18n/{}.full.json", crate::i18n::lang());
    watch_intent(&full_url(), &part);
}

/// Keeps a script figure's root and embed.js's `upgrade` for it.
pub fn keep_figure(root: Element, upgrade: js_sys::Function) {
    FIGURES.with(|f| f.borrow_mut().push((root, upgrade, false)));
}

/// Forgets a script figure (it was destroyed or handed over).
pub fn forget(root: &Element) {
    FIGURES.with(|f| f.borrow_mut().retain(|(r, _, _)| r != root));
}

/// Hands `upgrade` to the full bundle and, once it runs, stops the lite
/// page (the full page takes its root over). `state` is the lite page's (for what a link does not
/// record); `None` when the lite page never rendered. If the full bundle
/// cannot be loaded, `failed` hears it (the lite page stays as it was, with
/// a notice); without a lite page the body says so. `app` is the app's
/// root element: inside a script figure, that figure alone hands over.
pub fn to_full(
    state: Option<&State>,
    upgrade: Upgrade,
    failed: Option<Failed>,
    app: Option<Element>,
) {
    let figure = app.and_then(|app| {
        FIGURES.with(|f| {
            f.borrow_mut()
                .iter_mut()
                .find(|(root, _, _)| root.contains(Some(&app)))
                .map(|(root, upgrade, busy)| {
                    (root.clone(), upgrade.clone(), std::mem::replace(busy, true))
                })
        })
    });
    if let Some((root, function, busy)) = figure {
        if !busy {
            figure_to_full(state, upgrade, failed, root, function);
        }
        return;
    }
    if HANDING_OVER.with(|h| h.replace(true)) {
        return;
    }
    let root = RUNNING.with(|r| r.borrow().as_ref().map(|(root, _)| root.clone()));
    let document = web_sys::window().and_then(|w| w.document());
    let focused = document.as_ref().and_then(|d| d.active_element());
    let handoff = handoff(state, upgrade, root.as_ref(), focused);
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &HANDOFF_GLOBAL.into(), &handoff.to_json().into());
    }
    let url = full_url();
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
                let _ = js_sys::Reflect::delete_property(&window, &HANDOFF_GLOBAL.into());
            }
            match (root, failed) {
                (Some(root), Some(failed)) => {
                    let _ = root.remove_attribute("aria-busy");
                    failed();
                }
                _ => show_failure(),
            }
            return;
        }
        // The full bundle runs: the lite page stops, and the full page
        // takes its root over.
        if let Some((_, take_down)) = RUNNING.with(|r| r.borrow_mut().take()) {
            take_down();
        }
        if let (Some(window), Some(y)) = (web_sys::window(), scroll) {
            window.scroll_to_with_x_and_y(0.0, y);
        }
    });
}

/// What the full bundle restores: the link after the change, and the
/// selection, speed, focused control (`focused`, when inside `root`) and
/// open panels.
fn handoff(
    state: Option<&State>,
    upgrade: Upgrade,
    root: Option<&Element>,
    focused: Option<Element>,
) -> Handoff {
    Handoff {
        link: upgrade.link,
        speed: state.map(|s| s.speed),
        arrival: Arrival {
            selected: state.and_then(|s| s.selected).map(|s| (s.lane, s.event)),
            editor: upgrade.editor,
            focus: focused
                .filter(|el| root.is_some_and(|r| r.contains(Some(el))))
                .and_then(|el| el.get_attribute("data-testid")),
            open: root.map(open_panels).unwrap_or_default(),
        },
    }
}

/// Hands one script figure to the full bundle through embed.js's
/// `upgrade`, which mounts the full figure on its root and then releases
/// this one (`figure::Handle::release`); on failure the figure stays, with
/// `failed` told.
fn figure_to_full(
    state: Option<&State>,
    upgrade: Upgrade,
    failed: Option<Failed>,
    root: Element,
    function: js_sys::Function,
) {
    let focused = root
        .get_root_node()
        .dyn_into::<web_sys::ShadowRoot>()
        .ok()
        .and_then(|shadow| shadow.active_element());
    let handoff = handoff(state, upgrade, Some(&root), focused);
    let _ = root.set_attribute("aria-busy", "true");
    wasm_bindgen_futures::spawn_local(async move {
        let called = function
            .call1(&JsValue::NULL, &handoff.to_json().into())
            .map(js_sys::Promise::from);
        let done = match called {
            Ok(promise) => wasm_bindgen_futures::JsFuture::from(promise).await.is_ok(),
            Err(_) => false,
        };
        if done {
            return;
        }
        gloo::console::error!(
            "mcp-lanes: the full bundle could not be loaded; reload the page to try again"
        );
        let _ = root.remove_attribute("aria-busy");
        FIGURES.with(|f| {
            for figure in f.borrow_mut().iter_mut().filter(|(r, _, _)| *r == root) {
                figure.2 = false;
            }
        });
        if let Some(failed) = failed {
            failed();
        }
    });
}

/// `data-testid`s of the open `<details>` panels inside `root`.
fn open_panels(root: &Element) -> Vec<String> {
    root.query_selector_all("details[open][data-testid]")
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i))
                .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<Element>(n).ok())
                .filter_map(|el| el.get_attribute("data-testid"))
                .collect()
        })
        .unwrap_or_default()
}

/// Nothing rendered yet and no full bundle: says so in the page (as text)
/// instead of leaving it blank.
fn show_failure() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let (Ok(p), Some(body)) = (document.create_element("p"), document.body()) {
        p.set_class_name("load-failure");
        p.set_attribute("role", "alert").ok();
        p.set_text_content(Some(&crate::i18n::get("page.load_failure").unwrap_or_else(
            || {
                "mcp-lanes could not load its simulator. Check the connection and reload the page."
                    .into()
            },
        )));
        let _ = body.append_child(&p);
    }
}
