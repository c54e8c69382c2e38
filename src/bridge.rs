//! A figure and the page around it (both bundles): the events a figure
//! tells its page (`mcp-lanes:step`, `:reply`, `:complete`, an iframe's
//! `:height`), the control messages an iframe figure obeys, and a figure's
//! theme and colours; on the page itself, the permalink while stopped.

use std::cell::Cell;
use std::rc::Rc;

use gloo::events::EventListener;
use mcp_lanes_core::sim::{EventKind, MessageKind, Side};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CustomEvent, CustomEventInit, Element, MessageEvent, ResizeObserver};

use crate::browser::to_json;
use crate::config::{Config, Mode};
use crate::model::kind_name;
use crate::permalink;
use crate::state::{Action, State};

/// Tells the page around the figure: a `CustomEvent` named `name` with
/// `detail` on the host element (script), or `detail` plus `type: name`
/// posted to the parent window (iframe; the payloads are public, so any
/// parent may read them).
fn emit(config: &Config, host: Option<&Element>, name: &str, detail: &[(&str, JsValue)]) {
    let object = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(&object, &k.into(), v);
    };
    for (k, v) in detail {
        set(k, v);
    }
    match (config.mode, host) {
        (Mode::Mount, Some(host)) => {
            let init = CustomEventInit::new();
            init.set_detail(&object);
            init.set_bubbles(true);
            if let Ok(event) = CustomEvent::new_with_event_init_dict(name, &init) {
                let _ = host.dispatch_event(&event);
            }
        }
        (Mode::Frame, _) => {
            set("type", &name.into());
            post_to_parent(&object);
        }
        _ => {}
    }
}

/// Posts to the parent window, if there is one.
fn post_to_parent(message: &JsValue) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(Some(parent)) = window.parent() {
        if !js_sys::Object::is(&parent, &window) {
            let _ = parent.post_message(message, "*");
        }
    }
}

/// After a render: on the page, the permalink while stopped; in a figure,
/// every move of the playhead, and the replies and the end when playback
/// gets there. `last` is the (position, length) reported before.
pub fn report(config: &Config, host: Option<&Element>, state: &State, last: &mut (usize, usize)) {
    if config.mode == Mode::Page {
        if !state.playing {
            permalink::write(state);
        }
        return;
    }
    let (pos, total) = (state.pos, state.layout.len());
    let (before, was) = std::mem::replace(last, (pos, total));
    if (before, was) == (pos, total) {
        return;
    }
    let scenario = JsValue::from(state.scenario_id());
    let at = state.time().unwrap_or(0) as f64;
    emit(
        config,
        host,
        "mcp-lanes:step",
        &[
            ("scenario", scenario.clone()),
            ("step", (pos as u32).into()),
            ("total", (total as u32).into()),
            ("atMs", at.into()),
        ],
    );
    if pos == before + 1 {
        for (n, lane) in state.lanes.iter().enumerate() {
            let at_pos = lane
                .timeline
                .events
                .iter()
                .filter(|e| Some(e.at_ms) == state.time());
            for event in at_pos {
                if let EventKind::Message(m) = &event.kind {
                    if m.from == Side::Server
                        && matches!(m.kind, MessageKind::Result | MessageKind::Error)
                    {
                        emit(
                            config,
                            host,
                            "mcp-lanes:reply",
                            &[
                                ("lane", (n as u32).into()),
                                ("label", m.label.as_str().into()),
                                ("kind", kind_name(m.kind).into()),
                            ],
                        );
                    }
                }
            }
        }
    }
    if pos > before && pos >= total && total > 0 {
        emit(
            config,
            host,
            "mcp-lanes:complete",
            &[("scenario", scenario)],
        );
    }
}

/// An iframe figure's listener for control messages posted to its window
/// by an allowed origin (`None` elsewhere: a script figure is driven by its
/// own handle, so one `postMessage` never drives every figure at once).
/// Also applies the figure's colours to its document.
pub fn listen_for_control(config: &Config, on: impl Fn(Action) + 'static) -> Option<EventListener> {
    let window = web_sys::window()?;
    if config.mode != Mode::Frame {
        return None;
    }
    if let Some(root) = window
        .document()
        .and_then(|d| d.document_element())
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        crate::browser::apply_colors(&root, &config.colors);
    }
    let own = window.location().origin().unwrap_or_default();
    let mut allowed = config.origins.clone();
    allowed.push(own);
    let logged = Rc::new(Cell::new(false));
    Some(EventListener::new(&window, "message", move |event| {
        let Some(event) = event.dyn_ref::<MessageEvent>() else {
            return;
        };
        let data = to_json(&event.data());
        let Some(data) = data.filter(|d| d.get("type").is_some_and(|t| t == "mcp-lanes:control"))
        else {
            return;
        };
        let action = allowed
            .contains(&event.origin())
            .then(|| Action::from_control(&data))
            .flatten();
        match action {
            Some(action) => on(action),
            None if !logged.replace(true) => gloo::console::debug!(
                "mcp-lanes: ignored a control message (origin not allowed, or not a documented shape; see README)"
            ),
            None => {}
        }
    }))
}

/// A figure's theme from its options: on the host element (script) or the
/// iframe's document.
pub fn apply_figure_theme(config: &Config, host: Option<&Element>) {
    let theme_root = match config.mode {
        Mode::Mount => host.cloned(),
        Mode::Frame => web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element()),
        Mode::Page => None,
    };
    if let (Some(el), Some(theme)) = (theme_root, config.theme) {
        let _ = el.set_attribute("data-theme", theme);
    }
}

/// Tells the parent window the iframe figure's height whenever it changes.
pub struct HeightReport {
    observer: ResizeObserver,
    _post: Closure<dyn FnMut()>,
    /// The root, measured after every render too.
    target: web_sys::HtmlElement,
    /// The height last posted.
    last: std::rc::Rc<std::cell::Cell<i32>>,
}

/// Posts `height` to the parent unless it is the one posted last.
fn post_height(height: i32, last: &std::cell::Cell<i32>) {
    if last.replace(height) == height {
        return;
    }
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &"mcp-lanes:height".into());
    let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
    post_to_parent(&message);
}

impl HeightReport {
    /// Starts reporting `root`'s height (`None` outside an iframe figure).
    pub fn start(config: &Config, root: &Element) -> Option<HeightReport> {
        if config.mode != Mode::Frame {
            return None;
        }
        let target = root.dyn_ref::<web_sys::HtmlElement>()?.clone();
        let last = std::rc::Rc::new(std::cell::Cell::new(-1));
        let post = {
            let (target, last) = (target.clone(), last.clone());
            Closure::<dyn FnMut()>::new(move || post_height(target.offset_height(), &last))
        };
        let observer = ResizeObserver::new(post.as_ref().unchecked_ref()).ok()?;
        observer.observe(root);
        Some(HeightReport {
            observer,
            _post: post,
            target,
            last,
        })
    }

    /// Measures and posts the height now (after a render). A browser does
    /// not render an iframe out of view (nor tell its resize observers)
    /// until it is scrolled to; measuring does not wait for that, so the
    /// frame takes its height while out of view.
    pub fn report(&self) {
        post_height(self.target.offset_height(), &self.last);
    }
}

impl Drop for HeightReport {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}
