//! Keyboard shortcuts for playback, listed in the help dialog
//! (`view::help::SHORTCUTS`). They never fire while the reader types in a
//! field, while a dialog is open, or when Space/Enter belong to a focused
//! button or link.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{Element, KeyboardEvent};
use yew::prelude::*;

use crate::state::State;

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
