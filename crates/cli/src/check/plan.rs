//! The flows `mcp-lanes check` runs, built from the core's client scripts:
//! each a client configuration and its steps ([`Flow`]). Which ones run
//! depends on the era the first flow finds and on the tools the server
//! lists; only tools the user named (`--tool`) or the server marked
//! read-only (`readOnlyHint`) are ever called.

use mcp_lanes_core::client::presets as clients;
use mcp_lanes_core::client::{example_arguments, ClientConfig, Step};
use mcp_lanes_core::protocol::capabilities::ClientCapabilities;
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::protocol::version::EraMode;
use mcp_lanes_core::protocol::ProtocolVersion;
use mcp_lanes_core::sim::{Side, Timeline};
use mcp_lanes_core::transport::http;
use serde_json::{json, Value};

use crate::driver::Flow;

/// The flow ids `--flow` takes, with what each does.
pub const FLOWS: &[(&str, &str)] = &[
    (
        "discover",
        "the era probe, server/discover and its cache hints, tools/resources/prompts lists (always runs first)",
    ),
    (
        "capabilities",
        "a callable tool without client capabilities; if refused with -32021, with them, then without again",
    ),
    ("unknown", "an unknown tool versus an unknown method"),
    ("version", "a version the server cannot speak, then the retry"),
    ("meta", "requests with missing or malformed _meta"),
    ("headers", "HTTP headers that contradict the body (HTTP only)"),
    (
        "legacy",
        "initialize with the newest legacy version (echo), initialized, lists, callable tools without capabilities",
    ),
    (
        "counter-offer",
        "initialize with a version no server speaks: a counter-offer is expected",
    ),
];

/// A tool name no server has.
pub const NO_SUCH_TOOL: &str = "mcp-lanes-check-no-such-tool";
/// A method no revision defines.
pub const NO_SUCH_METHOD: &str = "mcp-lanes/no-such-method";
/// A version no server speaks (a modern date far ahead).
pub const FUTURE_VERSION: &str = "2099-01-01";
/// A legacy-shaped version no server speaks.
pub const ANCIENT_VERSION: &str = "1999-01-01";

/// A tool the check may call, with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Callable {
    /// The tool's name.
    pub name: String,
    /// Its arguments (`--args`, or plain values for its required ones).
    pub arguments: Value,
    /// Why it may be called: `--tool`, or `readOnlyHint`.
    pub why: &'static str,
}

/// What the first flow's tools/list said: every listed tool's name,
/// read-only hint and input schema.
pub fn listed_tools(timeline: &Timeline) -> Vec<(String, bool, Value)> {
    let mut out: Vec<(String, bool, Value)> = Vec::new();
    let mut list_ids: Vec<Value> = Vec::new();
    for (_, message) in timeline.messages() {
        let Some(body) = message.json.as_ref() else {
            continue;
        };
        if message.from == Side::Client {
            if body.get("method").and_then(Value::as_str) == Some("tools/list") {
                if let Some(id) = body.get("id") {
                    list_ids.push(id.clone());
                }
            }
            continue;
        }
        let answers_list = body.get("id").is_some_and(|id| list_ids.contains(id));
        let Some(tools) = body
            .pointer("/result/tools")
            .and_then(Value::as_array)
            .filter(|_| answers_list)
        else {
            continue;
        };
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            if out.iter().any(|(n, _, _)| n == name) {
                continue;
            }
            let read_only = tool.pointer("/annotations/readOnlyHint") == Some(&json!(true));
            let schema = tool.get("inputSchema").cloned().unwrap_or(json!({}));
            out.push((name.to_string(), read_only, schema));
        }
    }
    out
}

