//! Lite bundle: the runs the core recorded at build time
//! (`www/timelines/<scenario>.json`, checked against the core by
//! `tests/page_timelines.rs`), fetched once per scenario and kept, and the
//! start of the page on them.

use std::cell::RefCell;
use std::rc::Rc;

use mcp_lanes_core::scenarios;
use mcp_lanes_core::sim::Timeline;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use yew::UseReducerDispatcher;

use crate::config::Config;
use crate::state::{Action, State, Upgrade};
use crate::upgrade;

thread_local! {
    /// Fetched scenarios and their set-ups' runs, in catalog order.
    static CACHE: RefCell<Vec<(String, Vec<Rc<Timeline>>)>> = const { RefCell::new(Vec::new()) };
}

#[wasm_bindgen(
    inline_js = "export function fetch_text(url) { return fetch(url).then(r => r.ok ? r.text() : Promise.reject(new Error('HTTP ' + r.status))); }"
)]
extern "C" {
    /// `fetch(url)` and the body as text; rejects on a non-2xx status.
    fn fetch_text(url: &str) -> js_sys::Promise;
}

/// Whether a scenario's runs are here.
pub fn has(id: &str) -> bool {
    CACHE.with(|c| c.borrow().iter().any(|(k, _)| k == id))
}

/// The recorded run of set-up `base` of a scenario, if fetched.
pub fn timeline(id: &str, base: usize) -> Option<Rc<Timeline>> {
    CACHE.with(|c| {
        let cache = c.borrow();
        let (_, runs) = cache.iter().find(|(k, _)| k == id)?;
        runs.get(base).cloned()
    })
}

/// Fetches and keeps a scenario's runs; false if they cannot be had (the
/// caller hands over to the full bundle, which runs the simulator).
pub async fn fetch(id: &str) -> bool {
    if has(id) {
        return true;
    }
    let Ok(text) = JsFuture::from(fetch_text(&format!("timelines/{id}.json"))).await else {
        return false;
    };
    let Some(runs) = text.as_string().and_then(|t| Timeline::from_json(&t)) else {
        return false;
    };
    // A file that does not match the scenario's set-ups is not used.
    if scenarios::setups(id).map(|s| s.len()) != Some(runs.len()) {
        return false;
    }
    let runs = runs.into_iter().map(Rc::new).collect();
    CACHE.with(|c| c.borrow_mut().push((id.to_string(), runs)));
    true
}

/// Starts the lite page: fetches the runs of the scenario `config` opens,
/// then renders; a state only the simulator can show (a changed lane, the
/// editor, the benchmark load) or a failed fetch goes to the full bundle.
pub fn start(config: Config) {
    let link = match &config.link {
        Some(Ok(link)) => Some(link),
        _ => None,
    };
    if let Some(link) = link.filter(|l| crate::state::needs_engine(l)) {
        start_full(Some(link.clone()));
        return;
    }
    let id = link.map_or_else(
        || config.scenario.clone().unwrap_or_default(),
        |l| l.scenario.clone(),
    );
    if id == "stress" {
        start_full(None);
        return;
    }
    // An unknown id opens the first scenario (with a notice).
    let id = match scenarios::find(&id) {
        Some(_) => id,
        None => scenarios::CATALOG.first().map_or("", |s| s.id).to_string(),
    };
    wasm_bindgen_futures::spawn_local(async move {
        if fetch(&id).await {
            crate::render(config);
        } else {
            start_full(None);
        }
    });
}

/// Starts the full bundle instead of the lite page: on `link`, or on what
/// the URL says.
fn start_full(link: Option<mcp_lanes_core::share::ShareState>) {
    let upgrade = Upgrade {
        link,
        editor: false,
    };
    upgrade::to_full(None, upgrade, None);
}

/// Fetches the scenario the state waits for, then opens it (or hands over).
pub fn fetch_for(state: &State, dispatcher: UseReducerDispatcher<State>) {
    let Some((id, step)) = state.fetching.clone() else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        dispatcher.dispatch(if fetch(&id).await {
            Action::Recorded(id, step)
        } else {
            Action::HandOver
        });
    });
}
