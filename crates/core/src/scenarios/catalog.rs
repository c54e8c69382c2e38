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

/// The twenty-two scenarios, in catalog order: each one's id, title, summary
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
];

/// The set-ups of scenario `id`, or `None` for an unknown id.
pub fn setups(id: &str) -> Option<Vec<Setup>> {
    DEFINITIONS
        .iter()
        .find(|s| s.id == id)
        .map(|s| (s.setups)())
}

const DISCOVER: Definition = Definition {
    number: 1,
    id: "discover",
    title: en!("Discover"),
    summary: en!("One server/discover; read every field of the result."),
    lanes: 1,
    setups: || {
        vec![setup(
            "plain client discovers deploy-console",
            clients::plain(),
            servers::deploy_console(),
            STDIO,
            vec![Step::Discover { version: None }],
        )]
    },
};

const CAPABILITY_PER_REQUEST: Definition = Definition {
    number: 2,
    id: "capability-per-request",
    title: en!("Capability per request"),
    summary: en!(
        "notify_oncall with {} gets -32021 naming elicitation; the retry \
        declaring it completes; dropping it later is refused again."
    ),
    lanes: 1,
    setups: || {
        let mut client = clients::rich();
        client.preset = "rich".into();
        vec![setup(
            "declare per request",
            client,
            servers::deploy_console(),
            STDIO,
            vec![
                call(
                    "notify_oncall",
                    json!({"incident": "INC-4211"}),
                    Some(ClientCapabilities::none()),
                    true,
                ),
                Step::Wait { ms: 1_000 },
                call(
                    "notify_oncall",
                    json!({"incident": "INC-4211"}),
                    Some(ClientCapabilities::none()),
                    false,
                ),
            ],
        )]
    },
};

const PLAIN_VS_RICH: Definition = Definition {
    number: 3,
    id: "plain-vs-rich",
    title: en!("Plain vs rich client"),
    summary: en!(
        "confirm_order: -32021 for the plain client, an input_required \
        elicitation round trip with a new id for the rich one."
    ),
    lanes: 2,
    setups: || {
        vec![
            setup(
                "plain client",
                clients::plain(),
                servers::order_desk(),
                STDIO,
                vec![call(
                    "confirm_order",
                    json!({"order_id": "A-1042"}),
                    None,
                    true,
                )],
            ),
            setup(
                "rich client",
                clients::rich(),
                servers::order_desk(),
                STDIO,
                vec![call(
                    "confirm_order",
                    json!({"order_id": "A-1042"}),
                    None,
                    true,
                )],
            ),
        ]
    },
};

const UNKNOWN_TOOL_VS_UNKNOWN_METHOD: Definition = Definition {
    number: 4,
    id: "unknown-tool-vs-unknown-method",
    title: en!("Unknown tool vs unknown method"),
    summary: en!("An unknown tool is -32602; an unknown method is -32601."),
    lanes: 2,
    setups: || {
        vec![
            setup(
                "unknown tool",
                clients::plain(),
                servers::deploy_console(),
                STDIO,
                vec![call("close_all_incidents", json!({}), None, true)],
            ),
            setup(
                "unknown method",
                clients::plain(),
                servers::deploy_console(),
                STDIO,
                vec![Step::request("incidents/close")],
            ),
        ]
    },
};

const VERSION_RETRY: Definition = Definition {
    number: 5,
    id: "version-retry",
    title: en!("Version retry"),
    summary: en!("A modern request naming 2025-11-25 gets -32022 with \
        data.supported/requested; the client retries with a supported version \
        and a new id."),
    lanes: 1,
    setups: || {
        vec![setup(
            "discover naming 2025-11-25",
            clients::plain(),
            servers::deploy_console(),
            STDIO,
            vec![Step::Discover {
                version: Some("2025-11-25".into()),
            }],
        )]
    },
};

