//! The catalog: one `const` per scenario holding its number, id, title,
//! summary and the set-ups that reproduce the lesson, listed in order in
//! [`CATALOG`]. To add a scenario, add a `const` and list it there.

use serde_json::json;

use super::ScenarioInfo;
use crate::client::presets as clients;
use crate::client::{ClientConfig, Step, UndeclaredPolicy};
use crate::protocol::version::EraMode;
use crate::protocol::{methods, ClientCapabilities, ProtocolVersion};
use crate::server::presets as servers;
use crate::server::{ServerConfig, UnknownMethodPolicy};
use crate::sim::engine::ServerEvent;
use crate::sim::{Setup, SimTime};
use crate::transport::{ChannelConfig, TransportKind};

mod auth;
mod course;
mod discovery;

use auth::*;
use course::*;
use discovery::*;

/// A scenario as defined here: its [`ScenarioInfo`] and the builder of its
/// set-ups.
#[derive(Clone, Copy)]
struct Definition {
    number: u8,
    id: &'static str,
    title: &'static str,
    summary: &'static str,
    lanes: usize,
    setups: fn() -> Vec<Setup>,
}

impl Definition {
    /// What the catalog lists: everything but the builder.
    const fn info(self) -> ScenarioInfo {
        ScenarioInfo {
            number: self.number,
            id: self.id,
            title: self.title,
            summary: self.summary,
            lanes: self.lanes,
        }
    }
}

const STDIO: TransportKind = TransportKind::Stdio;
const HTTP: TransportKind = TransportKind::Http;

fn setup(
    label: &str,
    client: ClientConfig,
    server: ServerConfig,
    kind: TransportKind,
    script: Vec<Step>,
) -> Setup {
    Setup {
        label: label.into(),
        client,
        server,
        channel: ChannelConfig::new(kind),
        script,
        server_events: Vec::new(),
        auth: None,
        gateway: None,
    }
}

fn call(
    name: &str,
    arguments: serde_json::Value,
    declare: Option<ClientCapabilities>,
    retry: bool,
) -> Step {
    Step::Request {
        method: methods::TOOLS_CALL.into(),
        params: json!({"name": name, "arguments": arguments}),
        declare,
        version: None,
        retry_on_missing_capability: retry,
        follow_cursor: false,
        background: false,
    }
}

fn legacy_silent() -> ServerConfig {
    let mut cfg = servers::notes();
    cfg.unknown_method = UnknownMethodPolicy::Silent;
    cfg
}

fn modern_meta() -> serde_json::Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": ProtocolVersion::MODERN,
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// The thirty-one scenarios, in catalog order: each one's id, title, summary
/// and set-ups are defined together below.
pub const CATALOG: &[ScenarioInfo] = &[
    DISCOVER.info(),
    CAPABILITY_PER_REQUEST.info(),
    PLAIN_VS_RICH.info(),
    UNKNOWN_TOOL_VS_UNKNOWN_METHOD.info(),
    VERSION_RETRY.info(),
    MISSING_META.info(),
    ERA_PROBE_STDIO.info(),
    ERA_PROBE_HTTP.info(),
    ERA_CACHE_AND_UPGRADE.info(),
    COMPATIBILITY_MATRIX.info(),
    LEGACY_HANDSHAKE.info(),
    LIST_CHANGED_DEBOUNCE.info(),
    ELICITATION_UNCHECKED.info(),
    ELICITATION_CHECKED.info(),
    LEGACY_CLIENT_VS_MODERN_SERVER.info(),
    HTTP_HEADER_MISMATCH.info(),
    RESOURCES_PROMPTS_CACHING.info(),
    PER_REQUEST_LOGGING.info(),
    MRTR_SAMPLING_ROOTS.info(),
    SUBSCRIPTIONS_LISTEN.info(),
    TOOL_ERRORS_PAGES_PROGRESS.info(),
    SCRIPTED_SERVER.info(),
    TOOL_STATE.info(),
    AUTH_HAPPY_PATH.info(),
    AUTH_REGISTRATION.info(),
    AUTH_SCOPE_STEP_UP.info(),
    AUTH_AUDIENCE.info(),
    AUTH_WRONG_ISSUER.info(),
    AUTH_NO_RESOURCE_METADATA.info(),
    IDENTITIES.info(),
    GATEWAYS.info(),
];

/// The set-ups of each scenario, in catalog order (apart from [`CATALOG`],
/// so that code which only lists or finds scenarios, such as the page's lite
/// bundle, does not link the set-up builders and the presets they use).
const DEFINITIONS: &[Definition] = &[
    DISCOVER,
    CAPABILITY_PER_REQUEST,
    PLAIN_VS_RICH,
    UNKNOWN_TOOL_VS_UNKNOWN_METHOD,
    VERSION_RETRY,
    MISSING_META,
    ERA_PROBE_STDIO,
    ERA_PROBE_HTTP,
    ERA_CACHE_AND_UPGRADE,
    COMPATIBILITY_MATRIX,
    LEGACY_HANDSHAKE,
    LIST_CHANGED_DEBOUNCE,
    ELICITATION_UNCHECKED,
    ELICITATION_CHECKED,
    LEGACY_CLIENT_VS_MODERN_SERVER,
    HTTP_HEADER_MISMATCH,
    RESOURCES_PROMPTS_CACHING,
    PER_REQUEST_LOGGING,
    MRTR_SAMPLING_ROOTS,
    SUBSCRIPTIONS_LISTEN,
    TOOL_ERRORS_PAGES_PROGRESS,
    SCRIPTED_SERVER,
    TOOL_STATE,
    AUTH_HAPPY_PATH,
    AUTH_REGISTRATION,
    AUTH_SCOPE_STEP_UP,
    AUTH_AUDIENCE,
    AUTH_WRONG_ISSUER,
    AUTH_NO_RESOURCE_METADATA,
    IDENTITIES,
    GATEWAYS,
];

