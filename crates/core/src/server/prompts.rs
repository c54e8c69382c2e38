#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! Prompts (`prompts/list`, `prompts/get`) and argument completion
//! (`completion/complete`), shared by both eras (M-PROMPTS, M-COMPLETION).

use serde_json::{json, Map, Value};

use super::config::PromptSpec;
use super::{Fault, Refusal, ServerConfig};
use crate::rules;

/// Most values one completion answer carries (the schema's limit).
pub const MAX_COMPLETIONS: usize = 100;

/// The `prompts` array of `prompts/list`.
pub(crate) fn list(config: &ServerConfig) -> Value {
    let items: Vec<Value> = config
        .prompts
        .iter()
        .map(|p| {
            let mut out = json!({"name": p.name, "description": p.description});
            if !p.arguments.is_empty() {
                let args: Vec<Value> = p
                    .arguments
                    .iter()
                    .map(|a| json!({"name": a.name, "description": a.description, "required": a.required}))
                    .collect();
                out["arguments"] = json!(args);
            }
            out
        })
        .collect();
    json!(items)
}

/// The prompt `prompts/get` names, with its arguments checked: the prompt
/// and the arguments as strings.
pub(crate) fn find<'a>(
    config: &'a ServerConfig,
    params: &Value,
) -> Result<(&'a PromptSpec, Map<String, Value>), Refusal> {
    let name = params.get("name").and_then(Value::as_str).unwrap_or("");
    let Some(prompt) = config.prompts.iter().find(|p| p.name == name) else {
        return Err(Refusal::new(
            Fault::InvalidParams,
            format!("Unknown prompt: {name}"),
            &[rules::M_PROMPTS, rules::H_STATUS],
            crate::note!(
                "server.prompts.not_one_server_s",
                "\"{name}\" is not one of this server's prompts: -32602.",
                name = name
            ),
        ));
    };
    let arguments = params
        .get("arguments")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for arg in prompt.arguments.iter().filter(|a| a.required) {
        if !arguments.get(&arg.name).is_some_and(Value::is_string) {
            return Err(Refusal::new(
                Fault::InvalidParams,
                format!("Invalid params: prompt {name} needs the argument {}", arg.name),
                &[rules::M_PROMPTS, rules::H_STATUS],
                crate::note!("server.prompts.has_required_argument_request", "{name} has a required argument {arg} that the request did not give as a string: -32602.", name = name, arg = arg.name),
            ));
        }
    }
    Ok((prompt, arguments))
}

/// The prompt's messages with `{ARGUMENT}` filled from `arguments`.
pub(crate) fn messages(prompt: &PromptSpec, arguments: &Map<String, Value>) -> Value {
    let fill = |text: &str| {
        let mut out = text.to_string();
        for (name, value) in arguments {
            if let Some(value) = value.as_str() {
                out = out.replace(&format!("{{{name}}}"), value);
            }
        }
        out
    };
    json!(prompt
        .messages
        .iter()
        .map(|m| fill_strings(m, &fill))
        .collect::<Vec<_>>())
}

fn fill_strings(value: &Value, fill: &dyn Fn(&str) -> String) -> Value {
    match value {
        Value::String(s) => Value::String(fill(s)),
        Value::Array(a) => Value::Array(a.iter().map(|v| fill_strings(v, fill)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), fill_strings(v, fill)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The `completion` object of `completion/complete`: the values of the
/// prompt argument (or template variable) that start with what was typed.
pub(crate) fn complete(
    config: &ServerConfig,
    params: &Value,
) -> Result<(Value, crate::note::Note), Refusal> {
    let reference = params.get("ref");
    let kind = reference
        .and_then(|r| r.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let argument = params.get("argument");
    let (Some(arg_name), Some(typed)) = (
        argument.and_then(|a| a.get("name")).and_then(Value::as_str),
        argument
            .and_then(|a| a.get("value"))
            .and_then(Value::as_str),
    ) else {
        return Err(Refusal::new(
            Fault::InvalidParams,
            "Invalid params: completion/complete needs argument.name and argument.value (strings)",
            &[rules::M_COMPLETION, rules::H_STATUS],
            crate::note!(
                "server.prompts.request_does_not_say",
                "The request does not say which argument to complete: -32602."
            ),
        ));
    };
    let candidates: Vec<String> = match kind {
        "ref/prompt" => {
            let name = reference
                .and_then(|r| r.get("name"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let Some(prompt) = config.prompts.iter().find(|p| p.name == name) else {
                return Err(Refusal::new(
                    Fault::InvalidParams,
                    format!("Invalid params: unknown prompt: {name}"),
                    &[rules::M_COMPLETION, rules::H_STATUS],
                    crate::note!(
                        "server.prompts.there_no_prompt_complete",
                        "There is no prompt \"{name}\" to complete arguments of: -32602.",
                        name = name
                    ),
                ));
            };
            prompt
                .arguments
                .iter()
                .find(|a| a.name == arg_name)
                .map(|a| a.values.clone())
                .unwrap_or_default()
        }
        "ref/resource" => Vec::new(),
        other => {
            return Err(Refusal::new(
                Fault::InvalidParams,
                format!(
                    "Invalid params: ref.type must be ref/prompt or ref/resource, not {other:?}"
                ),
                &[rules::M_COMPLETION, rules::H_STATUS],
                crate::note!(
                    "server.prompts.reference_neither_prompt_nor",
                    "The reference is neither a prompt nor a resource template: -32602."
                ),
            ));
        }
    };
    let matching: Vec<String> = candidates
        .into_iter()
        .filter(|v| v.starts_with(typed))
        .take(MAX_COMPLETIONS)
        .collect();
    let note = crate::note!(
        "server.prompts.completion_complete_suggests_value",
        "completion/complete suggests {count} value(s) of {arg_name} starting with \"{typed}\".",
        count = matching.len(),
        arg_name = arg_name,
        typed = typed
    );
    Ok((
        json!({"values": matching, "total": matching.len(), "hasMore": false}),
        note,
    ))
}