const MISSING_META: Definition = Definition {
    number: 6,
    id: "missing-meta",
    title: en!("Missing _meta"),
    summary: en!(
        "A request without _meta, or missing either required key, is rejected \
        with -32602; clientInfo is optional."
    ),
    lanes: 4,
    setups: || {
        let broken = |label: &str, params: serde_json::Value, why: crate::note::Note| {
            let text = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params})
                .to_string();
            setup(
                label,
                clients::plain(),
                servers::deploy_console(),
                STDIO,
                vec![Step::Raw {
                    text,
                    headers: None,
                    violation: Some(why.clone()),
                    note: crate::note!(
                        "scenario.missing_meta.broken",
                        "A tools/list request with {why}.",
                        why = why
                    ),
                    rules: vec!["M-META-REQUIRED".into()],
                }],
            )
        };
        vec![
            broken("no _meta", json!({}), crate::note!("scenario.missing_meta.no_meta", "no params._meta at all")),
            broken("no protocolVersion", json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}}), crate::note!("scenario.missing_meta.no_version", "_meta without io.modelcontextprotocol/protocolVersion")),
            broken("no clientCapabilities", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": ProtocolVersion::MODERN}}), crate::note!("scenario.missing_meta.no_caps", "_meta without io.modelcontextprotocol/clientCapabilities")),
            setup("no clientInfo (fine)", clients::plain(), servers::deploy_console(), STDIO, vec![Step::Raw {
                text: json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": modern_meta()}}).to_string(),
                headers: None, violation: None,
                note: crate::note!("scenario.missing_meta.fine", "The same request with both required keys and no clientInfo: clientInfo is optional and a server must not require it."),
                rules: vec!["M-META-REQUIRED".into()],
            }]),
        ]
    },
};

const ERA_PROBE_STDIO: Definition = Definition {
    number: 7,
    id: "era-probe-stdio",
    title: en!("Era probe on stdio"),
    summary: en!(
        "A dual-era client probes modern, legacy-answering, legacy-silent and \
        dual-era servers side by side."
    ),
    lanes: 4,
    setups: || probe_setups(STDIO),
};

const ERA_PROBE_HTTP: Definition = Definition {
    number: 8,
    id: "era-probe-http",
    title: en!("Era probe on HTTP"),
    summary: en!("The same probe on Streamable HTTP, deciding from the status and the body."),
    lanes: 4,
    setups: || probe_setups(HTTP),
};

const ERA_CACHE_AND_UPGRADE: Definition = Definition {
    number: 9,
    id: "era-cache-and-upgrade",
    title: en!("Era cache and upgrade"),
    summary: en!(
        "The era and discover result are cached, reused while fresh, re-probed \
        when ttlMs expires and when an upgraded server returns a version \
        error."
    ),
    lanes: 2,
    setups: || {
        let mut client = clients::dual_era();
        client.request_timeout_ms = Some(30_000);
        let list = || call("list_incidents", json!({}), None, true);
        let ttl = setup(
            "ttlMs expiry",
            client.clone(),
            servers::deploy_console(),
            STDIO,
            vec![
                list(),
                Step::Wait { ms: 600_000 },
                list(),
                Step::Wait { ms: 3_000_000 },
                list(),
            ],
        );
        // The same notes server, upgraded in place to modern-only (subscribe
        // is a legacy-only promise, so it goes).
        let mut upgraded = servers::notes();
        upgraded.era = EraMode::ModernOnly;
        upgraded.modern_versions = vec![ProtocolVersion::MODERN.into()];
        upgraded.legacy_versions = Vec::new();
        upgraded.info.version = "1.0".into();
        if let Some(resources) = upgraded.capabilities.resources.as_mut() {
            resources.subscribe = None;
        }
        let list_tools = || Step::request(methods::TOOLS_LIST);
        let mut upgrade = setup(
            "server upgraded underneath",
            client,
            servers::notes(),
            HTTP,
            vec![list_tools(), Step::Wait { ms: 60_000 }, list_tools()],
        );
        upgrade.server_events = vec![(
            SimTime::from_millis(30_000),
            ServerEvent::Upgrade {
                config: Box::new(upgraded),
            },
        )];
        vec![ttl, upgrade]
    },
};

