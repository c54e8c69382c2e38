//! The flows of a check, one function each: the client and the script
//! that a [`super::Plan`] hands out (what each sends is data: these
//! functions only assemble it).

use serde_json::{json, Value};

use super::{Callable, ANCIENT_VERSION, FUTURE_VERSION, NO_SUCH_METHOD, NO_SUCH_TOOL};
use crate::client::presets as clients;
use crate::client::{ClientConfig, Flow, Step};
use crate::note::Note;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::meta;
use crate::protocol::version::EraMode;
use crate::protocol::{methods, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::transport::http;

/// The dual-era client of the first flow, declaring no capability:
/// server/discover first, initialize if the server is legacy.
pub fn explorer() -> ClientConfig {
    let mut config = clients::reference();
    config.era = EraMode::DualEra;
    config.legacy_versions = vec![
        "2025-11-25".into(),
        "2025-06-18".into(),
        "2025-03-26".into(),
    ];
    config
}

/// The first flow: the era probe, discover and the lists, declaring no
/// client capability. The probe waits `probe_ms` before taking silence
/// for legacy (E-PROBE-STDIO).
pub fn discover(probe_ms: u64) -> Flow {
    let mut client = explorer();
    client.capabilities = ClientCapabilities::none();
    client.probe_timeout_ms = probe_ms;
    Flow {
        label: crate::note!(
            "check.flow.discover",
            "discover: the era probe, discover and list"
        ),
        client,
        script: vec![
            Step::Discover { version: None },
            Step::request(methods::TOOLS_LIST),
            Step::request(methods::RESOURCES_LIST),
            Step::request(methods::PROMPTS_LIST),
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
        method: methods::TOOLS_CALL.into(),
        params: json!({"name": tool.name, "arguments": tool.arguments}),
        declare,
        version: None,
        retry_on_missing_capability: false,
        follow_cursor: false,
        background: false,
    }
}

/// Each callable tool once, declaring no client capability.
pub fn capability_probe(tools: &[Callable]) -> Flow {
    Flow {
        label: crate::note!(
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

/// A tool refused without capabilities: declaring every capability, then
/// without any again (M-CAP-REQUIRED, M-STATELESS).
pub fn capability_round(tool: &Callable) -> Flow {
    Flow {
        label: crate::note!(
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
        label: crate::note!(
            "check.flow.unknown",
            "unknown: an unknown tool versus an unknown method"
        ),
        client: modern(),
        script: vec![
            Step::request(methods::TOOLS_LIST),
            Step::Request {
                method: methods::TOOLS_CALL.into(),
                params: json!({"name": NO_SUCH_TOOL, "arguments": {}}),
                declare: None,
                version: None,
                retry_on_missing_capability: false,
                follow_cursor: false,
                background: false,
            },
            Step::request(NO_SUCH_METHOD),
        ],
    }
}

/// server/discover and tools/list naming a version no server speaks; the
/// client retries with one from `data.supported` (C-VERSION-RETRY-ONCE).
pub fn version() -> Flow {
    Flow {
        label: crate::note!(
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
                method: methods::TOOLS_LIST.into(),
                params: json!({}),
                declare: None,
                version: Some(FUTURE_VERSION.into()),
                retry_on_missing_capability: false,
                follow_cursor: false,
                background: false,
            },
        ],
    }
}

fn raw(text: Value, headers: Option<Vec<(String, String)>>, violation: Note, rule: RuleId) -> Step {
    Step::Raw {
        text: text.to_string(),
        headers,
        note: crate::note!(
            "check.sent_broken",
            "Sent broken on purpose: {violation}.",
            violation = violation.clone()
        ),
        violation: Some(violation),
        rules: vec![rule.to_string()],
    }
}

/// Requests whose `_meta` is malformed, and one without `_meta` at all, on
/// every transport. On HTTP each carries `MCP-Protocol-Version:
/// 2026-07-28`, so a dual-era server routes it to its modern side
/// (E-HEADER-ROUTE) and cannot take it for a legacy request; on stdio the
/// grader allows a dual-era server to take the one without `_meta` for a
/// legacy request. Ids from 900, clear of the client's own.
pub fn meta(on_http: bool) -> Flow {
    let bodies = [
        (
            json!({"jsonrpc": "2.0", "id": 901, "method": methods::TOOLS_LIST,
                "params": {"_meta": {meta::PROTOCOL_VERSION: ProtocolVersion::MODERN}}}),
            crate::note!(
                "check.violation.no_caps",
                "_meta without clientCapabilities"
            ),
        ),
        (
            json!({"jsonrpc": "2.0", "id": 902, "method": methods::TOOLS_LIST,
                "params": {"_meta": {meta::PROTOCOL_VERSION: 20260728, meta::CLIENT_CAPABILITIES: {}}}}),
            crate::note!(
                "check.violation.numeric_version",
                "_meta protocolVersion is a number"
            ),
        ),
        (
            json!({"jsonrpc": "2.0", "id": 903, "method": methods::TOOLS_LIST, "params": {}}),
            crate::note!("check.violation.no_meta", "no _meta at all"),
        ),
    ];
    let script = bodies
        .into_iter()
        .map(|(body, violation)| {
            let headers = on_http.then(|| modern_route(&body));
            raw(body, headers, violation, rules::M_META_REQUIRED)
        })
        .collect();
    Flow {
        label: crate::note!("check.flow.meta", "meta: missing or malformed _meta"),
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
    headers.push((
        http::PROTOCOL_VERSION_HEADER.into(),
        ProtocolVersion::MODERN.into(),
    ));
    headers
}

/// A POST whose `Mcp-Method` header contradicts its body (HTTP only). A
/// missing `MCP-Protocol-Version` is not tried: a dual-era server may
/// rightly take such a POST for a legacy one.
pub fn headers() -> Flow {
    let meta =
        json!({meta::PROTOCOL_VERSION: ProtocolVersion::MODERN, meta::CLIENT_CAPABILITIES: {}});
    let body = json!({"jsonrpc": "2.0", "id": 911, "method": methods::TOOLS_LIST, "params": {"_meta": meta}});
    let mut wrong_method = http::modern_headers(&body);
    for (name, value) in &mut wrong_method {
        if name.eq_ignore_ascii_case(http::METHOD_HEADER) {
            *value = methods::PROMPTS_LIST.into();
        }
    }
    Flow {
        label: crate::note!("check.flow.headers", "headers: Mcp-Method against the body"),
        client: modern(),
        script: vec![raw(
            body,
            Some(wrong_method),
            crate::note!(
                "check.violation.method_header",
                "Mcp-Method says prompts/list, the body tools/list"
            ),
            rules::H_HEADERS,
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
/// accepted), initialized, the lists, then each callable tool with no
/// capability declared (L-CAP-SESSION).
pub fn legacy(tools: &[Callable]) -> Flow {
    let mut script = vec![
        Step::request(methods::TOOLS_LIST),
        Step::request(methods::RESOURCES_LIST),
        Step::request(methods::PROMPTS_LIST),
    ];
    script.extend(
        tools
            .iter()
            .map(|t| Step::call_tool(&t.name, t.arguments.clone())),
    );
    Flow {
        label: crate::note!(
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
        label: crate::note!(
            "check.flow.counter_offer",
            "counter-offer: initialize naming {version}",
            version = ANCIENT_VERSION
        ),
        client: legacy_client(&[ANCIENT_VERSION]),
        script: vec![Step::request(methods::TOOLS_LIST)],
    }
}
