//! The `reference` preset: a dual-era server (2026-07-28 stateless, legacy
//! 2025-11-25 sessions) with the whole server side of the spec and every
//! fixture the official conformance suite's server scenarios call
//! (`docs/conformance-map.md` §3). The fixtures are data (`reference.json`); the behaviour
//! lives in `tools.rs`, `mrtr.rs`, `resources.rs`, `prompts.rs`,
//! `subscriptions.rs` and `params.rs`.

use serde_json::{json, Value};

use super::config::{
    Behaviour, InputAsk, InputRound, MrtrSpec, PromptArgument, PromptSpec, Question, ResourceSpec,
    ServerConfig, TemplateSpec, ToolSpec,
};
use super::ServerTrigger;
use crate::protocol::capabilities::ListCapability;
use crate::protocol::version::EraMode;
use crate::protocol::{ClientCapabilities, Implementation, ServerCapabilities};

/// A 1x1 PNG, base64.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==";
/// A silent 1 ms WAV, base64.
pub const WAV: &str =
    "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";
/// The resource a listen stream or a legacy session can watch.
pub const WATCHED: &str = "test://watched-resource";

/// The fixtures as data: tools, prompts, resources and templates, one per
/// line. Read by hand below rather than with serde derives, which cost far
/// more in WebAssembly (the page links every scenario's set-ups).
const FIXTURES: &str = include_str!("reference.json");

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn opt_text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn list<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn mrtr(v: &Value) -> MrtrSpec {
    MrtrSpec {
        rounds: list(v, "rounds")
            .map(|r| InputRound {
                asks: list(r, "asks")
                    .map(|a| InputAsk {
                        key: text(a, "key"),
                        method: text(a, "method"),
                        params: a.get("params").cloned().unwrap_or_else(|| json!({})),
                    })
                    .collect(),
                only_declared: r
                    .get("only_declared")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
            })
            .collect(),
        signed_state: v
            .get("signed_state")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        result_text: text(v, "result_text"),
    }
}

/// Reads a [`ServerTrigger`] from its JSON form (`{"change": ...}`).
pub(crate) fn trigger(v: &Value) -> ServerTrigger {
    match v.get("change").and_then(Value::as_str) {
        Some("prompts_changed") => ServerTrigger::PromptsChanged,
        Some("resources_changed") => ServerTrigger::ResourcesChanged,
        Some("resource_updated") => ServerTrigger::ResourceUpdated {
            uri: text(v, "uri"),
        },
        _ => ServerTrigger::ToolsChanged,
    }
}

fn behaviour(v: &Value) -> Option<Behaviour> {
    Some(match v.get("kind")?.as_str()? {
        "content" => Behaviour::Content {
            content: list(v, "content").cloned().collect(),
        },
        "tool_error" => Behaviour::ToolError,
        "progress" => Behaviour::Progress {
            steps: v
                .get("steps")
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or(3),
        },
        "logs" => Behaviour::Logs {
            messages: list(v, "messages")
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect(),
        },
        "sample" => Behaviour::Sample {
            prompt_argument: text(v, "prompt_argument"),
        },
        "mrtr" => Behaviour::Mrtr(mrtr(v)),
        "announce" => Behaviour::Announce {
            change: trigger(v.get("change")?),
        },
        "reconnect" => Behaviour::Reconnect {
            retry_ms: v.get("retry_ms").and_then(Value::as_u64).unwrap_or(500),
        },
        _ => return None,
    })
}

fn tool(v: &Value) -> ToolSpec {
    ToolSpec {
        name: text(v, "name"),
        description: text(v, "description"),
        input_schema: v
            .get("schema")
            .cloned()
            .unwrap_or_else(|| json!({"type": "object", "properties": {}})),
        requires: v
            .get("requires")
            .map(ClientCapabilities::from_json)
            .unwrap_or_default(),
        asks: v.get("asks").map(|a| Question {
            argument: None,
            message: text(a, "message"),
            requested_schema: a.get("schema").cloned().unwrap_or(Value::Null),
            fallback_error: None,
            url: None,
        }),
        result_text: text(v, "result"),
        behaviour: v.get("behaviour").and_then(behaviour),
        ..Default::default()
    }
}

