//! Fetches the runs the core recorded at build time
//! (`timelines/<scenario>.json`) into `runs`, once per scenario.

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::runs;
use crate::state::{Action, State};

#[wasm_bindgen(
    inline_js = "export function fetch_text(url) { return fetch(url).then(r => r.ok ? r.text() : Promise.reject(new Error('HTTP ' + r.status))); }"
)]
extern "C" {
    /// `fetch(url)` and the body as text; rejects on a non-2xx status.
    fn fetch_text(url: &str) -> js_sys::Promise;
}

/// Fetches and keeps a scenario's runs; false if they cannot be had (the
/// caller hands over to the full bundle, which runs the simulator). They
/// are next to the page, or next to `embed.js` for script figures.
pub async fn fetch(id: &str) -> bool {
    if runs::has(id) {
        return true;
    }
    let base = crate::browser::script_base().unwrap_or_default();
    let Ok(text) = JsFuture::from(fetch_text(&format!("{base}timelines/{id}.json"))).await else {
        return false;
    };
    text.as_string().is_some_and(|text| runs::keep(id, &text))
}

/// Fetches the scenario the state waits for, then opens it (or hands over).
pub fn fetch_for(state: &State, then: impl FnOnce(Action) + 'static) {
    let Some((id, step)) = state.fetching.clone() else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let found = fetch(&id).await;
        if found {
            // Another scenario opened in the page: its notes in the page's
            // language (the first one's come with the catalog, see
            // `entry::start` and `entry::mount`).
            crate::browser::load_scenario_notes(&id).await;
        }
        then(if found {
            Action::Recorded(id, step)
        } else {
            Action::HandOver
        });
    });
}