const COMPATIBILITY_MATRIX: Definition = Definition {
    number: 10,
    id: "compatibility-matrix",
    title: en!("Compatibility matrix"),
    summary: en!("The seven client/server era pairs and how each ends."),
    lanes: 7,
    setups: || {
        let mut modern_client = clients::plain();
        modern_client.discover_first = true;
        let list = || vec![Step::request(methods::TOOLS_LIST)];
        vec![
            setup(
                "modern client, modern server",
                modern_client.clone(),
                servers::deploy_console(),
                STDIO,
                list(),
            ),
            setup(
                "modern client, legacy server",
                modern_client,
                servers::notes(),
                STDIO,
                list(),
            ),
            setup(
                "dual-era client, modern server",
                clients::dual_era(),
                servers::deploy_console(),
                STDIO,
                list(),
            ),
            setup(
                "dual-era client, legacy server",
                clients::dual_era(),
                servers::notes(),
                STDIO,
                list(),
            ),
            setup(
                "legacy client, modern server",
                clients::legacy_host(),
                servers::deploy_console(),
                STDIO,
                list(),
            ),
            setup(
                "legacy client, dual-era server",
                clients::legacy_host(),
                servers::dual_era(),
                STDIO,
                list(),
            ),
            setup(
                "legacy client, legacy server",
                clients::legacy_host(),
                servers::notes(),
                STDIO,
                list(),
            ),
        ]
    },
};

const LEGACY_HANDSHAKE: Definition = Definition {
    number: 11,
    id: "legacy-handshake",
    title: en!("Legacy handshake"),
    summary: en!(
        "initialize: version echo, counter-offer, and a client that cannot \
        speak the answer disconnects; initialized; instructions."
    ),
    lanes: 3,
    setups: || {
        let mut wants_newer = clients::legacy_host();
        wants_newer.legacy_versions = vec!["2025-11-25".into(), "2025-06-18".into()];
        let mut only_newer = clients::legacy_host();
        only_newer.legacy_versions = vec!["2025-11-25".into()];
        let script = || vec![Step::request(methods::TOOLS_LIST)];
        vec![
            setup(
                "version echoed",
                clients::legacy_host(),
                servers::notes(),
                STDIO,
                script(),
            ),
            setup(
                "counter-offer accepted",
                wants_newer,
                servers::notes(),
                STDIO,
                script(),
            ),
            setup(
                "counter-offer refused",
                only_newer,
                servers::notes(),
                STDIO,
                script(),
            ),
        ]
    },
};

const LIST_CHANGED_DEBOUNCE: Definition = Definition {
    number: 12,
    id: "list-changed-debounce",
    title: en!("list_changed debounce"),
    summary: en!(
        "A burst of list_changed notices becomes one re-list (compared with \
        re-listing on every notice)."
    ),
    lanes: 2,
    setups: || {
        let mut naive = clients::legacy_host();
        naive.debounce_ms = 0;
        let burst = || {
            vec![
                (SimTime::from_millis(1_000), ServerEvent::ToolsChanged),
                (SimTime::from_millis(1_010), ServerEvent::ToolsChanged),
                (SimTime::from_millis(1_020), ServerEvent::ToolsChanged),
            ]
        };
        let mut debounced = setup(
            "debounced (200 ms)",
            clients::legacy_host(),
            servers::notes(),
            STDIO,
            vec![Step::request(methods::TOOLS_LIST)],
        );
        debounced.server_events = burst();
        let mut eager = setup(
            "re-list on every notice",
            naive,
            servers::notes(),
            STDIO,
            vec![Step::request(methods::TOOLS_LIST)],
        );
        eager.server_events = burst();
        vec![debounced, eager]
    },
};

const ELICITATION_UNCHECKED: Definition = Definition {
    number: 13,
    id: "elicitation-unchecked",
    title: en!("Elicitation unchecked"),
    summary: en!(
        "A server takes a lock and then elicits from a client that never \
        declared it: -32601, silent drop (lock leaked, host kill at 600 s) and \
        disconnect."
    ),
    lanes: 3,
    setups: || {
        let mut server = servers::search_index();
        server.checks_capability_before_work = false;
        UndeclaredPolicy::ALL
            .into_iter()
            .map(|policy| {
                setup(
                    &format!("client {}", policy.label()),
                    clients::orchestrator_runtime(policy),
                    server.clone(),
                    STDIO,
                    vec![call(
                        "purge_index",
                        json!({"index": "prod-catalog"}),
                        None,
                        true,
                    )],
                )
            })
            .collect()
    },
};

