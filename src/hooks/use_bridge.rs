//! What the app tells the world around it. On the playground page: the
//! permalink in the URL. In a figure (iframe or script mount): step, reply
//! and completion events, control messages from allowed origins, the
//! iframe's height, and the theme the embedding page asked for. README,
//! "Embedding in a course page", documents every shape.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::EventListener;
use mcp_lanes_core::sim::{EventKind, MessageKind, Side};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CustomEvent, CustomEventInit, Element, MessageEvent, ResizeObserver};
use yew::prelude::*;

use crate::browser::to_json;
use crate::config::{Config, Mode};
use crate::model::{kind_name, Shared};
use crate::permalink;
use crate::state::{Action, State};

/// How `McpLanes.mount`'s handle reaches a figure's state: the app leaves
/// its dispatcher here once it runs.
#[derive(Clone, Default)]
pub struct Remote(Rc<RefCell<Option<UseReducerDispatcher<State>>>>);

impl PartialEq for Remote {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Remote {
    /// Forgets the figure (it was destroyed): `dispatch` is false from now on.
    pub fn clear(&self) {
        self.0.borrow_mut().take();
    }

    /// Hands `action` to the figure; false before the figure runs, and
    /// after it was destroyed.
    pub fn dispatch(&self, action: Action) -> bool {
        match self.0.borrow().as_ref() {
            Some(dispatcher) => {
                dispatcher.dispatch(action);
                true
            }
            None => false,
        }
    }
}

/// A mounted figure's place in the page around it (`McpLanes.mount`).
#[derive(Clone, Default, PartialEq)]
pub struct Host {
    /// The element the figure is mounted on: its events are dispatched
    /// there and its theme set there.
    pub element: Option<Element>,
    /// Reaches the figure's state from the page.
    pub remote: Remote,
}

/// Tells the page around the figure: a `CustomEvent` named `name` with
/// `detail` on the host element (script), or `detail` plus `type: name`
/// posted to the parent window (iframe; the payloads are public, so any
/// parent may read them).
fn emit(config: &Config, host: &Host, name: &str, detail: &[(&str, JsValue)]) {
    let object = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(&object, &k.into(), v);
    };
    for (k, v) in detail {
        set(k, v);
    }
    match (config.mode, &host.element) {
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

/// Wires the app to the page's URL, or a figure to the page around it.
#[hook]
pub fn use_bridge(
    state: &UseReducerHandle<State>,
    config: &Shared<Config>,
    host: &Host,
    root: &NodeRef,
) {
    // The last (position, length) reported.
    let last = use_mut_ref(|| (0usize, usize::MAX));

    // The permalink while stopped; in a figure, every move of the playhead,
    // and the replies and the end when playback gets there.
    {
        let (config, host) = (config.clone(), host.clone());
        let state = state.clone();
        use_effect_with(
            (
                state.pos,
                state.layout.clone(),
                state.playing,
                state.editor_link.clone(),
            ),
            move |_| {
                if config.mode == Mode::Page {
                    if !state.playing {
                        permalink::write(&state);
                    }
                    return;
                }
                let (pos, total) = (state.pos, state.layout.len());
                let (before, was) = last.replace((pos, total));
                if (before, was) == (pos, total) {
                    return;
                }
                let scenario = JsValue::from(state.scenario_id());
                let at = state.time().unwrap_or(0) as f64;
                emit(
                    &config,
                    &host,
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
                                        &config,
                                        &host,
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
                        &config,
                        &host,
                        "mcp-lanes:complete",
                        &[("scenario", scenario)],
                    );
                }
            },
        );
    }

    // Control messages, the theme, the height; and the dispatcher for
    // `Handle::control`.
    let dispatcher = state.dispatcher();
    let (config, host) = (config.clone(), host.clone());
    let root = root.clone();
    use_effect_with((), move |_| {
        *host.remote.0.borrow_mut() = Some(dispatcher.clone());
        let window = web_sys::window();
        let mut listener = None;
        let mut observer = None;
        // Only an iframe figure listens to messages posted to its window: a
        // script figure is driven by its own handle (`control`), so one
        // `postMessage` on the page never drives every figure at once.
        if let (Some(window), Mode::Frame) = (&window, config.mode) {
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
            listener = Some(EventListener::new(window, "message", move |event| {
                let Some(event) = event.dyn_ref::<MessageEvent>() else {
                    return;
                };
                let data = to_json(&event.data());
                let Some(data) =
                    data.filter(|d| d.get("type").is_some_and(|t| t == "mcp-lanes:control"))
                else {
                    return;
                };
                let action = allowed
                    .contains(&event.origin())
                    .then(|| Action::from_control(&data))
                    .flatten();
                match action {
                    Some(action) => dispatcher.dispatch(action),
                    None if !logged.replace(true) => gloo::console::debug!(
                        "mcp-lanes: ignored a control message (origin not allowed, or not a documented shape; see README)"
                    ),
                    None => {}
                }
            }));
        }
        let theme_root = match config.mode {
            Mode::Mount => host.element.clone(),
            Mode::Frame => window
                .as_ref()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element()),
            Mode::Page => None,
        };
        if let (Some(el), Some(theme)) = (theme_root, config.theme) {
            let _ = el.set_attribute("data-theme", theme);
        }
        if let (Mode::Frame, Some(el)) = (config.mode, root.cast::<web_sys::HtmlElement>()) {
            let target = el.clone();
            let post = Closure::<dyn FnMut()>::new(move || {
                let message = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&message, &"type".into(), &"mcp-lanes:height".into());
                let _ = js_sys::Reflect::set(
                    &message,
                    &"height".into(),
                    &target.offset_height().into(),
                );
                post_to_parent(&message);
            });
            if let Ok(o) = ResizeObserver::new(post.as_ref().unchecked_ref()) {
                o.observe(&el);
                observer = Some((o, post));
            }
        }
        let remote = host.remote.clone();
        move || {
            remote.clear();
            drop(listener);
            if let Some((o, _)) = observer {
                o.disconnect();
            }
        }
    });
}
