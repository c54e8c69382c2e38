//! Starting points: a template for every client method of a revision, with
//! `_meta` prefilled for the modern one.

use serde_json::{Map, Value};

use super::{parse, pretty};
use crate::protocol::{meta, methods, ProtocolVersion};
use crate::server::ServerConfig;

/// A starting point for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The method.
    pub method: &'static str,
    /// Pretty-printed JSON text.
    pub text: String,
}

/// The editor's clientInfo, as JSON text.
pub(super) const EDITOR_INFO: &str = r#"{"name":"mcp-lanes-editor","version":"1.0.0"}"#;

pub(super) fn modern_meta() -> Value {
    parse(&format!(
        r#"{{"{}":"{}","{}":{{}},"{}":{EDITOR_INFO}}}"#,
        meta::PROTOCOL_VERSION,
        ProtocolVersion::MODERN,
        meta::CLIENT_CAPABILITIES,
        meta::CLIENT_INFO
    ))
}

/// Templates for every client method of a revision, `_meta` prefilled for
/// the modern one.
pub fn templates(revision: &str) -> Vec<Template> {
    let modern = ProtocolVersion::era_of(revision) == crate::protocol::Era::Modern;
    methods(revision)
        .iter()
        .map(|&method| Template {
            method,
            text: pretty(&template_value(method, modern, revision)),
        })
        .collect()
}

/// The client methods of a revision (the method table's, for its era), in
/// the order [`templates`] gives them.
pub fn methods(revision: &str) -> Vec<&'static str> {
    crate::protocol::methods::client_methods(ProtocolVersion::era_of(revision))
}

/// The template of one method of a revision, if it has one.
pub fn template_for(revision: &str, method: &str) -> Option<String> {
    let modern = ProtocolVersion::era_of(revision) == crate::protocol::Era::Modern;
    methods(revision)
        .contains(&method)
        .then(|| pretty(&template_value(method, modern, revision)))
}

/// [`template_for`] fitted to the server talked to and to the session so
/// far: `tools/call` names one of `config`'s tools (the first that needs no
/// client capability, so a first Send works) with arguments that fit its
/// `inputSchema`, `prompts/get` one of its
/// prompts, a resource method one of its resources; a request gets id `id`
/// (a fresh one: RPC-ID).
pub fn template_for_server(
    revision: &str,
    method: &str,
    config: &ServerConfig,
    id: i64,
) -> Option<String> {
    let modern = ProtocolVersion::era_of(revision) == crate::protocol::Era::Modern;
    if !methods(revision).contains(&method) {
        return None;
    }
    let mut value = template_value(method, modern, revision);
    let params = value.get_mut("params").and_then(Value::as_object_mut);
    match (method, params) {
        (methods::TOOLS_CALL, Some(params)) => {
            let tool = config
                .tools
                .iter()
                .find(|t| t.requires.is_empty())
                .or(config.tools.first());
            if let Some(tool) = tool {
                params.insert("name".into(), Value::from(tool.name.as_str()));
                // Arguments that fit its inputSchema (M-TOOL-INPUT): the
                // template's call works as it is.
                params.insert(
                    "arguments".into(),
                    crate::client::example_arguments(&tool.input_schema),
                );
            }
        }
        (methods::PROMPTS_GET, Some(params)) => {
            if let Some(prompt) = config.prompts.first() {
                params.insert("name".into(), Value::from(prompt.name.as_str()));
            }
        }
        (
            methods::RESOURCES_READ | methods::RESOURCES_SUBSCRIBE | methods::RESOURCES_UNSUBSCRIBE,
            Some(params),
        ) => {
            if let Some(resource) = config.resources.first() {
                params.insert("uri".into(), Value::from(resource.uri.as_str()));
            }
        }
        _ => {}
    }
    if let Some(obj) = value.as_object_mut().filter(|o| o.contains_key("id")) {
        obj.insert("id".into(), Value::from(id));
    }
    Some(pretty(&value))
}

pub(super) fn template_value(method: &str, modern: bool, revision: &str) -> Value {
    let mut params = parse(match method {
        methods::TOOLS_CALL => r#"{"name":"list_incidents","arguments":{}}"#,
        methods::PROMPTS_GET => r#"{"name":"summarize_notes","arguments":{}}"#,
        methods::RESOURCES_READ | methods::RESOURCES_SUBSCRIBE | methods::RESOURCES_UNSUBSCRIBE => {
            r#"{"uri":"note://standup"}"#
        }
        methods::INITIALIZE => r#"{"protocolVersion":"","capabilities":{}}"#,
        methods::LOGGING_SET_LEVEL => r#"{"level":"info"}"#,
        methods::COMPLETION_COMPLETE => {
            r#"{"ref":{"type":"ref/prompt","name":"summarize_notes"},"argument":{"name":"topic","value":"st"}}"#
        }
        methods::SUBSCRIPTIONS_LISTEN => r#"{"notifications":{"toolsListChanged":true}}"#,
        methods::CANCELLED => r#"{"requestId":1,"reason":"no longer needed"}"#,
        _ => "{}",
    });
    if method == methods::INITIALIZE {
        params["protocolVersion"] = Value::from(revision);
        params["clientInfo"] = parse(EDITOR_INFO);
    }
    let notification =
        methods::find(method).is_some_and(|m| m.shape == methods::Shape::Notification);
    if modern && method != methods::CANCELLED {
        params["_meta"] = modern_meta();
    }
    let mut obj = Map::new();
    obj.insert("jsonrpc".into(), Value::from("2.0"));
    if !notification {
        obj.insert("id".into(), Value::from(1));
    }
    obj.insert("method".into(), Value::from(method));
    if params.as_object().is_some_and(|p| !p.is_empty()) {
        obj.insert("params".into(), params);
    }
    Value::Object(obj)
}
