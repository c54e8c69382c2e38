//! The page URL and its history (both bundles): picking a scenario pushes
//! `?scenario=ID`; going back or forward opens what the URL names.

use web_sys::UrlSearchParams;

use crate::browser::page_config;
use crate::state::Action;

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

/// What going back or forward to the current URL opens: the permalink's
/// state or the scenario named there (`None`: nothing to open, because the
/// skip link only moved focus, or because the page reloads to fetch a
/// scenario file again).
pub fn on_back_or_forward() -> Option<Action> {
    let config = page_config();
    // The skip link moved focus to Play: nothing to open.
    let hash = web_sys::window().and_then(|w| w.location().hash().ok());
    if hash.as_deref() == Some(crate::config::SKIP) {
        return None;
    }
    // A scenario file is fetched and checked at start: load it again.
    if config.file.is_some() {
        if let Some(window) = web_sys::window() {
            let _ = window.location().reload();
        }
        return None;
    }
    Some(match config.link {
        Some(Ok(link)) => Action::Restore(Box::new(link)),
        _ => Action::Load(config.scenario.unwrap_or_default()),
    })
}