const ELICITATION_CHECKED: Definition = Definition {
    number: 14,
    id: "elicitation-checked",
    title: en!("Elicitation checked"),
    summary: en!(
        "The capability check runs before the lock: a precise tool error naming \
        retention_days, the re-call completes, nothing leaks."
    ),
    lanes: 3,
    setups: || {
        UndeclaredPolicy::ALL
            .into_iter()
            .map(|policy| {
                setup(
                    &format!("client that would {}", policy.verb()),
                    clients::orchestrator_runtime(policy),
                    servers::search_index(),
                    STDIO,
                    vec![
                        call("purge_index", json!({"index": "prod-catalog"}), None, true),
                        call(
                            "purge_index",
                            json!({"index": "prod-catalog", "retention_days": 0}),
                            None,
                            true,
                        ),
                    ],
                )
            })
            .collect()
    },
};

const LEGACY_CLIENT_VS_MODERN_SERVER: Definition = Definition {
    number: 15,
    id: "legacy-client-vs-modern-server",
    title: en!("Legacy client, modern server"),
    summary: en!("initialize is refused with the supported versions named, on stdio and on HTTP."),
    lanes: 2,
    setups: || {
        vec![
            setup(
                "stdio",
                clients::legacy_host(),
                servers::deploy_console(),
                STDIO,
                vec![Step::request(methods::TOOLS_LIST)],
            ),
            setup(
                "Streamable HTTP",
                clients::legacy_host(),
                servers::deploy_console(),
                HTTP,
                vec![Step::request(methods::TOOLS_LIST)],
            ),
        ]
    },
};

const HTTP_HEADER_MISMATCH: Definition = Definition {
    number: 16,
    id: "http-header-mismatch",
    title: en!("HTTP header mismatch"),
    summary: en!(
        "MCP-Protocol-Version header differs from _meta: 400 with -32020 (and \
        the matching request for comparison)."
    ),
    lanes: 2,
    setups: || {
        let body = |id: u32| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "list_incidents", "arguments": {}, "_meta": modern_meta()}})
            .to_string()
        };
        let headers = |version: &str| {
            vec![
                ("Content-Type".to_string(), "application/json".to_string()),
                (
                    "Accept".to_string(),
                    "application/json, text/event-stream".to_string(),
                ),
                ("MCP-Protocol-Version".to_string(), version.to_string()),
                ("Mcp-Method".to_string(), "tools/call".to_string()),
                ("Mcp-Name".to_string(), "list_incidents".to_string()),
            ]
        };
        vec![
            setup("header says 2025-11-25", clients::plain(), servers::deploy_console(), HTTP, vec![Step::Raw {
                text: body(1), headers: Some(headers("2025-11-25")),
                violation: Some(crate::note!("scenario.header_mismatch.violation", "MCP-Protocol-Version header (2025-11-25) differs from _meta's protocolVersion (2026-07-28)")),
                note: crate::note!("scenario.header_mismatch.mismatch", "The body says 2026-07-28 but the MCP-Protocol-Version header says 2025-11-25."),
                rules: vec!["H-HEADERS".into()],
            }]),
            setup("headers match", clients::plain(), servers::deploy_console(), HTTP, vec![Step::Raw {
                text: body(1), headers: Some(headers(ProtocolVersion::MODERN)), violation: None,
                note: crate::note!("scenario.header_mismatch.agree", "The same request with headers that mirror the body."),
                rules: vec!["H-HEADERS".into()],
            }]),
        ]
    },
};

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

const RESOURCES_PROMPTS_CACHING: Definition = Definition {
    number: 17,
    id: "resources-prompts-caching",
    title: en!("Resources and prompts, with cache hints"),
    summary: en!(
        "Lists, a template read, an unknown URI (-32602 naming it), a prompt with \
        arguments and a completion: every list and read carries ttlMs and cacheScope."
    ),
    lanes: 1,
    setups: || {
        reference_setups(
            r#"[{"label":"plain client, reference server","client":"plain","transport":"http","script":[
            ["discover"],["request","resources/list",{}],["request","resources/templates/list",{}],
            ["request","resources/read",{"uri":"test://template/42/data"}],
            ["request","resources/read",{"uri":"test://no-such-resource"}],
            ["request","prompts/list",{}],
            ["request","prompts/get",{"name":"test_prompt_with_arguments","arguments":{"arg1":"test-value","arg2":"beta"}}],
            ["request","completion/complete",{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"tes"}}]]}]"#,
        )
    },
};