/// The tools the check may call: those named with `--tool` (with their
/// `--args`), then listed tools the server marks `readOnlyHint: true`
/// (with plain values for their required arguments).
pub fn callable(named: &[(String, Value)], listed: &[(String, bool, Value)]) -> Vec<Callable> {
    let mut out: Vec<Callable> = named
        .iter()
        .map(|(name, arguments)| Callable {
            name: name.clone(),
            arguments: arguments.clone(),
            why: "--tool",
        })
        .collect();
    for (name, read_only, schema) in listed {
        if *read_only && !out.iter().any(|c| &c.name == name) {
            out.push(Callable {
                name: name.clone(),
                arguments: example_arguments(schema),
                why: "readOnlyHint",
            });
        }
    }
    out
}

/// The dual-era client of the first flow (the one the era-probe scenarios
/// animate): server/discover first, initialize if the server is legacy.
pub fn discover() -> Flow {
    Flow {
        label: "discover: the era probe, discover and list".into(),
        client: crate::flows::explorer(),
        script: vec![
            Step::Discover { version: None },
            Step::request("tools/list"),
            Step::request("resources/list"),
            Step::request("prompts/list"),
        ],
    }
}

/// The modern client of the modern flows: declares everything it can
/// answer through MRTR.
fn modern() -> ClientConfig {
    clients::reference()
}

/// A tools/call declaring `declare` (everything the client has when
/// `None`), not retried on -32021.
fn call(tool: &Callable, declare: Option<ClientCapabilities>) -> Step {
    Step::Request {
        method: "tools/call".into(),
        params: json!({"name": tool.name, "arguments": tool.arguments}),
        declare,
        version: None,
        retry_on_missing_capability: false,
    }
}

/// Each callable tool once, declaring no client capability.
pub fn capability_probe(tools: &[Callable]) -> Flow {
    Flow {
        label: "capabilities: each callable tool without client capabilities".into(),
        client: modern(),
        script: tools
            .iter()
            .map(|t| call(t, Some(ClientCapabilities::none())))
            .collect(),
    }
}

/// A tool refused for a missing capability: with it, then without it again
/// (M-STATELESS).
pub fn capability_round(tool: &Callable) -> Flow {
    Flow {
        label: format!(
            "capabilities: {} with the capability, then without it again",
            tool.name
        ),
        client: modern(),
        script: vec![
            call(tool, None),
            call(tool, Some(ClientCapabilities::none())),
        ],
    }
}

/// An unknown tool (after listing, so it is known to be unknown) and an
/// unknown method.
pub fn unknown() -> Flow {
    Flow {
        label: "unknown: an unknown tool versus an unknown method".into(),
        client: modern(),
        script: vec![
            Step::request("tools/list"),
            Step::Request {
                method: "tools/call".into(),
                params: json!({"name": NO_SUCH_TOOL, "arguments": {}}),
                declare: None,
                version: None,
                retry_on_missing_capability: false,
            },
            Step::request(NO_SUCH_METHOD),
        ],
    }
}

/// server/discover and tools/list naming a version no server speaks; the
/// client retries with one from `data.supported` (C-VERSION-RETRY-ONCE).
pub fn version() -> Flow {
    Flow {
        label: format!("version: {FUTURE_VERSION}, then the retry"),
        client: modern(),
        script: vec![
            Step::Discover {
                version: Some(FUTURE_VERSION.into()),
            },
            Step::Request {
                method: "tools/list".into(),
                params: json!({}),
                declare: None,
                version: Some(FUTURE_VERSION.into()),
                retry_on_missing_capability: false,
            },
        ],
    }
}

fn raw(
    text: Value,
    headers: Option<Vec<(String, String)>>,
    violation: &str,
    rules: &[&str],
) -> Step {
    Step::Raw {
        text: text.to_string(),
        headers,
        violation: Some(violation.into()),
        note: format!("Sent broken on purpose: {violation}."),
        rules: rules.iter().map(|r| r.to_string()).collect(),
    }
}

