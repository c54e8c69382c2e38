//! The set-ups of scenario 31: registries and gateways. One weather
//! server with three tools, reached straight and through a gateway that
//! hides its reset tool and prefixes the others with `weather_`
//! (G-FORWARD, G-FILTER, G-REWRITE): over HTTP in the modern era, and
//! over stdio by a legacy host whose handshake passes through unchanged.

use serde_json::json;

use super::tool;
use crate::client::presets as clients;
use crate::client::{ClientConfig, Step};
use crate::gateway::GatewayConfig;
use crate::protocol::version::EraMode;
use crate::protocol::{methods, Implementation};
use crate::server::ServerConfig;
use crate::sim::Setup;
use crate::transport::{ChannelConfig, TransportKind};

/// The `weather-station` server behind the gateway: both eras.
pub(crate) fn weather_station() -> ServerConfig {
    let mut cfg = ServerConfig::new(
        "weather-station",
        Implementation::new("weather-station", "1.0.0"),
    );
    cfg.era = EraMode::DualEra;
    cfg.legacy_versions = vec!["2025-06-18".into()];
    cfg.capabilities.tools = Some(Default::default());
    cfg.tools = vec![
        tool("forecast", "Tomorrow's forecast.", "Oslo: rain, then sun."),
        tool("stations", "The weather stations.", "Oslo, Lyon, Porto."),
        tool(
            "reset_stations",
            "Erase every station's readings.",
            "Readings of 3 stations erased.",
        ),
    ];
    cfg
}

/// The gateway of the scenario: the reset tool hidden, the others
/// prefixed.
pub(crate) fn filtering_gateway() -> GatewayConfig {
    GatewayConfig {
        hide: vec!["reset_stations".into()],
        hide_prompts: Vec::new(),
        prefix: Some("weather_".into()),
    }
}

fn list() -> Step {
    Step::request(methods::TOOLS_LIST)
}

fn call(tool: &str) -> Step {
    Step::call_tool(tool, json!({}))
}

fn lane(
    label: &str,
    client: ClientConfig,
    kind: TransportKind,
    gateway: Option<GatewayConfig>,
    script: Vec<Step>,
) -> Setup {
    Setup {
        label: label.into(),
        client,
        server: weather_station(),
        channel: ChannelConfig::new(kind),
        script,
        server_events: Vec::new(),
        auth: None,
        gateway,
    }
}

/// Scenario 31's three set-ups.
pub(super) fn setups() -> Vec<Setup> {
    use TransportKind::{Http, Stdio};
    vec![
        lane(
            "straight to the server",
            clients::plain(),
            Http,
            None,
            vec![list(), call("reset_stations")],
        ),
        lane(
            "through a gateway that filters and renames",
            clients::plain(),
            Http,
            Some(filtering_gateway()),
            vec![
                list(),
                call("weather_forecast"),
                call("weather_reset_stations"),
            ],
        ),
        lane(
            "legacy host through the gateway, stdio",
            clients::legacy_host(),
            Stdio,
            Some(filtering_gateway()),
            vec![list(), call("reset_stations")],
        ),
    ]
}