const PER_REQUEST_LOGGING: Definition = Definition {
    number: 18,
    id: "per-request-logging",
    title: en!("Per-request logging"),
    summary: en!(
        "No logLevel in _meta: no log messages. logLevel info: three messages on the \
        request's own SSE stream before its result. logLevel error: none again."
    ),
    lanes: 1,
    setups: || {
        reference_setups(
            r#"[{"label":"plain client, reference server","client":"plain","transport":"http","script":[
            ["raw",{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}},
             "A call with no log level in _meta: the client has not opted in to log messages.","M-LOG-LEVEL"],
            ["raw",{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}}},
             "The same call asking for log messages at level info and above.","M-LOG-LEVEL"],
            ["raw",{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"error"}}},
             "The same call asking only for errors: the tool's info messages are below that.","M-LOG-LEVEL"]]}]"#,
        )
    },
};

const MRTR_SAMPLING_ROOTS: Definition = Definition {
    number: 19,
    id: "mrtr-sampling-roots",
    title: en!("MRTR: sampling, roots, several rounds"),
    summary: en!(
        "input_required asks the client's model and its roots; a two-round flow \
        carries the first answer in a signed requestState; without the capability, -32021."
    ),
    lanes: 4,
    setups: || {
        reference_setups(
            r#"[{"label":"sampling","client":"all","transport":"http","script":[["call","test_input_required_result_sampling"]]},
            {"label":"roots","client":"all","transport":"http","script":[["call","test_input_required_result_list_roots"]]},
            {"label":"two rounds, signed requestState","client":"all","transport":"http","script":[["call","test_input_required_result_multi_round"]]},
            {"label":"sampling not declared","client":"plain","transport":"http","script":[["call","test_input_required_result_sampling"]]}]"#,
        )
    },
};

const SUBSCRIPTIONS_LISTEN: Definition = Definition {
    number: 20,
    id: "subscriptions-listen",
    title: en!("subscriptions/listen with a filter"),
    summary: en!(
        "A listen stream for prompts and one resource: acknowledged first, tools \
        changes filtered out, every notification tagged with the subscription id; after \
        the client cancels, the server keeps nothing."
    ),
    lanes: 1,
    setups: || {
        reference_setups(
            r#"[{"label":"plain client, reference server, stdio","client":"plain","transport":"stdio","timeout":2000,
            "events":[[400,{"change":"tools_changed"}],[800,{"change":"prompts_changed"}],
                [1200,{"change":"resource_updated","uri":"test://watched-resource"}],[2600,{"change":"prompts_changed"}]],
            "script":[["raw",{"jsonrpc":"2.0","id":"watch-1","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"promptsListChanged":true,"resourceSubscriptions":["test://watched-resource"]}}},
             "The client opens a listen stream for prompt list changes and updates of one resource, not for tool changes.","M-LISTEN-FILTER"]]}]"#,
        )
    },
};

const SCRIPTED_SERVER: Definition = Definition {
    number: 22,
    id: "scripted-server",
    title: en!("A listen stream alongside calls, and a server scripted to misbehave"),
    summary: en!(
        "A listen stream runs in the background while calls go on: notifications the \
        set-up schedules interleave with the calls, and the client cancels the stream when \
        its script is done. Beside it, a server the set-up makes answer wrongly on purpose: \
        a result without resultType, a retired error code and a log message nobody asked \
        for, each drawn as a violation with its reason."
    ),
    lanes: 2,
    setups: super::scripted_server::setups,
};

