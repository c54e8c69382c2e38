//! Keyboard shortcuts for playback, listed in the help dialog. They never
//! fire while the reader types in a field, while a dialog is open, or when
//! Space/Enter belong to a focused button or link.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{Element, KeyboardEvent};
use yew::prelude::*;

use crate::state::State;

/// The shortcuts as catalog keys of (keys, what they do), for the help
/// dialog.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("shortcut.1.key", "shortcut.1.does"),
    ("shortcut.2.key", "shortcut.2.does"),
    ("shortcut.3.key", "shortcut.3.does"),
    ("shortcut.4.key", "shortcut.4.does"),
    ("shortcut.5.key", "shortcut.5.does"),
    ("shortcut.6.key", "shortcut.6.does"),
    ("shortcut.7.key", "shortcut.7.does"),
    ("shortcut.8.key", "shortcut.8.does"),
    ("shortcut.9.key", "shortcut.9.does"),
    ("shortcut.10.key", "shortcut.10.does"),
    ("shortcut.11.key", "shortcut.11.does"),
    ("shortcut.12.key", "shortcut.12.does"),
    ("shortcut.13.key", "shortcut.13.does"),
];

/// Listens for shortcuts on the whole document, or only inside `scope`
/// (a mounted figure: several on one page each hear their own keys).
#[hook]
pub fn use_shortcuts(dispatcher: UseReducerDispatcher<State>, scope: Option<NodeRef>) {
    use_effect_with((), move |_| {
        let target: Option<web_sys::EventTarget> = match scope {
            Some(scope) => scope.cast::<Element>().map(Into::into),
            None => web_sys::window().and_then(|w| w.document()).map(Into::into),
        };
        let listener = target.map(|target| {
            EventListener::new_with_options(
                &target,
                "keydown",
                EventListenerOptions::enable_prevent_default(),
                move |event| {
                    let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    if let Some(action) = crate::shortcuts::action_for(event) {
                        event.prevent_default();
                        dispatcher.dispatch(action);
                    }
                },
            )
        });
        move || drop(listener)
    });
}
