//! The permalink: while playback is stopped, the page's URL fragment holds
//! the whole state ([`State::fragment`]: `#v3.…`, compressed), so reloading
//! or sharing the address restores it; a scenario's untouched start has no
//! fragment.

use crate::state::State;

/// The page's address (path and query) with `#fragment` unless it is empty.
pub fn page_url(fragment: &str) -> Option<String> {
    let location = web_sys::window()?.location();
    let mut url = location.pathname().ok()? + &location.search().ok()?;
    if !fragment.is_empty() {
        url = url + "#" + fragment;
    }
    Some(url)
}

/// Puts the state's fragment in the URL (replacing the history entry).
pub fn write(state: &State) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let fragment = state.fragment();
    let current = window.location().hash().unwrap_or_default();
    if current.trim_start_matches('#') != fragment {
        if let (Some(url), Ok(history)) = (page_url(&fragment), window.history()) {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}
