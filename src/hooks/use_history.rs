//! The page URL: `?scenario=ID` opens a scenario; picking one pushes a new
//! history entry, and going back or forward opens the scenario named there.

use gloo::events::EventListener;
use web_sys::UrlSearchParams;
use yew::prelude::*;

use crate::state::{Action, State};

/// The `scenario` query parameter of the current URL, if any.
pub fn scenario_from_url() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    UrlSearchParams::new_with_str(&search).ok()?.get("scenario")
}

/// Whether the URL asks for the figure alone (`?embed=1`).
pub fn embedded() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| UrlSearchParams::new_with_str(&s).ok())
        .and_then(|p| p.get("embed"))
        .is_some_and(|v| v == "1")
}

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
    let url = format!("?{}", String::from(params.to_string()));
    if let Ok(history) = window.history() {
        let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// Re-opens the scenario named in the URL when the reader goes back or forward.
#[hook]
pub fn use_history(dispatcher: UseReducerDispatcher<State>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|window| {
            EventListener::new(&window, "popstate", move |_| {
                let id = scenario_from_url().unwrap_or_default();
                dispatcher.dispatch(Action::Load(id));
            })
        });
        move || drop(listener)
    });
}
