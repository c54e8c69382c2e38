#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! Tools with a [`Behaviour`] (the reference preset's fixtures): content
//! blocks, tool errors, progress, logging, sampling, MRTR flows and list
//! changes, in both eras.
//!
//! Notifications a call sends while it works (progress, log messages) go
//! on the connection the request came in on, before its response: on HTTP
//! the response becomes an SSE stream carrying them first (H-SSE-RESPONSE).

use serde_json::{json, Map, Value};

use super::config::{Behaviour, InputAsk, InputRound, MrtrSpec, ToolSpec};
use super::mrtr::{self, Outcome, Target};
use super::{ConnId, OutputKind, Refusal, Server};
use crate::note::Note;
use crate::protocol::{meta, methods, ClientCapabilities, ProtocolVersion, ResultType};
use crate::rules::{self, RuleId};

/// The levels of `notifications/message`, least severe first (RFC 5424).
pub const LOG_LEVELS: &[&str] = &[
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// Whether a message at `level` passes a minimum of `minimum`.
pub(crate) fn level_passes(level: &str, minimum: &str) -> bool {
    let rank = |l: &str| LOG_LEVELS.iter().position(|x| *x == l);
    match (rank(level), rank(minimum)) {
        (Some(l), Some(m)) => l >= m,
        _ => false,
    }
}

/// What a tool call with a behaviour produced.
pub(crate) type Answered = (Value, Vec<RuleId>, Note);

/// The request's `_meta` facts a behaviour reads.
pub(crate) struct CallMeta {
    /// `progressToken`, if asked for.
    pub progress: Option<Value>,
    /// The minimum log level: modern `_meta` logLevel, or the legacy
    /// session's level.
    pub log_level: Option<String>,
}

impl CallMeta {
    /// Reads a modern request's `_meta`.
    pub fn modern(params: &Value) -> Self {
        let meta_obj = params.get("_meta");
        Self {
            progress: meta_obj.and_then(|m| m.get(meta::PROGRESS_TOKEN)).cloned(),
            log_level: meta_obj
                .and_then(|m| m.get(meta::LOG_LEVEL))
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }
}

/// The MRTR flow of a `Sample` behaviour under 2026-07-28: one sampling
/// input request.
fn sampling_flow(prompt: &str) -> MrtrSpec {
    MrtrSpec {
        rounds: vec![InputRound {
            asks: vec![InputAsk {
                key: "completion".into(),
                method: methods::SAMPLING_CREATE_MESSAGE.into(),
                params: sampling_params(prompt),
            }],
            only_declared: false,
        }],
        signed_state: false,
        result_text: "The model answered: {completion.text}".into(),
    }
}

/// Params of a `sampling/createMessage` asking `prompt`.
pub(crate) fn sampling_params(prompt: &str) -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
        "maxTokens": 100,
    })
}

impl Server {
    /// Sends the progress and log notifications of `behaviour` on `conn`.
    fn side_notifications(
        &mut self,
        conn: &ConnId,
        tool: &ToolSpec,
        behaviour: &Behaviour,
        call: &CallMeta,
        revision: &ProtocolVersion,
    ) {
        match behaviour {
            Behaviour::Progress { steps } => {
                let Some(token) = &call.progress else {
                    return;
                };
                let steps = (*steps).max(2);
                for i in 0..steps {
                    let progress = u64::from(i) * 100 / u64::from(steps - 1);
                    let message = crate::protocol::jsonrpc::notification(
                        methods::PROGRESS,
                        json!({"progressToken": token, "progress": progress, "total": 100, "message": format!("{} at {progress}%", tool.name)}),
                    );
                    self.note(conn, OutputKind::Send { message, revision: revision.clone(), violation: None }, &[rules::M_PROGRESS, rules::H_SSE_RESPONSE],
                        crate::note!("server.tools.request_carried_progress_token", "The request carried a progress token, so {tool} reports progress ({progress} of 100) on the request's own stream, before its result.", tool = tool.name, progress = progress));
                }
            }
            Behaviour::Logs { messages } => {
                let Some(level) = &call.log_level else {
                    self.note(
                        conn,
                        OutputKind::Decision,
                        &[rules::M_LOG_LEVEL],
                        crate::note!("server.tools.has_log_messages_but", "{tool} has log messages, but the request set no log level: none is sent.", tool = tool.name),
                    );
                    return;
                };
                if !level_passes("info", level) {
                    self.note(conn, OutputKind::Decision, &[rules::M_LOG_LEVEL, rules::L_LOGGING],
                        crate::note!("server.tools.s_messages_are_at", "{tool}'s messages are at level info, below the requested {level}: none is sent.", tool = tool.name, level = level));
                    return;
                }
                let era_rule = if revision.era() == crate::protocol::Era::Modern {
                    rules::M_LOG_LEVEL
                } else {
                    rules::L_LOGGING
                };
                for text in messages {
                    let message = crate::protocol::jsonrpc::notification(
                        methods::LOGGING_MESSAGE,
                        json!({"level": "info", "logger": tool.name, "data": text}),
                    );
                    self.note(conn, OutputKind::Send { message, revision: revision.clone(), violation: None }, &[era_rule, rules::H_SSE_RESPONSE],
                        crate::note!("server.tools.level_info_passes_requested", "Level info passes the requested minimum ({level}): the log message travels before the result.", level = level));
                }
            }
            _ => {}
        }
    }

