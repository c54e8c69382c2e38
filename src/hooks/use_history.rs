//! The page URL: `?scenario=ID` opens a scenario; picking one pushes a new
//! history entry, and going back or forward opens the scenario named there
//! (or the state of the permalink there).

use gloo::events::EventListener;
use web_sys::UrlSearchParams;
use yew::prelude::*;

use crate::browser::page_config;
use crate::state::{Action, State};

/// Records `?scenario=ID` as a new history entry (keeping other parameters).
pub fn push_scenario(id: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let search = window.location().search().unwrap_or_default();
    let Ok(params) = UrlSearchParams::new_with_str(&search) else {
        return;
    };
    if params.get("scenario").as_deref() == Some(id) {
        return;
    }
    params.set("scenario", id);
    // A catalog scenario replaces a scenario file.
    params.delete("scenario-url");
    let url = format!("?{}", String::from(params.to_string()));
    if let Ok(history) = window.history() {
        let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Re-opens the scenario named in the URL when the reader goes back or
/// forward (only on the page: a figure leaves its page's URL alone).
#[hook]
pub fn use_history(dispatcher: UseReducerDispatcher<State>, enabled: bool) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().filter(|_| enabled).map(|window| {
            EventListener::new(&window, "popstate", move |_| {
                let config = page_config();
                // The skip link moved focus to Play: nothing to open.
                let hash = web_sys::window().and_then(|w| w.location().hash().ok());
                if hash.as_deref() == Some(crate::config::SKIP) {
                    return;
                }
                // A scenario file is fetched and checked at start: load it again.
                if config.file.is_some() {
                    if let Some(window) = web_sys::window() {
                        let _ = window.location().reload();
                    }
                    return;
                }
                dispatcher.dispatch(match config.link {
                    Some(Ok(link)) => Action::Restore(Box::new(link)),
                    _ => Action::Load(config.scenario.unwrap_or_default()),
                });
            })
        });
        move || drop(listener)
    });
}
