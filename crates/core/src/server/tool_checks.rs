#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! What every tool call passes before its tool works, in both eras and for
//! every tool (presets, the reference fixtures, a scenario file's): its
//! arguments against its `inputSchema` and the placeholders its texts fill
//! (M-TOOL-INPUT, L-TOOL-INPUT), then the failures it declares
//! (M-TOOL-ERROR). The progress it reports while it works (M-PROGRESS) is
//! sent from here too.

use serde_json::{json, Value};

use super::config::ToolSpec;
use super::tools::Answered;
use super::{ConnId, Fault, OutputKind, Refusal, Server};
use crate::protocol::{input_schema, methods, ProtocolVersion};
use crate::rules;

/// The revisions whose tools page counts invalid arguments among protocol
/// errors (L-TOOL-INPUT); later ones make them tool execution errors.
const ARGUMENTS_ARE_PROTOCOL_ERRORS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18"];

/// `{word}` placeholders of `text` whose word is not among `arguments`.
pub(crate) fn unfilled(text: &str, arguments: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('}') else { break };
        let word = &after[..end];
        let plain = !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if plain && arguments.get(word).is_none() && !out.iter().any(|w| w == word) {
            out.push(word.to_string());
        }
        rest = &after[end..];
    }
    out
}

/// The texts of `tool` that a call fills from its arguments.
fn filled_texts(tool: &ToolSpec) -> Vec<&str> {
    let mut texts = vec![tool.result_text.as_str()];
    if let Some(lock) = &tool.side_effect {
        texts.push(lock);
    }
    if let Some(q) = &tool.asks {
        texts.push(&q.message);
    }
    if let Some(running) = tool
        .state
        .uses
        .as_ref()
        .and_then(|u| u.while_running.as_ref())
    {
        texts.push(running);
    }
    texts
}

impl Server {
    /// Checks a call's `arguments` against `tool` (not yet instantiated):
    /// `Ok(None)` when they fit; `Ok(Some(..))` a tool error to answer
    /// (M-TOOL-INPUT); `Err` the -32602 of a revision before 2025-11-25
    /// (L-TOOL-INPUT).
    pub(crate) fn check_arguments(
        &self,
        tool: &ToolSpec,
        arguments: &Value,
        revision: &ProtocolVersion,
    ) -> Result<Option<Answered>, Refusal> {
        let errors = input_schema::validate(&tool.input_schema, arguments);
        // The wire text says what is wrong (the server's own words); the
        // note names only where, as data, so it reads in any language.
        let place = errors.first().map(|e| {
            if e.path == "$" {
                "arguments".to_string()
            } else {
                e.path.trim_start_matches("$.").to_string()
            }
        });
        let (problem, place) = match (input_schema::describe(&errors), place) {
            (Some(problem), Some(place)) => (problem, place),
            _ => {
                // The question's own argument is asked for, not missing.
                let asked = tool.asks.as_ref().and_then(|q| q.argument.as_deref());
                let missing: Vec<String> = filled_texts(tool)
                    .into_iter()
                    .flat_map(|t| unfilled(t, arguments))
                    .filter(|w| Some(w.as_str()) != asked)
                    // A handle the tool returns fills `{handle}` itself.
                    .filter(|w| !(tool.state.returns.is_some() && w == "handle"))
                    .collect();
                match missing.first() {
                    None => return Ok(None),
                    Some(word) => (format!("{word}: required, but missing"), word.clone()),
                }
            }
        };
        if ARGUMENTS_ARE_PROTOCOL_ERRORS.contains(&revision.as_str()) {
            return Err(Refusal::new(
                Fault::InvalidParams,
                format!("Invalid arguments for tool {}: {problem}", tool.name),
                &[rules::L_TOOL_INPUT],
                crate::note!("server.checks.invalid_arguments_protocol", "The arguments do not fit {tool}'s inputSchema (at {place}); in {revision} invalid arguments are a protocol error: -32602, and the tool does nothing.", tool = tool.name, place = place, revision = revision),
            ));
        }
        let text = format!("Invalid arguments for {}: {problem}", tool.name);
        let result = self.tool_error(&text, revision);
        Ok(Some((
            result,
            vec![rules::M_TOOL_INPUT],
            crate::note!("server.checks.invalid_arguments_tool_error", "The arguments do not fit {tool}'s inputSchema (at {place}): a tool execution error with isError true that names the field, so the model can correct the call; the tool does nothing.", tool = tool.name, place = place),
        )))
    }

    /// The first failure `tool` declares for these arguments, as the tool
    /// error to answer (M-TOOL-ERROR).
    pub(crate) fn declared_failure(
        &self,
        tool: &ToolSpec,
        arguments: &Value,
        revision: &ProtocolVersion,
    ) -> Option<Answered> {
        let failure = tool.errors.iter().find(|f| {
            f.when.as_object().is_some_and(|when| {
                when.iter()
                    .all(|(k, v)| arguments.get(k).is_some_and(|a| a == v))
            })
        })?;
        let mut text = failure.message.clone();
        if let Some(args) = arguments.as_object() {
            for (name, value) in args {
                let value = match value {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                text = text.replace(&format!("{{{name}}}"), &value);
            }
        }
        let result = self.tool_error(&text, revision);
        Some((
            result,
            vec![rules::M_TOOL_ERROR],
            crate::note!("server.checks.declared_failure", "{tool} fails at its work: a result with isError true that the model can read, not a JSON-RPC error.", tool = tool.name),
        ))
    }

    /// A tool result with `isError: true` and this text, shaped for the
    /// revision (`resultType` in a modern one).
    fn tool_error(&self, text: &str, revision: &ProtocolVersion) -> Value {
        self.tool_text(text, true, revision)
    }

    /// Sends the progress `tool` declares for a request carrying
    /// `token` (M-PROGRESS), before its result.
    pub(crate) fn declared_progress(
        &mut self,
        conn: &ConnId,
        tool: &ToolSpec,
        token: Option<&Value>,
        revision: &ProtocolVersion,
    ) {
        let Some(token) = token else {
            return;
        };
        for step in &tool.progress {
            let mut params = json!({"progressToken": token, "progress": number(step.progress)});
            if let Some(total) = step.total {
                params["total"] = number(total);
            }
            if let Some(message) = &step.message {
                params["message"] = json!(message);
            }
            let message = crate::protocol::jsonrpc::notification(methods::PROGRESS, params);
            self.note(
                conn,
                OutputKind::Send {
                    message,
                    revision: revision.clone(),
                    violation: None,
                },
                &[rules::M_PROGRESS, rules::H_SSE_RESPONSE],
                crate::note!("server.checks.declared_progress", "The request carried a progress token, so {tool} reports its progress ({progress}) before its result.", tool = tool.name, progress = number(step.progress)),
            );
        }
    }
}

/// A number as an author wrote it: `1`, not `1.0`.
fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfilled_names_each_missing_word_once() {
        let args = json!({"city": "Oslo"});
        assert_eq!(
            unfilled("{city} {day} {day} {a.b} {} {", &args),
            vec!["day".to_string()]
        );
    }
}
