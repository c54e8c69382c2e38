//! The flows `mcp-lanes client` runs: client scripts (the core's `Step`s)
//! with the client that runs them. Three kinds:
//!
//! - the official conformance suite's client scenarios outside auth, by
//!   the suite's scenario names (what `MCP_CONFORMANCE_SCENARIO` holds),
//!   run by the `reference` client, or by its legacy-only twin when
//!   `MCP_CONFORMANCE_PROTOCOL_VERSION` names a 2025 revision;
//! - every scenario of the catalog, by id: each of its set-ups' client and
//!   script, one timeline per set-up (what the lanes animate, against a
//!   real server this time);
//! - `overview`: discover (or initialize, for a legacy server) and list
//!   tools, resources and prompts; nothing is called.

use mcp_lanes_core::client::presets as clients;
use mcp_lanes_core::client::{ClientConfig, Step};
use mcp_lanes_core::protocol::version::{EraMode, ProtocolVersion};
use mcp_lanes_core::scenarios;
use serde_json::{json, Value};

use crate::driver::Flow;

/// The flow run when none is named and `MCP_CONFORMANCE_SCENARIO` is unset.
pub const DEFAULT: &str = "overview";

/// The conformance suite's client scenarios this client runs, with what
/// each does.
pub const CONFORMANCE: &[(&str, &str)] = &[
    (
        "tools_call",
        "tools/list, then tools/call add_numbers {a: 5, b: 3}",
    ),
    (
        "request-metadata",
        "server/discover (retried once after -32022), then tools/list",
    ),
    (
        "sep-2322-client-request-state",
        "tools/list, then every listed tool through its MRTR rounds",
    ),
    (
        "http-standard-headers",
        "lists tools, resources and prompts; calls, reads and gets the first of each",
    ),
    (
        "http-custom-headers",
        "tools/list, then the calls of MCP_CONFORMANCE_CONTEXT with Mcp-Param-* headers",
    ),
    (
        "http-invalid-tool-headers",
        "tools/list, then every listed tool (invalid annotations are left out)",
    ),
    (
        "json-schema-ref-no-deref",
        "server/discover, then tools/list over SSE; no $ref is fetched",
    ),
    ("initialize", "initialize (2025 revisions), then tools/list"),
    (
        "sep-2640-client-no-prefetch",
        "skills/list (the skills extension), and no skill file read: none is loaded",
    ),
    (
        "sep-2640-client-verify-digest",
        "skills/list, then loads the first skill: SKILL.md read and verified (size, digest, frontmatter) before any other file",
    ),
    (
        "sep-2640-client-verify-size",
        "skills/list, then loads the first skill: SKILL.md read and verified (size, digest, frontmatter) before any other file",
    ),
    (
        "sep-2640-client-verify-frontmatter",
        "skills/list, then loads the first skill: SKILL.md read and verified (size, digest, frontmatter) before any other file",
    ),
    (
        "auth/*",
        "the authorization flow after HTTP 401, then tools/list and every listed tool with the token",
    ),
    (
        "elicitation-sep1034-client-defaults",
        "tools/list, then every listed tool; elicitations accepted with the schema's defaults",
    ),
    (
        "sse-retry",
        "tools/list, then test_reconnection, resumed with GET and Last-Event-ID after `retry`",
    ),
    (
        "json-schema-2020-12-preservation",
        "tools/list, then json_schema_echo with the listed 2020-12 schema, verbatim",
    ),
];

