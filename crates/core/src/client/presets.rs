//! The client presets of the lessons: plain, rich, dual-era, legacy-host
//! and orchestrator-runtime.

use serde_json::{json, Map};

use super::config::{ClientConfig, UndeclaredPolicy};
use crate::protocol::capabilities::{settings, ElicitationCapability};
use crate::protocol::version::EraMode;
use crate::protocol::{meta, ClientCapabilities, Implementation};

/// Preset ids with a one-line description, in catalog order.
pub const PRESETS: &[(&str, &str)] = &[
    ("plain", "modern client declaring clientCapabilities {} (only the basics)"),
    ("rich", "modern client declaring elicitation (form and url) and the tasks extension"),
    ("dual-era", "client speaking both eras: probes with server/discover, falls back to initialize"),
    ("legacy-host", "legacy 2025-06-18 host: initialize with roots, sampling and elicitation"),
    ("orchestrator-runtime", "legacy 2025-06-18 runtime: roots and sampling, no elicitation; undeclared requests: -32601, drop or close"),
    ("reference", "modern 2026-07-28 client declaring elicitation, sampling and roots: what `mcp-lanes client` runs against real servers"),
];

/// Looks a client preset up by id.
pub fn client(id: &str) -> Option<ClientConfig> {
    Some(match id {
        "plain" => plain(),
        "rich" => rich(),
        "dual-era" => dual_era(),
        "legacy-host" => legacy_host(),
        "orchestrator-runtime" => orchestrator_runtime(UndeclaredPolicy::MethodNotFound),
        "reference" => reference(),
        _ => return None,
    })
}

fn modern(
    preset: &str,
    name: &str,
    version: &str,
    capabilities: ClientCapabilities,
) -> ClientConfig {
    ClientConfig::new(preset, Implementation::new(name, version), capabilities)
}

/// `plain`: clientCapabilities `{}`.
pub fn plain() -> ClientConfig {
    modern("plain", "plain-script", "1.0.0", ClientCapabilities::none())
}

/// The capabilities of the `rich` client: elicitation form+url, tasks extension.
pub fn rich_capabilities() -> ClientCapabilities {
    let mut extensions = Map::new();
    extensions.insert(meta::TASKS_EXTENSION.into(), json!({}));
    ClientCapabilities {
        elicitation: Some(ElicitationCapability {
            form: Some(settings(json!({}))),
            url: Some(settings(json!({}))),
        }),
        extensions: Some(extensions),
        ..Default::default()
    }
}

/// `rich`: elicitation (form and url) and the tasks extension.
pub fn rich() -> ClientConfig {
    modern("rich", "rich-desktop", "4.1.0", rich_capabilities())
}

/// `dual-era`: probes, then speaks whichever era the server does.
pub fn dual_era() -> ClientConfig {
    let mut cfg = modern(
        "dual-era",
        "bridge-client",
        "2.0.0",
        ClientCapabilities::elicitation_form(),
    );
    cfg.era = EraMode::DualEra;
    cfg.legacy_versions = vec!["2025-06-18".into()];
    cfg
}

/// `legacy-host`: the handshake lesson's demo host.
pub fn legacy_host() -> ClientConfig {
    let mut cfg = modern(
        "legacy-host",
        "demo-host",
        "1.0",
        ClientCapabilities {
            roots: Some(settings(json!({"listChanged": true}))),
            sampling: Some(settings(json!({}))),
            elicitation: Some(ElicitationCapability::default()),
            ..Default::default()
        },
    );
    cfg.era = EraMode::LegacyOnly;
    cfg.modern_versions = Vec::new();
    cfg.legacy_versions = vec!["2025-06-18".into()];
    cfg
}

/// `orchestrator-runtime 2.9.1`: roots and sampling, no elicitation. No
/// request timeout of its own; its host kills a run at 600 s.
pub fn orchestrator_runtime(undeclared: UndeclaredPolicy) -> ClientConfig {
    let mut cfg = modern(
        "orchestrator-runtime",
        "orchestrator-runtime",
        "2.9.1",
        ClientCapabilities {
            roots: Some(settings(json!({"listChanged": true}))),
            sampling: Some(settings(json!({}))),
            ..Default::default()
        },
    );
    cfg.era = EraMode::LegacyOnly;
    cfg.modern_versions = Vec::new();
    cfg.legacy_versions = vec!["2025-06-18".into()];
    cfg.undeclared = undeclared;
    cfg.request_timeout_ms = None;
    cfg.host_kill_ms = Some(600_000);
    cfg.first_id = 0;
    cfg
}

/// The capabilities of the `reference` client: form elicitation, sampling
/// and roots (with listChanged), each an object.
pub fn reference_capabilities() -> ClientCapabilities {
    ClientCapabilities {
        elicitation: Some(ElicitationCapability::default()),
        sampling: Some(settings(json!({}))),
        roots: Some(settings(json!({"listChanged": true}))),
        ..Default::default()
    }
}

/// `reference`: the client `mcp-lanes client` runs against real servers.
/// Modern only (2026-07-28), declaring everything it can answer through
/// MRTR on every request; a 10 s deadline per request.
pub fn reference() -> ClientConfig {
    let mut cfg = modern(
        "reference",
        "mcp-lanes-client",
        env!("CARGO_PKG_VERSION"),
        reference_capabilities(),
    );
    cfg.request_timeout_ms = Some(10_000);
    cfg
}
