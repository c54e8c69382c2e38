//! A figure `McpLanes.mount` rendered: the handle both bundles return to
//! `embed.js`, which controls the figure and takes it down.

use wasm_bindgen::prelude::*;
use web_sys::Element;

use crate::boot::Running;
use crate::browser::to_json;
use crate::hooks::use_bridge::Remote;

// One mounted figure. A lite figure's root leaves its shadow root when it
// goes, since the full figure that replaces it lives beside it there.
#[wasm_bindgen]
pub struct Handle {
    app: Option<Running>,
    remote: Remote,
    leaving: Option<fn(&Element)>,
}

impl Handle {
    /// The handle of `app` (`None`: the figure went to the other bundle at
    /// once, and this handle does nothing), controlled through `remote`.
    pub fn new(app: Option<Running>, remote: Remote) -> Self {
        Self {
            app,
            remote,
            leaving: None,
        }
    }

    /// On `destroy`, `leaving(root)` runs first, and the figure's root is
    /// removed after the app stops.
    pub fn removing_root(mut self, leaving: fn(&Element)) -> Self {
        self.leaving = Some(leaving);
        self
    }
}

#[wasm_bindgen]
impl Handle {
    // Applies a control message (`{type: "mcp-lanes:control", action,
    // step?}`, as a parent window would post it); returns whether it was
    // one.
    pub fn control(&self, message: JsValue) -> bool {
        if self.app.is_none() {
            return false;
        }
        let action = to_json(&message)
            .as_ref()
            .and_then(crate::state::Action::from_control);
        action.is_some_and(|action| self.remote.dispatch(action))
    }

    // Removes the figure: its timers and listeners stop.
    pub fn destroy(&mut self) {
        if let Some(app) = self.app.take() {
            let root = app.root().clone();
            if let Some(leaving) = self.leaving {
                leaving(&root);
            }
            app.destroy();
            if self.leaving.is_some() {
                root.remove();
            }
        }
        self.remote.clear();
    }
}

pub use crate::browser::{refuse, require_element, shadow_root};