/// The flows named `name`. `context` is `MCP_CONFORMANCE_CONTEXT` and
/// `version` `MCP_CONFORMANCE_PROTOCOL_VERSION`, when set.
pub fn resolve(
    name: &str,
    context: Option<&str>,
    version: Option<&str>,
) -> Result<Vec<Flow>, String> {
    if let Some(script) = conformance(name, context) {
        return Ok(vec![Flow {
            label: format!("{name} (reference client)").into(),
            client: conformance_client(version),
            script,
        }]);
    }
    if name == DEFAULT {
        return Ok(vec![Flow {
            label: "overview: discover and list".into(),
            client: explorer(),
            script: vec![
                Step::Discover { version: None },
                Step::request("tools/list"),
                Step::request("resources/list"),
                Step::request("prompts/list"),
            ],
        }]);
    }
    if let Some(info) = scenarios::find(name) {
        let setups = scenarios::setups(info.id).unwrap_or_default();
        return Ok(setups
            .into_iter()
            .map(|setup| Flow {
                label: format!("{}: {}", info.id, setup.label).into(),
                client: setup.client,
                script: setup.script,
            })
            .collect());
    }
    Err(format!(
        "unknown flow {name:?}; flows: {DEFAULT}, the conformance scenarios ({}), and the scenario ids ({})",
        CONFORMANCE
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", "),
        scenarios::CATALOG
            .iter()
            .map(|s| s.id)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// The client of a conformance scenario: the `reference` client, or for
/// a 2025 revision the same client speaking only that revision (the
/// `initialize` handshake, a session).
pub(crate) fn conformance_client(version: Option<&str>) -> ClientConfig {
    let mut config = clients::reference();
    if let Some(v) = version.filter(|v| ProtocolVersion::LEGACY.contains(v)) {
        config.era = EraMode::LegacyOnly;
        config.modern_versions = Vec::new();
        config.legacy_versions = vec![v.to_string()];
    }
    config
}

/// The dual-era client that discovers (or initializes) and lists: the
/// check's explorer.
pub(crate) fn explorer() -> ClientConfig {
    mcp_lanes_core::check::plan::explorer()
}

fn list(method: &str) -> Step {
    Step::request(method)
}

fn each(list: &str, limit: Option<usize>) -> Step {
    Step::CallListed {
        list: list.into(),
        limit,
        arguments: json!({}),
    }
}

/// The script of a conformance scenario, or `None` for another name.
fn conformance(name: &str, context: Option<&str>) -> Option<Vec<Step>> {
    Some(match name {
        "initialize" => vec![list("tools/list")],
        "sep-2640-client-no-prefetch" => vec![list("skills/list")],
        "sep-2640-client-verify-digest"
        | "sep-2640-client-verify-size"
        | "sep-2640-client-verify-frontmatter" => {
            vec![list("skills/list"), Step::LoadSkill { uri: None }]
        }
        auth if auth.starts_with("auth/") => vec![list("tools/list"), each("tools/list", None)],
        "elicitation-sep1034-client-defaults" | "sse-retry" => {
            vec![list("tools/list"), each("tools/list", None)]
        }
        "tools_call" => vec![
            list("tools/list"),
            Step::call_tool("add_numbers", json!({"a": 5, "b": 3})),
        ],
        "request-metadata" => vec![Step::Discover { version: None }, list("tools/list")],
        "sep-2322-client-request-state" => vec![list("tools/list"), each("tools/list", None)],
        "http-standard-headers" => vec![
            list("tools/list"),
            each("tools/list", Some(1)),
            list("resources/list"),
            each("resources/list", Some(1)),
            list("prompts/list"),
            each("prompts/list", Some(1)),
        ],
        "http-custom-headers" => {
            let mut steps = vec![list("tools/list")];
            match context_calls(context) {
                Some(calls) => steps.extend(calls),
                None => steps.push(each("tools/list", None)),
            }
            steps
        }
        "http-invalid-tool-headers" => vec![list("tools/list"), each("tools/list", None)],
        "json-schema-ref-no-deref" => vec![Step::Discover { version: None }, list("tools/list")],
        "json-schema-2020-12-preservation" => vec![
            list("tools/list"),
            Step::EchoSchema {
                tool: "json_schema_echo".into(),
                argument: "schema".into(),
                schema_of: "json_schema_2020_12_tool".into(),
            },
        ],
        _ => return None,
    })
}

/// The tool calls a scenario's context asks for:
/// `{"toolCalls": [{"name": …, "arguments": {…}}, …]}`.
fn context_calls(context: Option<&str>) -> Option<Vec<Step>> {
    let context: Value = serde_json::from_str(context?).ok()?;
    let calls = context.get("toolCalls")?.as_array()?;
    Some(
        calls
            .iter()
            .filter_map(|call| {
                let name = call.get("name")?.as_str()?;
                let arguments = call.get("arguments").cloned().unwrap_or(json!({}));
                Some(Step::call_tool(name, arguments))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_flow_resolves() {
        for (name, _) in CONFORMANCE {
            assert_eq!(resolve(name, None, None).map(|f| f.len()), Ok(1), "{name}");
        }
        for info in scenarios::CATALOG {
            assert!(!resolve(info.id, None, None).unwrap_or_default().is_empty());
        }
        assert!(resolve(DEFAULT, None, None).is_ok());
        assert!(resolve("nope", None, None).is_err_and(|e| e.contains("tools_call")));
    }

    #[test]
    fn a_2025_revision_gets_the_legacy_only_reference_client() {
        let legacy = conformance_client(Some("2025-11-25"));
        assert_eq!(legacy.era, EraMode::LegacyOnly);
        assert_eq!(legacy.legacy_versions, vec!["2025-11-25".to_string()]);
        assert_eq!(conformance_client(Some("2026-07-28")), clients::reference());
        assert_eq!(conformance_client(None), clients::reference());
    }

    #[test]
    fn custom_header_calls_come_from_the_context() {
        let context = r#"{"name":"http-custom-headers","toolCalls":[{"name":"a","arguments":{"x":1}},{"name":"b"}]}"#;
        let flows = resolve("http-custom-headers", Some(context), None).unwrap_or_default();
        assert_eq!(flows[0].script.len(), 3);
        assert_eq!(flows[0].script[1], Step::call_tool("a", json!({"x": 1})));
    }
}
