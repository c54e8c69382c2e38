//! The flows `mcp-lanes check` runs, built from the core's client scripts:
//! each a client configuration and its steps ([`Flow`]). Which ones run
//! depends on the era the first flow finds and on the tools the server
//! lists; only tools the user named (`--tool`) or the server marked
//! read-only (`readOnlyHint`) are ever called.

use mcp_lanes_core::client::presets as clients;
use mcp_lanes_core::client::{example_arguments, ClientConfig, Step};
use mcp_lanes_core::note;
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
/// The probe waits `probe_ms` before taking silence for legacy
/// (E-PROBE-STDIO): as long as any exchange, since a real server may take
/// seconds to start (the Python SDK's takes about 3 s here).
pub fn discover(probe_ms: u64) -> Flow {
    let mut client = crate::flows::explorer();
    client.probe_timeout_ms = probe_ms;
    Flow {
        label: note!(
            "check.flow.discover",
            "discover: the era probe, discover and list"
        ),
        client,
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
        label: note!(
            "check.flow.capabilities",
            "capabilities: each callable tool without client capabilities"
        ),
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
        label: note!(
            "check.flow.capability_round",
            "capabilities: {tool} with the capability, then without it again",
            tool = tool.name
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
        label: note!(
            "check.flow.unknown",
            "unknown: an unknown tool versus an unknown method"
        ),
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
        label: note!(
            "check.flow.version",
            "version: {version}, then the retry",
            version = FUTURE_VERSION
        ),
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
        note: format!("Sent broken on purpose: {violation}.").into(),
        rules: rules.iter().map(|r| r.to_string()).collect(),
    }
}

/// Requests whose `_meta` is malformed; on HTTP also one without `_meta`.
/// On HTTP each carries `MCP-Protocol-Version: 2026-07-28`, so a dual-era
/// server routes it to its modern side (E-HEADER-ROUTE) and cannot take it
/// for a legacy request. Ids from 900, clear of the client's own.
pub fn meta(on_http: bool) -> Flow {
    let bodies = [
        (
            json!({"jsonrpc": "2.0", "id": 901, "method": "tools/list",
                "params": {"_meta": {meta::PROTOCOL_VERSION: "2026-07-28"}}}),
            "_meta without clientCapabilities",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 902, "method": "tools/list",
                "params": {"_meta": {meta::PROTOCOL_VERSION: 20260728, meta::CLIENT_CAPABILITIES: {}}}}),
            "_meta protocolVersion is a number",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 903, "method": "tools/list", "params": {}}),
            "no _meta at all",
        ),
    ];
    let script = bodies
        .into_iter()
        .filter(|(body, _)| on_http || body.pointer("/params/_meta").is_some())
        .map(|(body, violation)| {
            let headers = on_http.then(|| modern_route(&body));
            raw(body, headers, violation, &["M-META-REQUIRED"])
        })
        .collect();
    Flow {
        label: note!("check.flow.meta", "meta: missing or malformed _meta"),
        client: modern(),
        script,
    }
}

/// The headers of a modern POST of `body`, with `MCP-Protocol-Version:
/// 2026-07-28` whatever the body says.
fn modern_route(body: &Value) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = http::modern_headers(body)
        .into_iter()
        .filter(|(n, _)| !n.eq_ignore_ascii_case(http::PROTOCOL_VERSION_HEADER))
        .collect();
    headers.push((http::PROTOCOL_VERSION_HEADER.into(), "2026-07-28".into()));
    headers
}

/// A POST whose `Mcp-Method` header contradicts its body (HTTP only). A
/// missing `MCP-Protocol-Version` is not tried: a dual-era server may
/// rightly take such a POST for a legacy one.
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
    Flow {
        label: note!("check.flow.headers", "headers: Mcp-Method against the body"),
        client: modern(),
        script: vec![raw(
            body,
            Some(wrong_method),
            "Mcp-Method says prompts/list, the body tools/list",
            &["H-HEADERS"],
        )],
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
        label: note!(
            "check.flow.legacy",
            "legacy: initialize (echo), initialized, lists"
        ),
        client: legacy_client(ProtocolVersion::LEGACY),
        script,
    }
}

/// initialize naming a version no server speaks.
pub fn counter_offer() -> Flow {
    Flow {
        label: note!(
            "check.flow.counter_offer",
            "counter-offer: initialize naming {version}",
            version = ANCIENT_VERSION
        ),
        client: legacy_client(&[ANCIENT_VERSION]),
        script: vec![Step::request("tools/list")],
    }
}
