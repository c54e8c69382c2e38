//! The scenario catalog of DESIGN.md: thirty-one flows, each as data (set-ups
//! of a client preset, a server preset, a transport and a script) next to
//! its id, title and summary in `catalog.rs`. Each set-up runs on its own
//! timeline; the UI shows them side by side on the shared virtual clock.

mod catalog;
pub mod file;
mod gateways;
mod identities;
mod scripted_server;
mod tool_state;

use crate::sim::{self, Setup, Timeline};

pub use catalog::{setups, CATALOG};

/// One entry of the catalog: what it shows, and how many set-ups show it
/// (defined together with the set-ups in `catalog.rs`; [`setups`] builds
/// them).
#[derive(Clone, Copy)]
pub struct ScenarioInfo {
    /// Catalog number (1..=31).
    pub number: u8,
    /// Stable id used in URLs and the CLI.
    pub id: &'static str,
    /// Short title.
    pub title: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// How many side-by-side set-ups (lanes) it has: `setups(id).len()`,
    /// known without building them (the page's lite bundle counts lanes
    /// without linking the builders).
    pub lanes: usize,
}

/// Scenarios are the same when their number and id are.
impl PartialEq for ScenarioInfo {
    fn eq(&self, other: &Self) -> bool {
        self.number == other.number && self.id == other.id
    }
}

impl Eq for ScenarioInfo {}

impl std::fmt::Debug for ScenarioInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScenarioInfo")
            .field("number", &self.number)
            .field("id", &self.id)
            .field("title", &self.title)
            .field("summary", &self.summary)
            .finish_non_exhaustive()
    }
}

/// Finds a scenario by id (or by its number as text).
pub fn find(id: &str) -> Option<&'static ScenarioInfo> {
    CATALOG
        .iter()
        .find(|s| s.id == id || s.number.to_string() == id)
}

/// Runs every set-up of a scenario.
pub fn run(id: &str) -> Option<Vec<Timeline>> {
    let info = find(id)?;
    Some(setups(info.id)?.iter().map(sim::run).collect())
}

/// Runs a list of set-ups (e.g. after the UI changed their settings).
pub fn run_setups(setups: &[Setup]) -> Vec<Timeline> {
    setups.iter().map(sim::run).collect()
}

/// A synthetic load for the playback benchmark (not part of the catalog):
/// `lanes` side-by-side set-ups of about `messages` messages each (a plain
/// client listing tools over and over, every other lane over HTTP).
pub fn stress(lanes: usize, messages: usize) -> Vec<Setup> {
    use crate::client::{presets as clients, Step};
    use crate::server::presets as servers;
    use crate::transport::{ChannelConfig, TransportKind};
    (0..lanes.clamp(1, 8))
        .map(|lane| {
            let kind = if lane % 2 == 0 {
                TransportKind::Stdio
            } else {
                TransportKind::Http
            };
            Setup {
                label: format!("load {}", lane + 1),
                client: clients::plain(),
                server: servers::deploy_console(),
                channel: ChannelConfig::new(kind),
                script: (0..messages.clamp(2, 2000) / 2)
                    .map(|_| Step::request(crate::protocol::methods::TOOLS_LIST))
                    .collect(),
                server_events: Vec::new(),
                auth: None,
                gateway: None,
            }
        })
        .collect()
}

/// A tool of a built-in scenario's server: no arguments, one text result.
fn tool(name: &str, description: &str, result: &str) -> crate::server::ToolSpec {
    crate::server::ToolSpec {
        name: name.into(),
        description: description.into(),
        input_schema: serde_json::json!({"type": "object", "properties": {}}),
        result_text: result.into(),
        ..Default::default()
    }
}
