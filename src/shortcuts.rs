//! Which key does what (the keyboard help lists them): read from a
//! keyboard event, for the page's and a figure's listener (both bundles).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::JsCast;
#[cfg(target_arch = "wasm32")]
use web_sys::{Element, KeyboardEvent};

use crate::state::Action;

#[cfg(target_arch = "wasm32")]
fn closest(target: &Option<Element>, selector: &str) -> bool {
    target
        .as_ref()
        .and_then(|t| t.closest(selector).ok().flatten())
        .is_some()
}

#[cfg(target_arch = "wasm32")]
fn dialog_open() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("dialog[open]").ok().flatten())
        .is_some()
}

/// Every key the page and a figure answer, and what it does, by the name
/// a figure's controls use (`data-act`, control messages). The drawn
/// figure carries this table for `figure.js`, so a key is added here once.
pub const KEYS: &[(&str, &str)] = &[
    (" ", "toggle"),
    ("Spacebar", "toggle"),
    ("k", "toggle"),
    ("K", "toggle"),
    ("ArrowRight", "forward"),
    ("ArrowLeft", "back"),
    ("Home", "restart"),
    ("End", "end"),
    ("+", "faster"),
    ("=", "faster"),
    ("-", "slower"),
    ("_", "slower"),
    ("?", "help"),
    ("e", "editor"),
    ("E", "editor"),
    ("Escape", "close-inspector"),
];

/// Keys that act only when focus is not on a control: space there
/// presses the focused button.
pub const OFF_CONTROL: &[&str] = &[" ", "Spacebar"];

/// The action a key's name in [`KEYS`] stands for.
pub fn action(name: &str) -> Option<Action> {
    Some(match name {
        "toggle" => Action::TogglePlay,
        "forward" => Action::StepForward,
        "back" => Action::StepBack,
        "restart" => Action::Restart,
        "end" => Action::JumpToEnd,
        "faster" => Action::Faster,
        "slower" => Action::Slower,
        "help" => Action::Help(true),
        "editor" => Action::ToggleEditor,
        "close-inspector" => Action::Inspect(None),
        _ => return None,
    })
}

/// What a key press means, if anything.
#[cfg(target_arch = "wasm32")]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_names_an_action() {
        for (key, name) in KEYS {
            assert!(
                action(name).is_some(),
                "{key:?} names {name:?}, which is no action"
            );
        }
        for key in OFF_CONTROL {
            assert!(KEYS.iter().any(|(k, _)| k == key), "{key:?} is not in KEYS");
        }
    }
}