fn prompt(v: &Value) -> PromptSpec {
    PromptSpec {
        name: text(v, "name"),
        description: text(v, "description"),
        arguments: list(v, "arguments")
            .map(|a| PromptArgument {
                name: text(a, "name"),
                description: text(a, "description"),
                required: a.get("required").and_then(Value::as_bool).unwrap_or(false),
                values: list(a, "values")
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
            })
            .collect(),
        messages: list(v, "messages").cloned().collect(),
        mrtr: v.get("mrtr").map(mrtr),
    }
}

fn resource(v: &Value) -> ResourceSpec {
    ResourceSpec {
        uri: text(v, "uri"),
        name: text(v, "name"),
        text: text(v, "text"),
        description: opt_text(v, "description"),
        mime_type: opt_text(v, "mime_type"),
        blob: opt_text(v, "blob"),
    }
}

fn template(v: &Value) -> TemplateSpec {
    TemplateSpec {
        uri_template: text(v, "uri_template"),
        name: text(v, "name"),
        description: text(v, "description"),
        mime_type: text(v, "mime_type"),
        text: text(v, "text"),
    }
}

/// The fixtures, parsed (an empty set if the data were ever unreadable;
/// a test reads it).
fn fixtures() -> Value {
    serde_json::from_str(FIXTURES).unwrap_or(Value::Null)
}

/// The JSON Schema 2020-12 input schema of `json_schema_2020_12_tool`,
/// served exactly as written (M-SCHEMA-INTACT).
pub fn schema_2020_12() -> Value {
    fixtures()
        .get("tools")
        .and_then(Value::as_array)
        .and_then(|tools| {
            tools
                .iter()
                .find(|t| t["name"] == "json_schema_2020_12_tool")
        })
        .and_then(|t| t.get("schema"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// `reference`: both eras, every feature of the server side, the suite's fixtures.
///
/// Its fixtures are named, not listed (`fixtures: "reference"`): the server
/// adds them when it starts ([`expand`]).
pub fn reference() -> ServerConfig {
    let changes = |subscribe: Option<bool>| {
        Some(ListCapability {
            list_changed: Some(true),
            subscribe,
        })
    };
    ServerConfig {
        era: EraMode::DualEra,
        legacy_versions: vec!["2025-11-25".into(), "2025-06-18".into(), "2025-03-26".into(), "2024-11-05".into()],
        capabilities: ServerCapabilities {
            tools: changes(None),
            resources: changes(Some(true)),
            prompts: changes(None),
            completions: Some(Default::default()),
            logging: Some(Default::default()),
            extensions: None,
        },
        instructions: Some("The reference server: every request of both eras, with the fixtures of the official conformance suite.".into()),
        ttl_ms: 60_000,
        checks_host: true,
        fixtures: Some("reference".into()),
        ..ServerConfig::new("reference", Implementation::new("mcp-lanes-reference", "1.0.0"))
    }
}

/// Adds the fixtures a configuration names (`fixtures: "reference"`) to its
/// tools, prompts, resources and templates.
pub(crate) fn expand(config: &mut ServerConfig) {
    if config.fixtures.as_deref() != Some("reference") {
        return;
    }
    let data = fixtures();
    config.tools.extend(list(&data, "tools").map(tool));
    config.prompts.extend(list(&data, "prompts").map(prompt));
    config
        .resources
        .extend(list(&data, "resources").map(resource));
    config
        .resource_templates
        .extend(list(&data, "templates").map(template));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixture_of_the_data_is_read() {
        let data = fixtures();
        assert!(data.is_object(), "reference.json is JSON");
        let mut config = reference();
        assert!(config.tools.is_empty(), "named, not listed");
        expand(&mut config);
        assert_eq!(config.tools.len(), list(&data, "tools").count());
        for (spec, raw) in config.tools.iter().zip(list(&data, "tools")) {
            assert_eq!(
                spec.behaviour.is_some(),
                raw.get("behaviour").is_some(),
                "{}",
                spec.name
            );
        }
        assert_eq!(config.prompts.len(), 5);
        assert_eq!(config.resources.len(), 3);
        assert_eq!(config.resource_templates.len(), 1);
        assert!(FIXTURES.contains(PNG) && FIXTURES.contains(WAV));
        assert!(config.tools.iter().all(|t| !t.description.is_empty()));
    }
}
