//! Which key does what (the table is `state::keys::KEYS`; the keyboard
//! help lists them): read from a keyboard event, for the page's and a
//! figure's listener (both bundles).

use wasm_bindgen::JsCast;
use web_sys::{Element, KeyboardEvent};

use crate::state::keys::{action, KEYS, OFF_CONTROL};
use crate::state::Action;

fn closest(target: &Option<Element>, selector: &str) -> bool {
    target
        .as_ref()
        .and_then(|t| t.closest(selector).ok().flatten())
        .is_some()
}

fn dialog_open() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("dialog[open]").ok().flatten())
        .is_some()
}

/// What a key press means, if anything.
pub fn action_for(event: &KeyboardEvent) -> Option<Action> {
    if event.ctrl_key() || event.meta_key() || event.alt_key() || event.default_prevented() {
        return None;
    }
    let target: Option<Element> = event.target().and_then(|t| t.dyn_into::<Element>().ok());
    if closest(
        &target,
        "input, textarea, select, [contenteditable=''], [contenteditable='true']",
    ) || closest(&target, "dialog")
        || dialog_open()
    {
        return None;
    }
    let key = event.key();
    if OFF_CONTROL.contains(&key.as_str())
        && closest(&target, "button, a, summary, [role='button']")
    {
        return None;
    }
    let (_, name) = KEYS.iter().find(|(k, _)| *k == key)?;
    action(name)
}