/// Requests whose `_meta` is malformed; on HTTP also one without `_meta`
/// (its `MCP-Protocol-Version` header says modern, so it cannot be taken
/// for a legacy request). Ids from 900, clear of the client's own.
pub fn meta(http: bool) -> Flow {
    let caps = json!({});
    let mut script = vec![
        raw(
            json!({"jsonrpc": "2.0", "id": 901, "method": "tools/list",
                "params": {"_meta": {meta::PROTOCOL_VERSION: "2026-07-28"}}}),
            None,
            "_meta without clientCapabilities",
            &["M-META-REQUIRED"],
        ),
        raw(
            json!({"jsonrpc": "2.0", "id": 902, "method": "tools/list",
                "params": {"_meta": {meta::PROTOCOL_VERSION: 20260728, meta::CLIENT_CAPABILITIES: caps}}}),
            None,
            "_meta protocolVersion is a number",
            &["M-META-REQUIRED"],
        ),
    ];
    if http {
        let body = json!({"jsonrpc": "2.0", "id": 903, "method": "tools/list", "params": {}});
        let mut headers = http::modern_headers(&body);
        headers.push((http::PROTOCOL_VERSION_HEADER.into(), "2026-07-28".into()));
        script.push(raw(
            body,
            Some(headers),
            "no _meta at all",
            &["M-META-REQUIRED"],
        ));
    }
    Flow {
        label: "meta: missing or malformed _meta".into(),
        client: modern(),
        script,
    }
}

/// POSTs whose headers contradict their body (HTTP only).
pub fn headers() -> Flow {
    let meta = json!({meta::PROTOCOL_VERSION: "2026-07-28", meta::CLIENT_CAPABILITIES: {}});
    let body =
        json!({"jsonrpc": "2.0", "id": 911, "method": "tools/list", "params": {"_meta": meta}});
    let mut wrong_method = http::modern_headers(&body);
    for (name, value) in &mut wrong_method {
        if name.eq_ignore_ascii_case(http::METHOD_HEADER) {
            *value = "prompts/list".into();
        }
    }
    let body2 =
        json!({"jsonrpc": "2.0", "id": 912, "method": "tools/list", "params": {"_meta": meta}});
    let no_version: Vec<(String, String)> = http::modern_headers(&body2)
        .into_iter()
        .filter(|(n, _)| !n.eq_ignore_ascii_case(http::PROTOCOL_VERSION_HEADER))
        .collect();
    Flow {
        label: "headers: Mcp-Method and MCP-Protocol-Version against the body".into(),
        client: modern(),
        script: vec![
            raw(
                body,
                Some(wrong_method),
                "Mcp-Method says prompts/list, the body tools/list",
                &["H-HEADERS"],
            ),
            raw(
                body2,
                Some(no_version),
                "no MCP-Protocol-Version header",
                &["H-HEADERS"],
            ),
        ],
    }
}

/// A legacy client offering `versions`, declaring no capability.
fn legacy_client(versions: &[&str]) -> ClientConfig {
    let mut config = clients::legacy_host();
    config.capabilities = ClientCapabilities::none();
    config.era = EraMode::LegacyOnly;
    config.legacy_versions = versions.iter().map(|v| v.to_string()).collect();
    config
}

/// initialize with the newest legacy version (any legacy counter-offer is
/// accepted), initialized, the lists,
/// then each callable tool with no capability declared (L-CAP-SESSION).
pub fn legacy(tools: &[Callable]) -> Flow {
    let mut script = vec![
        Step::request("tools/list"),
        Step::request("resources/list"),
        Step::request("prompts/list"),
    ];
    script.extend(
        tools
            .iter()
            .map(|t| Step::call_tool(&t.name, t.arguments.clone())),
    );
    Flow {
        label: "legacy: initialize (echo), initialized, lists".into(),
        client: legacy_client(ProtocolVersion::LEGACY),
        script,
    }
}

/// initialize naming a version no server speaks.
pub fn counter_offer() -> Flow {
    Flow {
        label: format!("counter-offer: initialize naming {ANCIENT_VERSION}"),
        client: legacy_client(&[ANCIENT_VERSION]),
        script: vec![Step::request("tools/list")],
    }
}
