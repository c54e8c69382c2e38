//! `tools/call` in a legacy session: the checks a call passes, its
//! server requests (sampling, elicitation, roots) and its result.

use serde_json::{json, Value};

use super::{ConnId, Fault, LegacySession, OutputKind, PendingCall, Refusal, Reply, Server};
use crate::note::Note;
use crate::protocol::jsonrpc::{self, ErrorObject, RequestId};
use crate::protocol::methods;
use crate::protocol::ProtocolVersion;
use crate::rules::{self, RuleId};

impl Server {
    pub(super) fn legacy_call(
        &mut self,
        conn: &ConnId,
        id: RequestId,
        params: &Value,
    ) -> Option<Reply> {
        let revision = self.revision_for(conn);
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let arguments = params
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));
        if let Some(hidden) = self.hidden_call(&name, &[rules::M_UNKNOWN_TOOL]) {
            return Some(self.refuse(Some(&id), hidden, revision));
        }
        let Some(spec) = self.config.tool(&name).cloned() else {
            return Some(self.refuse(
                Some(&id),
                Refusal::new(
                    Fault::UnknownTool,
                    format!("Unknown tool: {name}"),
                    &[rules::M_UNKNOWN_TOOL],
                    crate::note!(
                        "legacy.not_one_server_s",
                        "\"{name}\" is not one of this server's tools: -32602.",
                        name = name
                    ),
                ),
                revision,
            ));
        };
        let answer = |result: Value, rules: Vec<RuleId>, note: Note| Reply {
            message: jsonrpc::result(&id, result),
            status: 200,
            rules,
            note,
            revision: revision.clone(),
            headers: Vec::new(),
        };
        let mut tool = spec.instantiate(&arguments);
        if let Some((result, rules, note)) =
            self.policy_gate(conn, &mut tool, &arguments, &revision)
        {
            return Some(answer(result, rules, note));
        }
        let session_caps = self
            .sessions
            .get(conn)
            .map(|s| s.client_caps.clone())
            .unwrap_or_default();
        let client_name = self
            .sessions
            .get(conn)
            .map(|s| s.client_name.clone())
            .unwrap_or_default();
        // The question is skipped when the call already carries the answer.
        let question = tool.asks.clone().filter(|q| match &q.argument {
            Some(a) => arguments.get(a).is_none(),
            None => true,
        });
        // URL mode exists from 2025-11-25 on, and only for a client that
        // declared elicitation.url (M-CAP-ELICIT-MODES).
        let url_mode = question.as_ref().is_some_and(|q| q.url.is_some());
        let can_ask = match &question {
            Some(q) if url_mode => {
                session_caps.covers(&q.needs())
                    && revision.as_str() >= crate::protocol::ProtocolVersion::NEWEST_LEGACY
            }
            _ => session_caps.elicitation.is_some(),
        };
        let checks = self.config.checks_capability_before_work;
        // The tool's required client capabilities, checked against what the
        // session declared at initialize, before any work (L-CAP-SESSION):
        // the legacy twin of the modern -32021, as a tool error the model
        // can read.
        let missing = session_caps.missing(&tool.requires);
        if checks && !missing.is_empty() {
            let names = missing.names().join(", ");
            let text = format!("{name} was not run: it requires the client capability {names}, which this session did not declare at initialize. Connect with a client that declares {names} to use it.");
            let result = json!({"content": Server::text_content(&text), "isError": true});
            return Some(Reply { message: jsonrpc::result(&id, result), status: 200,
                rules: vec![rules::L_CAP_SESSION, rules::M_CAP_BEFORE_WORK, rules::L_FALLBACK],
                note: crate::note!("legacy.declared_no_at_initialize", "{client_name} declared no {names} at initialize, and {name} cannot work without it: before any work the server returns a tool error naming the missing capability (the modern path answers the same call with -32021).", client_name = client_name, names = names, name = name),
                revision, headers: Vec::new() });
        }
        // The arguments, once the session may use the tool at all
        // (L-TOOL-INPUT, M-TOOL-INPUT), then the failures it declares.
        match self.check_arguments(&spec, &arguments, &revision) {
            Err(refusal) => return Some(self.refuse(Some(&id), refusal, revision)),
            Ok(Some((result, rules, note))) => return Some(answer(result, rules, note)),
            Ok(None) => {}
        }
        if let Some((result, rules, note)) = self.declared_failure(&spec, &arguments, &revision) {
            return Some(answer(result, rules, note));
        }
        if let Some((result, rules, note)) = self.tool_state(conn, &mut tool, &arguments, &revision)
        {
            return Some(answer(result, rules, note));
        }
        // A call that asks first mints its handle when the answer comes.
        if question.is_none() {
            if let Some(handle) = self.mint_handle(conn, &tool) {
                tool.result_text = tool.result_text.replace("{handle}", &handle);
            }
        }
        if let Some(behaviour) = tool.behaviour.clone() {
            let mut params = params.clone();
            if let Some(obj) = params.as_object_mut() {
                obj.insert("arguments".into(), arguments.clone());
            }
            return self
                .legacy_behaviour(conn, &id, &tool, &behaviour, &params, &revision)
                .map(|(result, rules, note)| Reply {
                    message: jsonrpc::result(&id, result),
                    status: 200,
                    rules,
                    note,
                    revision,
                    headers: Vec::new(),
                });
        }
        if checks && question.is_some() && !can_ask {
            let text = question
                .as_ref()
                .and_then(|q| q.fallback_error.clone())
                .unwrap_or_else(|| match url_mode {
                    true => format!("{name} needs to send the user to a page (URL-mode elicitation), which this session cannot do: it needs 2025-11-25 or later and elicitation.url declared at initialize."),
                    false => format!("{name} needs elicitation, which this client did not declare."),
                });
            let result = json!({"content": Server::text_content(&text), "isError": true});
            return Some(Reply { message: jsonrpc::result(&id, result), status: 200,
                rules: vec![rules::L_CAP_SESSION, rules::M_CAP_BEFORE_WORK, rules::L_FALLBACK],
                note: match url_mode {
                    true => crate::note!("legacy.no_url_mode_in_session", "{name} sends the user to a page (URL-mode elicitation), which this session cannot do (it needs 2025-11-25 and elicitation.url declared at initialize): before taking any lock it returns its fallback tool error.", name = name),
                    false => crate::note!("legacy.declared_no_elicitation_at", "{client_name} declared no elicitation at initialize, so before taking any lock {name} returns a tool error naming the missing argument, its legal values and the context; the model can re-call with it.", client_name = client_name, name = name),
                },
                revision, headers: Vec::new() });
        }
        if let Some(lock) = &tool.side_effect {
            let note = if question.is_some() && !checks {
                crate::note!("legacy.takes_first_only_then", "{name} takes {lock} first and only then finds out whether it can ask: the capability check is off.", name = name, lock = lock)
            } else {
                crate::note!(
                    "legacy.takes_do_work",
                    "{name} takes {lock} to do its work.",
                    name = name,
                    lock = lock
                )
            };
            self.take(conn, lock, &[rules::M_CAP_BEFORE_WORK], note);
        }
        if let Some(question) = question {
            let elicit_id = self.next_id();
            let params = match &question.url {
                // 2025-11-25's URL mode names the interaction, so that a
                // later notifications/elicitation/complete can point at it.
                Some(url) => json!({
                    "mode": "url",
                    "message": question.message,
                    "url": url,
                    "elicitationId": format!("{name}-{elicit_id}"),
                }),
                None => json!({
                    "message": question.message,
                    "requestedSchema": question.requested_schema,
                }),
            };
            let request = jsonrpc::request(&elicit_id, methods::ELICITATION_CREATE, params);
            let (violation, rules, note) = if can_ask {
                (None, vec![rules::L_CAP_SESSION], crate::note!("legacy.client_declared_elicitation_at", "The client declared elicitation at initialize, so the server may ask: elicitation/create id {elicit_id}.", elicit_id = elicit_id))
            } else {
                (Some(crate::note!("legacy.violation_undeclared_elicitation", "{client} never declared elicitation; a server must not call a method the client did not declare", client = client_name)),
                    vec![rules::L_CAP_SESSION, rules::L_UNDECLARED, rules::M_CAP_BEFORE_WORK],
                    crate::note!("legacy.server_sends_elicitation_create", "The server sends elicitation/create id {elicit_id} to a client that never declared elicitation, while holding the lock: what happens next is up to the client's SDK.", elicit_id = elicit_id))
            };
            self.pending.insert(
                (conn.clone(), elicit_id),
                PendingCall {
                    call_id: id,
                    tool: name,
                    arguments,
                    lock: tool.side_effect.clone(),
                    revision: revision.clone(),
                    asked: methods::ELICITATION_CREATE.into(),
                },
            );
            self.note(
                conn,
                OutputKind::Send {
                    message: request,
                    revision,
                    violation,
                },
                &rules,
                note,
            );
            return None;
        }
        let token = params
            .get("_meta")
            .and_then(|m| m.get(crate::protocol::meta::PROGRESS_TOKEN))
            .cloned();
        self.declared_progress(conn, &tool, token.as_ref(), &revision);
        Some(self.legacy_finish_call(
            conn,
            &id,
            &tool.name,
            tool.side_effect.as_deref(),
            &tool.result_text,
            false,
            revision,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn legacy_finish_call(
        &mut self,
        conn: &ConnId,
        id: &RequestId,
        tool: &str,
        lock: Option<&str>,
        text: &str,
        is_error: bool,
        revision: ProtocolVersion,
    ) -> Reply {
        if let Some(lock) = lock {
            self.release(
                conn,
                lock,
                &[rules::M_CAP_BEFORE_WORK],
                crate::note!(
                    "legacy.done_releases",
                    "{tool} is done and releases {lock}.",
                    tool = tool,
                    lock = lock
                ),
            );
        }
        let mut result = json!({"content": Server::text_content(text)});
        if is_error {
            result["isError"] = json!(true);
        }
        Reply {
            message: jsonrpc::result(id, result),
            status: 200,
            rules: vec![rules::L_CAP_SESSION],
            note: if is_error {
                crate::note!(
                    "legacy.ends_tool_error",
                    "{tool} ends with a tool error.",
                    tool = tool
                )
            } else {
                crate::note!("legacy.completes", "{tool} completes.", tool = tool)
            },
            revision,
            headers: Vec::new(),
        }
    }

    /// The client answered a request the server sent (legacy elicitation).
    pub(super) fn legacy_client_answered(
        &mut self,
        conn: &ConnId,
        id: &RequestId,
        answer: Result<Value, ErrorObject>,
    ) {
        let Some(call) = self.pending.remove(&(conn.clone(), id.clone())) else {
            self.note(conn, OutputKind::Dropped(format!("response to id {id}")), &[rules::RPC_ID],
                crate::note!("legacy.response_id_matches_no", "A response for id {id} matches no request the server is waiting on; it is ignored.", id = id));
            return;
        };
        // The user's answer fills what the arguments left (the question's
        // own argument); the arguments win.
        let mut filled = answer
            .as_ref()
            .ok()
            .and_then(|r| r.get("content"))
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if let Some(arguments) = call.arguments.as_object() {
            filled.extend(arguments.clone());
        }
        let filled = Value::Object(filled);
        let tool = self.config.tool(&call.tool).map(|t| t.instantiate(&filled));
        let result_text = match self.own_result(&call.tool) {
            Some(own) => super::tool_state::fill(&own, &filled),
            None => tool
                .as_ref()
                .map(|t| t.result_text.clone())
                .unwrap_or_default(),
        };
        let sampled = (call.asked == methods::SAMPLING_CREATE_MESSAGE)
            .then(|| {
                answer
                    .as_ref()
                    .ok()
                    .and_then(|r| r.get("content"))
                    .and_then(|c| c.get("text"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .flatten();
        let reply = match answer {
            Ok(_) if sampled.is_some() => {
                let text = format!("The model answered: {}", sampled.unwrap_or_default());
                let mut reply = self.legacy_finish_call(
                    conn,
                    &call.call_id,
                    &call.tool,
                    call.lock.as_deref(),
                    &text,
                    false,
                    call.revision.clone(),
                );
                reply.rules = vec![rules::L_SAMPLING, rules::L_CAP_SESSION];
                reply.note = crate::note!("legacy.client_s_model_answered", "The client's model answered the sampling request; {tool} completes with its text.", tool = call.tool);
                reply
            }
            Ok(result) if result.get("action").and_then(Value::as_str) == Some("accept") => {
                let result_text = match tool.as_ref().and_then(|t| self.mint_handle(conn, t)) {
                    Some(handle) => result_text.replace("{handle}", &handle),
                    None => result_text,
                };
                let mut reply = self.legacy_finish_call(
                    conn,
                    &call.call_id,
                    &call.tool,
                    call.lock.as_deref(),
                    &result_text,
                    false,
                    call.revision.clone(),
                );
                reply.note = match result.get("content") {
                    Some(content) => crate::note!(
                        "legacy.user_answered_completes",
                        "The user answered {content}; {tool} completes.",
                        content = content.clone(),
                        tool = call.tool
                    ),
                    // URL mode: accepted, with nothing to carry.
                    None => crate::note!(
                        "legacy.user_accepted_completes",
                        "The user accepted and finished at the page; {tool} completes.",
                        tool = call.tool
                    ),
                };
                reply
            }
            Ok(result) => {
                let action = result
                    .get("action")
                    .and_then(Value::as_str)
                    .unwrap_or("?")
                    .to_string();
                self.legacy_finish_call(
                    conn,
                    &call.call_id,
                    &call.tool,
                    call.lock.as_deref(),
                    &format!("{} cancelled: the user answered {action}.", call.tool),
                    true,
                    call.revision.clone(),
                )
            }
            Err(error) => {
                let mut reply = self.legacy_finish_call(
                    conn,
                    &call.call_id,
                    &call.tool,
                    call.lock.as_deref(),
                    &format!(
                        "{} could not ask for a retention choice: the client answered {} {}.",
                        call.tool, error.code, error.message
                    ),
                    true,
                    call.revision.clone(),
                );
                reply.rules = vec![rules::L_UNDECLARED, rules::L_CAP_SESSION];
                reply.note = crate::note!("legacy.client_answered_elicitation_create", "The client answered elicitation/create with {code}; the handler catches it, releases the lock and returns a tool error.", code = error.code);
                reply
            }
        };
        self.note(
            conn,
            OutputKind::Send {
                message: reply.message,
                revision: reply.revision,
                violation: None,
            },
            &reply.rules,
            reply.note,
        );
    }

    /// Sends the server request `method` for tool call `id` in a legacy
    /// session and waits for the client's answer (L-SAMPLING, L-CAP-SESSION;
    /// the tool's required capabilities were checked before).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn legacy_ask(
        &mut self,
        conn: &ConnId,
        id: &RequestId,
        tool: &super::ToolSpec,
        method: &str,
        params: Value,
        arguments: Value,
        revision: &ProtocolVersion,
    ) {
        let ask_id = self.next_id();
        let request = jsonrpc::request(&ask_id, method, params);
        self.pending.insert(
            (conn.clone(), ask_id.clone()),
            PendingCall {
                call_id: id.clone(),
                tool: tool.name.clone(),
                arguments,
                lock: None,
                revision: revision.clone(),
                asked: method.into(),
            },
        );
        self.note(conn, OutputKind::Send { message: request, revision: revision.clone(), violation: None },
            &[rules::L_SAMPLING, rules::L_CAP_SESSION],
            crate::note!("legacy.session_declared_capability_at", "The session declared the capability at initialize, so while {tool} waits the server sends {method} id {ask_id} to the client; the call's result follows the answer.", tool = tool.name, method = method, ask_id = ask_id));
    }

    /// Sends the notification `method` with `params` to every legacy
    /// session `hears` selects, in the order the sessions began, each
    /// output carrying `rule` and `note`.
    pub(super) fn notify_legacy_sessions(
        &mut self,
        hears: impl Fn(&LegacySession) -> bool,
        method: &str,
        params: Value,
        rule: RuleId,
        note: Note,
    ) {
        let mut conns: Vec<(u64, ConnId, ProtocolVersion)> = self
            .sessions
            .iter()
            .filter(|(_, s)| hears(s))
            .map(|(c, s)| (s.seq, c.clone(), s.version.clone()))
            .collect();
        conns.sort_by_key(|(seq, ..)| *seq);
        for (_, conn, revision) in conns {
            let message = jsonrpc::notification(method, params.clone());
            self.note(
                &conn,
                OutputKind::Send {
                    message,
                    revision,
                    violation: None,
                },
                &[rule],
                note.clone(),
            );
        }
    }
}