const TOOL_ERRORS_PAGES_PROGRESS: Definition = Definition {
    number: 21,
    id: "tool-errors-pages-progress",
    title: en!("Tool errors, pages and progress"),
    summary: en!(
        "tools/list in pages of two, the client following nextCursor; a forged cursor \
        is -32602; arguments that break inputSchema and a failure the tool declares are \
        tool errors (isError), -32602 in a 2025-06-18 session; a progress token gets \
        notifications/progress before the result."
    ),
    lanes: 2,
    setups: || {
        let forecast = |arguments: serde_json::Value, meta: Option<serde_json::Value>| {
            let mut params = json!({"name": "forecast", "arguments": arguments});
            if let Some(meta) = meta {
                params["_meta"] = meta;
            }
            Step::Request {
                method: methods::TOOLS_CALL.into(),
                params,
                declare: None,
                version: None,
                retry_on_missing_capability: true,
                follow_cursor: false,
                background: false,
            }
        };
        let mut list = Step::request(methods::TOOLS_LIST);
        if let Step::Request { follow_cursor, .. } = &mut list {
            *follow_cursor = true;
        }
        let forged = Step::Raw {
            text: json!({"jsonrpc": "2.0", "id": "forged", "method": "tools/list", "params": {
                "cursor": "eyJsIjoidG9vbHMvbGlzdCIsIm8iOjB9.forged",
                "_meta": modern_meta()}})
            .to_string(),
            headers: None,
            violation: None,
            note: crate::note!(
                "scenario.tool_errors.forged_cursor",
                "A cursor the client made up: only a nextCursor the server signed may come back."
            ),
            rules: vec!["M-PAGINATION".into()],
        };
        let mut legacy = clients::plain();
        legacy.era = EraMode::LegacyOnly;
        legacy.legacy_versions = vec!["2025-06-18".into()];
        vec![
            setup(
                "modern client",
                clients::plain(),
                weather_desk(),
                STDIO,
                vec![
                    list,
                    forged,
                    forecast(json!({"city": "Oslo", "days": "two"}), None),
                    forecast(json!({"city": "Atlantis", "days": 1}), None),
                    forecast(
                        json!({"city": "Oslo", "days": 3}),
                        Some(json!({"progressToken": "forecast-1"})),
                    ),
                ],
            ),
            setup(
                "2025-06-18 session",
                legacy,
                weather_desk(),
                STDIO,
                vec![
                    forecast(json!({"city": "Oslo", "days": "two"}), None),
                    forecast(json!({"city": "Atlantis", "days": 1}), None),
                ],
            ),
        ]
    },
};

/// The server of scenario 21: three tools listed two at a time, and a
/// forecast that checks its arguments, declares a failure and reports
/// progress.
fn weather_desk() -> ServerConfig {
    use crate::protocol::Implementation;
    use crate::server::{ProgressStep, ToolFailure, ToolSpec};
    let mut cfg = ServerConfig::new("weather-desk", Implementation::new("weather-desk", "1.0.0"));
    cfg.era = EraMode::DualEra;
    cfg.legacy_versions = vec!["2025-06-18".into()];
    cfg.page_size = Some(2);
    cfg.capabilities.tools = Some(Default::default());
    let step = |progress: f64, message: Option<&str>| ProgressStep {
        progress,
        total: Some(3.0),
        message: message.map(str::to_string),
    };
    let simple = |name: &str, description: &str, result: &str| ToolSpec {
        name: name.into(),
        description: description.into(),
        input_schema: json!({"type": "object", "properties": {}}),
        result_text: result.into(),
        ..Default::default()
    };
    cfg.tools = vec![
        ToolSpec {
            name: "forecast".into(),
            description: "The forecast for a city, 1 to 7 days ahead.".into(),
            input_schema: json!({"type": "object", "properties": {
                "city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 7}
            }, "required": ["city", "days"]}),
            result_text: "{city}: rain for {days} days, then sun.".into(),
            errors: vec![ToolFailure {
                when: json!({"city": "Atlantis"}),
                message: "No weather station in {city}: pick a city on land.".into(),
            }],
            progress: vec![
                step(1.0, Some("fetching stations")),
                step(2.0, None),
                step(3.0, Some("done")),
            ],
            // Its progress arrives while it works, its result after 900 ms.
            duration_ms: Some(900),
            ..Default::default()
        },
        simple("stations", "The weather stations.", "Oslo, Lyon, Porto."),
        simple("alerts", "Weather alerts now.", "No alerts."),
    ];
    cfg
}

fn probe_setups(kind: TransportKind) -> Vec<Setup> {
    let script = || vec![Step::request(methods::TOOLS_LIST)];
    vec![
        setup(
            "modern server",
            clients::dual_era(),
            servers::deploy_console(),
            kind,
            script(),
        ),
        setup(
            "legacy server, answers an error",
            clients::dual_era(),
            servers::notes(),
            kind,
            script(),
        ),
        setup(
            "legacy server, silent",
            clients::dual_era(),
            legacy_silent(),
            kind,
            script(),
        ),
        setup(
            "dual-era server",
            clients::dual_era(),
            servers::dual_era(),
            kind,
            script(),
        ),
    ]
}
