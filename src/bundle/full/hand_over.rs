//! The full bundle's side of the hand-over (the drawn page's `figure.js`
//! and the lite bundle's `bundle/lite/hand_over.rs` write it): the start
//! reads what the page left ([`take`]) and runs the runtime on the page's
//! root (`runtime::render_page`), which opens the panels and focuses the
//! control the page had. `bundle/lite/hand_over.rs` has the same items.

use web_sys::Element;

use crate::config::HANDOFF_GLOBAL;
use crate::state::{Action, State, Upgrade};

/// Hears that the full bundle could not be loaded (never here).
pub type Failed = Box<dyn FnOnce()>;

/// Reads and clears the hand-over the page left (`Config::receive` reads
/// it).
pub fn take() -> Option<String> {
    let window = web_sys::window()?;
    let text = js_sys::Reflect::get(&window, &HANDOFF_GLOBAL.into())
        .ok()?
        .as_string()?;
    let _ = js_sys::Reflect::delete_property(&window, &HANDOFF_GLOBAL.into());
    Some(text)
}

/// With the simulator, the state never asks for the full bundle: nothing
/// to hand over.
pub fn to_full(
    _state: Option<&State>,
    _upgrade: Upgrade,
    _failed: Option<Failed>,
    _app: Option<Element>,
) {
}

/// With the simulator, the state never waits for recorded runs.
pub fn fetch_for(_state: &State, _then: impl FnOnce(Action) + 'static) {}
