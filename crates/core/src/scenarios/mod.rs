//! The scenario catalog of DESIGN.md: sixteen flows, each as data (set-ups
//! of a client preset, a server preset, a transport and a script) plus a few
//! lines of setup. Each set-up runs on its own timeline; the UI shows them
//! side by side on the shared virtual clock.

mod catalog;

use crate::sim::{self, Setup, Timeline};

pub use catalog::setups;

/// One entry of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScenarioInfo {
    /// Catalog number (1..=16).
    pub number: u8,
    /// Stable id used in URLs and the CLI.
    pub id: &'static str,
    /// Short title.
    pub title: &'static str,
    /// One-line summary.
    pub summary: &'static str,
}

/// The sixteen scenarios, in catalog order.
pub const CATALOG: &[ScenarioInfo] = &[
    ScenarioInfo { number: 1, id: "discover", title: "Discover", summary: "One server/discover; read every field of the result." },
    ScenarioInfo { number: 2, id: "capability-per-request", title: "Capability per request", summary: "notify_oncall with {} gets -32021 naming elicitation; the retry declaring it completes; dropping it later is refused again." },
    ScenarioInfo { number: 3, id: "plain-vs-rich", title: "Plain vs rich client", summary: "confirm_order: -32021 for the plain client, an input_required elicitation round trip with a new id for the rich one." },
    ScenarioInfo { number: 4, id: "unknown-tool-vs-unknown-method", title: "Unknown tool vs unknown method", summary: "An unknown tool is -32602; an unknown method is -32601." },
    ScenarioInfo { number: 5, id: "version-retry", title: "Version retry", summary: "A modern request naming 2025-11-25 gets -32022 with data.supported/requested; the client retries with a supported version and a new id." },
    ScenarioInfo { number: 6, id: "missing-meta", title: "Missing _meta", summary: "A request without _meta, or missing either required key, is rejected with -32602; clientInfo is optional." },
    ScenarioInfo { number: 7, id: "era-probe-stdio", title: "Era probe on stdio", summary: "A dual-era client probes modern, legacy-answering, legacy-silent and dual-era servers side by side." },
    ScenarioInfo { number: 8, id: "era-probe-http", title: "Era probe on HTTP", summary: "The same probe on Streamable HTTP, deciding from the status and the body." },
    ScenarioInfo { number: 9, id: "era-cache-and-upgrade", title: "Era cache and upgrade", summary: "The era and discover result are cached, reused while fresh, re-probed when ttlMs expires and when an upgraded server returns a version error." },
    ScenarioInfo { number: 10, id: "compatibility-matrix", title: "Compatibility matrix", summary: "The seven client/server era pairs and how each ends." },
    ScenarioInfo { number: 11, id: "legacy-handshake", title: "Legacy handshake", summary: "initialize: version echo, counter-offer, and a client that cannot speak the answer disconnects; initialized; instructions." },
    ScenarioInfo { number: 12, id: "list-changed-debounce", title: "list_changed debounce", summary: "A burst of list_changed notices becomes one re-list (compared with re-listing on every notice)." },
    ScenarioInfo { number: 13, id: "elicitation-unchecked", title: "Elicitation unchecked", summary: "A server takes a lock and then elicits from a client that never declared it: -32601, silent drop (lock leaked, host kill at 600 s) and disconnect." },
    ScenarioInfo { number: 14, id: "elicitation-checked", title: "Elicitation checked", summary: "The capability check runs before the lock: a precise tool error naming retention_days, the re-call completes, nothing leaks." },
    ScenarioInfo { number: 15, id: "legacy-client-vs-modern-server", title: "Legacy client, modern server", summary: "initialize is refused with the supported versions named, on stdio and on HTTP." },
    ScenarioInfo { number: 16, id: "http-header-mismatch", title: "HTTP header mismatch", summary: "MCP-Protocol-Version header differs from _meta: 400 with -32020 (and the matching request for comparison)." },
];

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
            }
        })
        .collect()
}
