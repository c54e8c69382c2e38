//! The page URL: `?scenario=ID` opens a scenario; picking one pushes a new
//! history entry, and going back or forward opens the scenario named there
//! (or the state of the permalink there).

use gloo::events::EventListener;
use yew::prelude::*;

use crate::state::State;

pub use crate::history::push_scenario;

/// Re-opens the scenario named in the URL when the reader goes back or
/// forward (only on the page: a figure leaves its page's URL alone).
#[hook]
pub fn use_history(dispatcher: UseReducerDispatcher<State>, enabled: bool) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().filter(|_| enabled).map(|window| {
            EventListener::new(&window, "popstate", move |_| {
                if let Some(action) = crate::history::on_back_or_forward() {
                    dispatcher.dispatch(action);
                }
            })
        });
        move || drop(listener)
    });
}