/// The set-ups of scenario `id`, or `None` for an unknown id.
pub fn setups(id: &str) -> Option<Vec<Setup>> {
    DEFINITIONS
        .iter()
        .find(|s| s.id == id)
        .map(|s| (s.setups)())
}

/// Set-ups of the reference server's scenarios, from data: a JSON array of
/// set-ups `{"label", "client", "transport", "timeout"?, "events"?,
/// "script"}`. The client is `plain` or `all` (declaring elicitation,
/// sampling and roots); a script step is `["discover"]`, `["request",
/// METHOD, PARAMS]`, `["call", TOOL]` or `["raw", MESSAGE, NOTE, RULE]`;
/// an event is `[MS, CHANGE]` (a [`crate::server::ServerTrigger`] in its
/// JSON form). Parsed text is far smaller in WebAssembly than the same
/// set-ups written as code, and the page links every scenario's set-ups.
fn reference_setups(spec: &str) -> Vec<Setup> {
    let parsed: serde_json::Value = serde_json::from_str(spec).unwrap_or_default();
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let items = |v: &serde_json::Value| v.as_array().cloned().unwrap_or_default();
    items(&parsed)
        .iter()
        .map(|s| {
            let mut client = clients::plain();
            if s["client"] == "all" {
                client.preset = "mrtr-client".into();
                client.info = crate::protocol::Implementation::new("assistant-app", "1.0.0");
                client.capabilities = ClientCapabilities::from_json(
                    &json!({"elicitation": {}, "sampling": {}, "roots": {}}),
                );
            }
            if let Some(ms) = s["timeout"].as_u64() {
                client.request_timeout_ms = Some(ms);
            }
            let script = items(&s["script"])
                .iter()
                .map(|step| match step[0].as_str() {
                    Some("discover") => Step::Discover { version: None },
                    Some("call") => {
                        call(step[1].as_str().unwrap_or_default(), json!({}), None, false)
                    }
                    Some("raw") => Step::Raw {
                        text: step[1].to_string(),
                        headers: None,
                        violation: None,
                        note: raw_note(&text(&step[2])),
                        rules: vec![text(&step[3])],
                    },
                    _ => Step::Request {
                        method: text(&step[1]),
                        params: step[2].clone(),
                        declare: None,
                        version: None,
                        retry_on_missing_capability: false,
                        follow_cursor: false,
                        background: false,
                    },
                })
                .collect();
            let kind = if s["transport"] == "stdio" {
                STDIO
            } else {
                HTTP
            };
            let mut setup = setup(
                &text(&s["label"]),
                client,
                crate::server::reference::reference(),
                kind,
                script,
            );
            setup.server_events = items(&s["events"])
                .iter()
                .filter_map(|e| {
                    let event = match crate::server::reference::trigger(&e[1]) {
                        crate::server::ServerTrigger::ToolsChanged => ServerEvent::ToolsChanged,
                        change => ServerEvent::Changed { change },
                    };
                    Some((SimTime::from_millis(e[0].as_u64()?), event))
                })
                .collect();
            setup
        })
        .collect()
}

/// A scenario file's note of a hand-written step: the catalog's keyed
/// note when a catalog scenario's step says the same English (a file
/// exported from the catalog reads, and translates, as the catalog does),
/// else the author's text as it is.
pub(crate) fn catalog_note(text: &str) -> crate::note::Note {
    // The catalog's keyed notes, gathered once (the set-ups are fixed).
    static NOTES: std::sync::OnceLock<Vec<crate::note::Note>> = std::sync::OnceLock::new();
    let notes = NOTES.get_or_init(|| {
        DEFINITIONS
            .iter()
            .flat_map(|d| (d.setups)())
            .flat_map(|s| {
                let scripted = s.server_events.into_iter().flat_map(|(_, ev)| match ev {
                    ServerEvent::Reply(r) => vec![r.violation, r.note],
                    ServerEvent::Notify(n) => n.violation.into_iter().chain([n.note]).collect(),
                    _ => Vec::new(),
                });
                let raw = s.script.into_iter().filter_map(|step| match step {
                    Step::Raw { note, .. } => Some(note),
                    _ => None,
                });
                raw.chain(scripted).collect::<Vec<_>>()
            })
            .filter(|note| note.msg().is_some())
            .collect()
    });
    match notes.iter().find(|n| !text.is_empty() && n.text() == text) {
        Some(note) => note.clone(),
        None => text.into(),
    }
}

/// The note of a data-written raw step, keyed when it is one of these
/// (the catalog's; anything else stays plain text).
fn raw_note(text: &str) -> crate::note::Note {
    [
        crate::note!("scenario.logging.none", "A call with no log level in _meta: the client has not opted in to log messages."),
        crate::note!("scenario.logging.info", "The same call asking for log messages at level info and above."),
        crate::note!("scenario.logging.error", "The same call asking only for errors: the tool's info messages are below that."),
        crate::note!("scenario.listen.open", "The client opens a listen stream for prompt list changes and updates of one resource, not for tool changes."),
    ]
    .into_iter()
    .find(|n| n.text() == text)
    .unwrap_or_else(|| text.into())
}