    /// Runs a modern `tools/call` of a tool with a behaviour (capabilities
    /// already checked).
    pub(crate) fn modern_behaviour(
        &mut self,
        conn: &ConnId,
        tool: &ToolSpec,
        behaviour: &Behaviour,
        params: &Value,
        caps: &ClientCapabilities,
    ) -> Result<Answered, Refusal> {
        let call = CallMeta::modern(params);
        let modern = ProtocolVersion::modern();
        self.side_notifications(conn, tool, behaviour, &call, &modern);
        let arguments = params
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));
        let flow = match behaviour {
            Behaviour::Mrtr(spec) => Some(spec.clone()),
            Behaviour::Sample { prompt_argument } => {
                let prompt = arguments
                    .get(prompt_argument)
                    .and_then(Value::as_str)
                    .unwrap_or("Say hello.");
                Some(sampling_flow(prompt))
            }
            _ => None,
        };
        if let Some(spec) = flow {
            let target = Target {
                method: methods::TOOLS_CALL,
                name: &tool.name,
                arguments: &arguments,
            };
            let step = self.mrtr_step(
                &spec,
                &target,
                params.get("inputResponses").and_then(Value::as_object),
                params.get("requestState").and_then(Value::as_str),
                caps,
            )?;
            return Ok(match step {
                Outcome::Ask { inputs, state, round } => self.input_required(&tool.name, inputs, state, round),
                Outcome::Declined(key, action) => (
                    self.modern_content(json!([{"type": "text", "text": format!("{} did nothing: the user answered \"{action}\" to {key}.", tool.name)}]), true),
                    vec![rules::M_MRTR],
                    crate::note!("server.tools.user_did_not_accept", "The user did not accept, so the tool ends without acting."),
                ),
                Outcome::Done(answers) => {
                    let text = mrtr::fill_answers(&spec.result_text, &answers);
                    (
                        self.modern_content(json!([{"type": "text", "text": text}]), false),
                        vec![rules::M_MRTR, rules::M_STATELESS, rules::M_RESULT_TYPE],
                        crate::note!("server.tools.every_input_request_answered", "Every input request is answered in this retry (and requestState, if any, verified): {tool} completes, from this request alone.", tool = tool.name),
                    )
                }
            });
        }
        Ok(self.finish_behaviour(tool, behaviour, true))
    }

    /// The `input_required` result of an MRTR step.
    pub(crate) fn input_required(
        &self,
        name: &str,
        inputs: Map<String, Value>,
        state: Option<String>,
        round: usize,
    ) -> Answered {
        let keys: Vec<String> = inputs.keys().cloned().collect();
        let mut result = ResultType::INPUT_REQUIRED.start_result();
        result.insert("inputRequests".into(), Value::Object(inputs));
        let mut rules = vec![rules::M_MRTR, rules::M_MRTR_CAP, rules::M_RESULT_TYPE];
        let signed = state.is_some();
        if let Some(state) = state {
            result.insert("requestState".into(), json!(state));
            rules.push(rules::M_MRTR_STATE);
        }
        let signed = if signed {
            crate::note!(
                "tools.mrtr_signed_state",
                ", with a signed requestState carrying what earlier rounds answered"
            )
        } else {
            Note::default()
        };
        let note = crate::note!(
            "tools.mrtr_needs_input",
            "{name} needs input (round {round}): input_required asking for {keys}{signed}; nothing is done yet, and the server keeps nothing.",
            name = name,
            round = round + 1,
            keys = keys.join(", "),
            signed = signed
        );
        (Value::Object(result), rules, note)
    }

    /// A complete modern tool result with these content blocks.
    pub(crate) fn modern_content(&self, content: Value, is_error: bool) -> Value {
        let mut result = ResultType::COMPLETE.start_result();
        result.insert("content".into(), content);
        if is_error {
            result.insert("isError".into(), json!(true));
        }
        Value::Object(result)
    }

    /// The result of a behaviour that needs nothing from the client.
    fn finish_behaviour(
        &mut self,
        tool: &ToolSpec,
        behaviour: &Behaviour,
        modern: bool,
    ) -> Answered {
        let text_block = || json!([{"type": "text", "text": tool.result_text}]);
        let (content, is_error, rules, note): (Value, bool, Vec<RuleId>, Note) = match behaviour {
            Behaviour::Content { content } => (json!(content), false, vec![rules::M_RESULT_TYPE],
                crate::note!("server.tools.answers_content_block_s", "{tool} answers {count} content block(s).", tool = tool.name, count = content.len())),
            Behaviour::ToolError => (text_block(), true, vec![rules::M_TOOL_ERROR],
                crate::note!("server.tools.fails_tool_result_iserror", "{tool} fails as a tool: a result with isError true that the model can read, not a JSON-RPC error.", tool = tool.name)),
            Behaviour::Announce { change } => {
                self.announce(change);
                self.note(&ConnId::http(), OutputKind::Broadcast(change.clone()), &[rules::M_LISTEN_FILTER],
                    crate::note!("server.tools.every_other_instance_server", "Every other instance of this server tells its own listeners too."));
                (text_block(), false, vec![rules::M_LISTEN_FILTER, rules::L_LIST_CHANGED],
                    crate::note!("server.tools.changes_list_every_open", "{tool} changes a list: every open stream that asked for it hears so, tagged with its subscription id; the others hear nothing.", tool = tool.name))
            }
            _ => (text_block(), false, vec![rules::M_RESULT_TYPE], crate::note!("server.tools.completes", "{tool} completes.", tool = tool.name)),
        };
        let result = if modern {
            self.modern_content(content, is_error)
        } else {
            let mut result = json!({"content": content});
            if is_error {
                result["isError"] = json!(true);
            }
            result
        };
        (result, rules, note)
    }

    /// Runs a legacy `tools/call` of a tool with a behaviour. `None`: the
    /// answer waits for the client (a server request was sent).
    pub(crate) fn legacy_behaviour(
        &mut self,
        conn: &ConnId,
        id: &crate::protocol::jsonrpc::RequestId,
        tool: &ToolSpec,
        behaviour: &Behaviour,
        params: &Value,
        revision: &ProtocolVersion,
    ) -> Option<Answered> {
        let session_level = self.sessions.get(conn).and_then(|s| s.log_level.clone());
        let call = CallMeta {
            progress: params
                .get("_meta")
                .and_then(|m| m.get(meta::PROGRESS_TOKEN))
                .cloned(),
            // Before any logging/setLevel a legacy server picks its own
            // minimum: info.
            log_level: Some(session_level.unwrap_or_else(|| "info".into())),
        };
        self.side_notifications(conn, tool, behaviour, &call, revision);
        match behaviour {
            Behaviour::Sample { prompt_argument } => {
                let arguments = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
                let prompt = arguments
                    .get(prompt_argument)
                    .and_then(Value::as_str)
                    .unwrap_or("Say hello.")
                    .to_string();
                self.legacy_ask(conn, id, tool, methods::SAMPLING_CREATE_MESSAGE, sampling_params(&prompt), arguments, revision);
                None
            }
            Behaviour::Mrtr(_) => Some((
                json!({"content": [{"type": "text", "text": format!("{} asks for input through multi round-trip requests, a 2026-07-28 feature; this legacy session cannot use it.", tool.name)}], "isError": true}),
                vec![rules::L_CAP_SESSION, rules::L_FALLBACK],
                crate::note!("server.tools.built_mrtr_which_legacy", "{tool} is built on MRTR, which a legacy session does not have: a tool error says so.", tool = tool.name),
            )),
            Behaviour::Reconnect { retry_ms } => {
                // The HTTP edge decides whether the session polls (H-SSE-POLL).
                self.poll_reply = Some(*retry_ms);
                Some(self.finish_behaviour(tool, behaviour, false))
            }
            other => Some(self.finish_behaviour(tool, other, false)),
        }
    }
}
