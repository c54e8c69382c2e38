//! Figures in other pages: `McpLanes.mount(host, options)` (www/embed.js
//! loads this module and calls [`mount`]), and what a figure tells the
//! page around it and accepts from it (README, "Embedding in a course
//! page", documents every shape). The exported items have plain comments:
//! wasm-bindgen would copy doc comments into the JS glue.

use serde_json::Value;
use wasm_bindgen::prelude::*;
use web_sys::{CustomEvent, CustomEventInit};
#[cfg(feature = "engine")]
use web_sys::{Element, ShadowRootInit, ShadowRootMode};
#[cfg(feature = "engine")]
use yew::AppHandle;

#[cfg(feature = "engine")]
use crate::components::app::{App, AppProps};
use crate::config::{Config, Mode};
#[cfg(feature = "engine")]
use crate::model::Shared;
use crate::state::Action;

/// The global `embed.js` sets before it loads this module: the bundle's
/// base URL. While it is set, `main` leaves the page alone.
const GLOBAL: &str = "mcpLanesEmbed";

/// The bundle's base URL when `embed.js` loaded the module.
pub fn script_base() -> Option<String> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &GLOBAL.into())
        .ok()?
        .as_string()
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

// One mounted figure (returned to JS by `McpLanes.mount`). Full bundle
// only: embed.js loads that one.
#[cfg(feature = "engine")]
#[wasm_bindgen]
pub struct Handle {
    app: Option<AppHandle<App>>,
    config: Shared<Config>,
}

#[cfg(feature = "engine")]
#[wasm_bindgen]
impl Handle {
    // Applies a control message (`{type: "mcp-lanes:control", action,
    // step?}`, as a parent window would post it); returns whether it was
    // one.
    pub fn control(&self, message: JsValue) -> bool {
        let action = to_json(&message).as_ref().and_then(control_action);
        match (action, self.config.dispatcher.borrow().as_ref()) {
            (Some(action), Some(dispatcher)) => {
                dispatcher.dispatch(action);
                true
            }
            _ => false,
        }
    }

    // Removes the figure (its timers and listeners stop).
    pub fn destroy(&mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
    }
}

// Renders a figure into a shadow root on `host` (its styles stay inside,
// the page's stay outside; the page's CSS variables still theme it).
// Bad options give one console error, a notice in the figure and the
// defaults.
#[cfg(feature = "engine")]
#[wasm_bindgen]
pub fn mount(host: Element, options: JsValue) -> Result<Handle, JsValue> {
    let fail = |why: &str| {
        let why = format!("mcp-lanes: {why}");
        gloo::console::error!(why.clone());
        Err(JsValue::from(js_sys::Error::new(&why)))
    };
    if !host.is_instance_of::<Element>() {
        return fail("McpLanes.mount needs an element to show the figure in");
    }
    let options = to_json(&options).unwrap_or(Value::Bool(false));
    let mut config = Config::from_options(Mode::Mount, &options);
    if let Some(problem) = &config.problem {
        gloo::console::error!(format!("mcp-lanes: {problem}"));
    }
    let shadow = match host.shadow_root() {
        Some(shadow) => shadow,
        None => match host.attach_shadow(&ShadowRootInit::new(ShadowRootMode::Open)) {
            Ok(shadow) => shadow,
            Err(_) => return fail("this element cannot hold a figure (use a <div>)"),
        },
    };
    shadow.set_inner_html("");
    let document = gloo::utils::document();
    let link = document.create_element("link")?;
    link.set_attribute("rel", "stylesheet")?;
    let base = script_base().unwrap_or_else(|| "/".into());
    link.set_attribute("href", &format!("{base}style.css"))?;
    let root = document.create_element("div")?;
    shadow.append_child(&link)?;
    shadow.append_child(&root)?;
    config.host = Some(host);
    let config = Shared::new(config);
    let props = AppProps {
        config: config.clone(),
    };
    let app = yew::Renderer::<App>::with_root_and_props(root, props).render();
    Ok(Handle {
        app: Some(app),
        config,
    })
}

/// The action a control message asks for, if it has one of the documented
/// shapes: `{type: "mcp-lanes:control", action: "play" | "pause" | "step"
/// | "restart"}` or `{…, action: "seek", step: N}`.
pub fn control_action(message: &Value) -> Option<Action> {
    let m = message.as_object()?;
    if m.get("type")? != "mcp-lanes:control"
        || m.keys()
            .any(|k| !matches!(k.as_str(), "type" | "action" | "step"))
    {
        return None;
    }
    Some(match (m.get("action")?.as_str()?, m.get("step")) {
        ("play", None) => Action::Play,
        ("pause", None) => Action::Pause,
        ("step", None) => Action::StepForward,
        ("restart", None) => Action::Restart,
        ("seek", Some(step)) => Action::Seek(step.as_u64()?.min(1 << 30) as usize),
        _ => return None,
    })
}

/// Tells the page around the figure: a `CustomEvent` named `name` with
/// `detail` on the host element (script), or `detail` plus `type: name`
/// posted to the parent window (iframe; the payloads are public, so any
/// parent may read them).
pub fn emit(config: &Config, name: &str, detail: &[(&str, JsValue)]) {
    let object = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(&object, &k.into(), v);
    };
    for (k, v) in detail {
        set(k, v);
    }
    match (config.mode, &config.host) {
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
pub fn post_to_parent(message: &JsValue) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Ok(Some(parent)) = window.parent() {
        if !js_sys::Object::is(&parent, &window) {
            let _ = parent.post_message(message, "*");
        }
    }
}
