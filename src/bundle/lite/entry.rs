//! How the lite bundle starts: it fetches the recorded runs of the scenario
//! the URL opens, then renders; a state only the simulator can show (a
//! changed lane, the editor, the benchmark load, a scenario file) or a
//! failed fetch goes to the full bundle at once.

use mcp_lanes_core::scenarios;

use super::hand_over;
use super::recorded;
use crate::boot;
use crate::browser::{load_catalog, localize_page, page_config, prefetch_catalog, script_base};
use crate::config::Config;
use crate::state::{needs_simulator, Upgrade};

/// Starts the page (under `embed.js`, which loads the full bundle, does
/// nothing).
pub fn start() {
    if script_base().is_some() {
        return;
    }
    let config = page_config();
    // A scenario file runs in the simulator, a recorded check is graded:
    // straight to the full bundle, which fetches and reads them.
    if config.file.is_some() || config.timeline.is_some() {
        start_full(None);
        return;
    }
    let link = match &config.link {
        Some(Ok(link)) => Some(link),
        _ => None,
    };
    if let Some(link) = link.filter(|l| needs_simulator(l)) {
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
    // The catalog comes while the runs do.
    prefetch_catalog("", config.lang.as_deref(), None);
    wasm_bindgen_futures::spawn_local(async move {
        if !recorded::fetch(&id).await {
            start_full(None);
            return;
        }
        let tag = load_catalog("", config.lang.as_deref(), None).await;
        localize_page(&tag);
        // The options' problems, in the page's language now.
        let config = Config {
            problem: page_config().problem,
            ..config
        };
        if let Some(problem) = &config.problem {
            gloo::console::error!(format!("mcp-lanes: {problem}"));
        }
        if let Some(running) = boot::render(config) {
            // Kept so that the hand-over can take the lite page down.
            let root = running.root().clone();
            hand_over::keep(root, Box::new(move || running.destroy()));
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
    hand_over::to_full(None, upgrade, None);
}
