//! A figure `McpLanes.mount` rendered: the handle both bundles return to
//! `embed.js`, which controls the figure, hands it over and takes it down.

use wasm_bindgen::prelude::*;
use web_sys::Element;

use crate::browser::to_json;
use crate::runtime::Page;

// One mounted figure (`McpLanes.mount`'s handle, through embed.js).
#[wasm_bindgen]
pub struct Handle {
    page: Option<Page>,
    leaving: Option<fn(&Element)>,
}

impl Handle {
    /// The handle of `page` (`None`: the figure went to the other bundle at
    /// once, and this handle does nothing).
    pub fn new(page: Option<Page>) -> Self {
        Self {
            page,
            leaving: None,
        }
    }

    /// When the figure is destroyed or released, `leaving(root)` runs first.
    pub fn leaving(mut self, leaving: fn(&Element)) -> Self {
        self.leaving = Some(leaving);
        self
    }

    fn stop(&mut self) -> Option<Page> {
        let page = self.page.take()?;
        if let Some(leaving) = self.leaving {
            leaving(page.root());
        }
        Some(page)
    }
}

#[wasm_bindgen]
impl Handle {
    // Applies a control message (`{type: "mcp-lanes:control", action,
    // step?}`, as a parent window would post it); returns whether it was
    // one.
    pub fn control(&self, message: JsValue) -> bool {
        let Some(page) = &self.page else {
            return false;
        };
        match to_json(&message)
            .as_ref()
            .and_then(crate::state::Action::from_control)
        {
            Some(action) => {
                page.dispatch(action);
                true
            }
            None => false,
        }
    }

    // Removes the figure: its timers and listeners stop, its root goes.
    pub fn destroy(&mut self) {
        if let Some(page) = self.stop() {
            page.destroy();
            page.root().remove();
        }
    }

    // Stops the figure and leaves what it drew: the full bundle's figure
    // took its root over (embed.js, after a hand-over).
    pub fn release(&mut self) {
        if let Some(page) = self.stop() {
            page.release();
        }
    }
}

pub use crate::browser::{refuse, require_element, shadow_root};
