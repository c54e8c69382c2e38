//! How the full bundle starts: the page (taking over from the lite page
//! when it left a hand-over), or, loaded by `www/embed.js`, figures mounted
//! with `McpLanes.mount(host, options)`. The exported items have plain
//! comments: wasm-bindgen would copy doc comments into the JS glue.

use serde_json::Value;
use wasm_bindgen::prelude::*;
use web_sys::{Element, ShadowRootInit, ShadowRootMode};

use super::hand_over;
use crate::boot::{self, Running};
use crate::browser::{page_config, script_base, to_json};
use crate::config::{Config, Mode};
use crate::hooks::use_bridge::{Host, Remote};

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
    if let Some(problem) = &config.problem {
        gloo::console::error!(format!("mcp-lanes: {problem}"));
    }
    // The page runs until it is closed: its handle is not needed.
    let _ = boot::render(config);
}

// One mounted figure (returned to JS by `McpLanes.mount`).
#[wasm_bindgen]
pub struct Handle {
    app: Option<Running>,
    remote: Remote,
}

#[wasm_bindgen]
impl Handle {
    // Applies a control message (`{type: "mcp-lanes:control", action,
    // step?}`, as a parent window would post it); returns whether it was
    // one.
    pub fn control(&self, message: JsValue) -> bool {
        let action = to_json(&message)
            .as_ref()
            .and_then(crate::state::Action::from_control);
        action.is_some_and(|action| self.remote.dispatch(action))
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
    let config = Config::from_options(Mode::Mount, &options);
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
    let host = Host {
        element: Some(host),
        remote: Remote::default(),
    };
    let remote = host.remote.clone();
    Ok(Handle {
        app: Some(boot::mount(root, config, host)),
        remote,
    })
}
