//! The legacy era (initialize handshake, 2024-11-05 .. 2025-11-25):
//! capabilities negotiated once per connection (L-CAP-SESSION).

use serde_json::{json, Map, Value};

use super::{
    ConnId, Fault, HttpReply, LegacySession, OutputKind, PendingCall, Refusal, Reply, Server,
    SessionState, UnknownMethodPolicy,
};
use crate::note::Note;
use crate::protocol::jsonrpc::{self, ErrorObject, RequestId};
use crate::protocol::methods::{self, LegacyNeeds};
use crate::protocol::{ClientCapabilities, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::transport::http::{self, HttpRequest, HttpResponse};

impl Server {
    pub(super) fn legacy_initialize(
        &mut self,
        conn: &ConnId,
        id: RequestId,
        params: &Value,
        over_http: bool,
    ) -> Reply {
        let fallback = ProtocolVersion::legacy_default(&self.config.legacy_versions);
        let requested = params.get("protocolVersion").and_then(Value::as_str);
        let caps_value = params.get("capabilities");
        let client_name = params
            .get("clientInfo")
            .and_then(|c| c.get("name"))
            .and_then(Value::as_str);
        let (Some(requested), Some(caps_value @ Value::Object(_)), Some(client_name)) =
            (requested, caps_value, client_name)
        else {
            let refusal = Refusal::new(Fault::InvalidParams,
                "Invalid params: initialize needs protocolVersion (string), capabilities (object) and clientInfo (name, version)", &[rules::L_INIT], crate::note!("legacy.initialize_must_say_which", "initialize must say which version the client wants, what it can do and who it is."));
            return self.refuse(Some(&id), refusal, fallback);
        };
        let client_caps: ClientCapabilities = ClientCapabilities::from_json(caps_value);
        let (version, mut rules, note) = if self
            .config
            .legacy_versions
            .iter()
            .any(|v| v == requested)
        {
            (ProtocolVersion::new(requested), vec![rules::L_INIT, rules::L_VERSION],
                crate::note!("legacy.server_supports_echoes_capabilities", "The server supports {requested} and echoes it; capabilities are now fixed for this connection.", requested = requested))
        } else {
            (fallback.clone(), vec![rules::L_INIT, rules::L_VERSION],
                crate::note!("legacy.server_does_not_support", "The server does not support {requested}, so it answers with its latest, {fallback}; the client must decide whether it can speak that.", requested = requested, fallback = fallback))
        };
        if self.config.era.speaks_modern() {
            rules.push(rules::E_SERVER_SELECT);
        }
        let mut result = Map::new();
        result.insert("protocolVersion".into(), json!(version));
        result.insert("capabilities".into(), self.config.capabilities.to_json());
        result.insert("serverInfo".into(), self.config.info.to_json());
        if let Some(instructions) = &self.config.instructions {
            result.insert("instructions".into(), json!(instructions));
        }
        let mut headers = Vec::new();
        let mut conn = conn.clone();
        if over_http {
            // L-SESSION-ID: the policy's ids (random in a real server), or
            // numbered ones in the simulation.
            let session_id = match &self.policy.ids {
                Some(ids) => ids.next(),
                None => {
                    let id = format!("session-{}", self.next_session);
                    self.next_session += 1;
                    id
                }
            };
            headers.push((http::SESSION_HEADER.to_string(), session_id.clone()));
            conn = ConnId::http_session(&session_id);
            self.make_room_for_a_session();
        }
        self.session_seq += 1;
        self.sessions.insert(
            conn,
            LegacySession {
                state: SessionState::AwaitingInitialized,
                version: version.clone(),
                client_caps,
                client_name: client_name.to_string(),
                log_level: None,
                subscribed: Vec::new(),
                last_seen: self.now,
                seq: self.session_seq,
                streams: Default::default(),
                used_ids: {
                    let mut used = super::used_ids::UsedIds::default();
                    used.insert(&id);
                    used
                },
            },
        );
        Reply {
            message: jsonrpc::result(&id, Value::Object(result)),
            status: 200,
            rules,
            note,
            revision: version,
            headers,
        }
    }

    /// A request on a legacy connection. `None` means the server stays silent.
    pub(super) fn legacy_request(
        &mut self,
        conn: &ConnId,
        id: RequestId,
        method: &str,
        params: &Value,
    ) -> Option<Reply> {
        let revision = self.revision_for(conn);
        // The row says which capability the method needs (L-CAP-SESSION).
        let needs = methods::find(method).map(|m| m.legacy_needs);
        let caps = &self.config.capabilities;
        let offered = needs.is_some_and(|n| n.capability().is_none_or(|c| caps.declares(c)))
            && self.has_content_for(method);
        if !offered || !implements(method) {
            return self.legacy_unknown(conn, &id, method, revision);
        }
        // Requests are served once initialize has been answered; like most
        // SDKs the server does not insist on notifications/initialized first.
        if needs.is_some_and(LegacyNeeds::session) && !self.sessions.contains_key(conn) {
            return Some(self.refuse(Some(&id), Refusal::new(Fault::NotInitialized,
                format!("Invalid Request: {method} received before initialize"), &[rules::L_INIT],
                crate::note!("legacy.legacy_session_starts_initialize", "A legacy session starts with initialize; {method} on a connection without one is refused.", method = method)), revision));
        }
        // An id may not come twice in one session (2025-11-25: "MUST NOT
        // have been previously used by the requestor within the same
        // session"): a careful server refuses the duplicate as an invalid
        // request before doing any work, so the answer to the first request
        // stays the only one with that id.
        if let Some(session) = self.sessions.get_mut(conn) {
            if !session.used_ids.insert(&id) {
                return Some(self.refuse(Some(&id), Refusal::new(Fault::ReusedId,
                    format!("Invalid Request: id {id} was already used in this session"), &[rules::RPC_ID],
                    crate::note!("legacy.client_already_sent_request", "The client already sent a request with id {id} in this session; a retry is a new request with a new id, so the server refuses this one (-32600) and does not run {method}.", id = id, method = method)), revision));
            }
        }
        let reply = |server: &Server, result: Value, rules: &[RuleId], note: Note| Reply {
            message: jsonrpc::result(&id, result),
            status: 200,
            rules: rules.to_vec(),
            note,
            revision: server.revision_for(conn),
            headers: Vec::new(),
        };
        let cfg = &self.config;
        Some(match method {
            methods::PING => reply(
                self,
                json!({}),
                &[rules::L_INIT],
                crate::note!(
                    "legacy.ping_answers_empty_result",
                    "ping answers with an empty result."
                ),
            ),
            methods::TOOLS_LIST
            | methods::PROMPTS_LIST
            | methods::RESOURCES_LIST
            | methods::RESOURCES_TEMPLATES_LIST => {
                let (key, items, mut rules, note) = match method {
                    methods::TOOLS_LIST => (
                        "tools",
                        json!(cfg.tools.iter().map(|t| json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema})).collect::<Vec<_>>()),
                        vec![rules::L_CAP_SESSION],
                        crate::note!(
                            "legacy.tools_list_tools_capability",
                            "tools/list: {tool}, as the tools capability promised.",
                            tool = super::tools_count(cfg.tools.len())
                        ),
                    ),
                    methods::PROMPTS_LIST => (
                        "prompts",
                        super::prompts::list(cfg),
                        vec![rules::L_CAP_SESSION],
                        crate::note!(
                            "legacy.prompts_list_prompts_capability",
                            "prompts/list, as the prompts capability promised."
                        ),
                    ),
                    methods::RESOURCES_LIST => (
                        "resources",
                        super::resources::list(cfg),
                        vec![rules::L_CAP_SESSION],
                        crate::note!(
                            "legacy.resources_list_resources_capability",
                            "resources/list, as the resources capability promised."
                        ),
                    ),
                    _ => (
                        "resourceTemplates",
                        super::resources::templates(cfg),
                        vec![rules::L_CAP_SESSION, rules::M_RESOURCES],
                        crate::note!(
                            "legacy.resources_templates_list_resources",
                            "resources/templates/list, as the resources capability promised."
                        ),
                    ),
                };
                let items = match items {
                    Value::Array(items) => items,
                    _ => Vec::new(),
                };
                match self.page(method, items, params) {
                    Err(refusal) => self.refuse(Some(&id), refusal, revision),
                    Ok(page) => {
                        rules.extend(page.rules());
                        let note = page.note(method, note);
                        let mut result = Map::new();
                        page.put(&mut result, key);
                        reply(self, Value::Object(result), &rules, note)
                    }
                }
            }
            methods::RESOURCES_READ => {
                let uri = params.get("uri").and_then(Value::as_str).unwrap_or("");
                match super::resources::read(cfg, uri) {
                    Ok((contents, note)) => reply(
                        self,
                        json!({"contents": contents}),
                        &[rules::L_CAP_SESSION, rules::M_RESOURCES],
                        note,
                    ),
                    Err(refusal) => self.refuse(Some(&id), refusal, revision),
                }
            }
            methods::PROMPTS_GET => match super::prompts::find(cfg, params) {
                Ok((prompt, arguments)) if prompt.mrtr.is_none() => {
                    let result = json!({"description": prompt.description, "messages": super::prompts::messages(prompt, &arguments)});
                    let note = crate::note!(
                        "legacy.prompts_get_returns_s",
                        "prompts/get returns {prompt}'s messages, its arguments filled in.",
                        prompt = prompt.name
                    );
                    reply(
                        self,
                        result,
                        &[rules::L_CAP_SESSION, rules::M_PROMPTS],
                        note,
                    )
                }
                Ok((prompt, _)) => {
                    let name = prompt.name.clone();
                    self.refuse(Some(&id), Refusal::new(Fault::InvalidParams, format!("Invalid params: prompt {name} asks for input through multi round-trip requests, a 2026-07-28 feature"),
                        &[rules::L_CAP_SESSION, rules::M_PROMPTS], crate::note!("legacy.built_mrtr_which_legacy", "{name} is built on MRTR, which a legacy session does not have: -32602.", name = name)), revision)
                }
                Err(refusal) => self.refuse(Some(&id), refusal, revision),
            },
            methods::COMPLETION_COMPLETE => match super::prompts::complete(cfg, params) {
                Ok((completion, note)) => reply(
                    self,
                    json!({"completion": completion}),
                    &[rules::L_CAP_SESSION, rules::M_COMPLETION],
                    note,
                ),
                Err(refusal) => self.refuse(Some(&id), refusal, revision),
            },
            methods::LOGGING_SET_LEVEL => {
                let level = params.get("level").and_then(Value::as_str).unwrap_or("");
                if !super::tools::LOG_LEVELS.contains(&level) {
                    return Some(self.refuse(
                        Some(&id),
                        Refusal::new(
                            Fault::InvalidParams,
                            format!(
                                "Invalid params: level must be one of {}",
                                super::tools::LOG_LEVELS.join(", ")
                            ),
                            &[rules::L_LOGGING],
                            crate::note!(
                                "legacy.logging_setlevel_needs_one",
                                "logging/setLevel needs one of the eight syslog levels: -32602."
                            ),
                        ),
                        revision,
                    ));
                }
                if let Some(session) = self.sessions.get_mut(conn) {
                    session.log_level = Some(level.to_string());
                }
                reply(self, json!({}), &[rules::L_LOGGING], crate::note!("legacy.session_s_minimum_log", "The session's minimum log level is now {level}: log messages below it are not sent. The result is empty.", level = level))
            }
            methods::RESOURCES_SUBSCRIBE | methods::RESOURCES_UNSUBSCRIBE => {
                let uri = params
                    .get("uri")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let subscribe = method == methods::RESOURCES_SUBSCRIBE;
                if let Some(session) = self.sessions.get_mut(conn) {
                    session.subscribed.retain(|u| *u != uri);
                    if subscribe {
                        session.subscribed.push(uri.clone());
                    }
                }
                let note = if subscribe {
                    crate::note!("legacy.resources_subscribe_was_declared", "resources.subscribe was declared, so the server accepts the subscription to {uri} and will send notifications/resources/updated when it changes.", uri = uri)
                } else {
                    crate::note!(
                        "legacy.session_no_longer_hears",
                        "The session no longer hears about {uri}.",
                        uri = uri
                    )
                };
                reply(self, json!({}), &[rules::L_SUBSCRIBE], note)
            }
            methods::TOOLS_CALL => return self.legacy_call(conn, id, params),
            // A method of the table this server has no answer for.
            _ => return self.legacy_unknown(conn, &id, method, revision),
        })
    }

    /// A method this legacy server does not have: -32601, or silence
    /// (`UnknownMethodPolicy`).
    fn legacy_unknown(
        &mut self,
        conn: &ConnId,
        id: &RequestId,
        method: &str,
        revision: ProtocolVersion,
    ) -> Option<Reply> {
        match self.config.unknown_method {
            UnknownMethodPolicy::Answer => Some(self.refuse(Some(id), Refusal::new(Fault::UnknownMethod,
                format!("Method not found: {method}"), &[rules::L_CAP_SESSION, rules::E_PROBE_STDIO],
                crate::note!("legacy.legacy_server_has_no", "This legacy server has no {method}: -32601, an error no modern server would send for a probe, so a dual-era client falls back to initialize.", method = method)), revision)),
            UnknownMethodPolicy::Silent => {
                self.note(conn, OutputKind::Dropped(format!("{method} request")), &[rules::E_PROBE_STDIO, rules::L_UNDECLARED],
                    crate::note!("legacy.legacy_server_ignores_entirely", "This legacy server ignores {method} entirely: no answer will ever come.", method = method));
                None
            }
        }
    }

    /// What the lesson presets never had stays unknown to them: only a
    /// server with prompts or templates serves these (whatever its
    /// capabilities say).
    fn has_content_for(&self, method: &str) -> bool {
        match method {
            // A server that lists prompts serves them (M-PROMPTS): one
            // without messages answers an empty list of them.
            methods::PROMPTS_GET => !self.config.prompts.is_empty(),
            methods::RESOURCES_TEMPLATES_LIST => !self.config.resource_templates.is_empty(),
            _ => true,
        }
    }

    fn legacy_call(&mut self, conn: &ConnId, id: RequestId, params: &Value) -> Option<Reply> {
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
        let tool = spec.instantiate(&arguments);
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
        let can_ask = session_caps.elicitation.is_some();
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
                .unwrap_or_else(|| {
                    format!("{name} needs elicitation, which this client did not declare.")
                });
            let result = json!({"content": Server::text_content(&text), "isError": true});
            return Some(Reply { message: jsonrpc::result(&id, result), status: 200,
                rules: vec![rules::L_CAP_SESSION, rules::M_CAP_BEFORE_WORK, rules::L_FALLBACK],
                note: crate::note!("legacy.declared_no_elicitation_at", "{client_name} declared no elicitation at initialize, so before taking any lock {name} returns a tool error naming the missing argument, its legal values and the context; the model can re-call with it.", client_name = client_name, name = name),
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
            let request = jsonrpc::request(
                &elicit_id,
                methods::ELICITATION_CREATE,
                json!({
                    "message": question.message,
                    "requestedSchema": question.requested_schema,
                }),
            );
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
        let tool = self
            .config
            .tool(&call.tool)
            .map(|t| t.instantiate(&Value::Object(filled)));
        let result_text = tool
            .as_ref()
            .map(|t| t.result_text.clone())
            .unwrap_or_default();
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
                let mut reply = self.legacy_finish_call(
                    conn,
                    &call.call_id,
                    &call.tool,
                    call.lock.as_deref(),
                    &result_text,
                    false,
                    call.revision.clone(),
                );
                reply.note = crate::note!(
                    "legacy.user_answered_completes",
                    "The user answered {content}; {tool} completes.",
                    content = result.get("content").cloned().unwrap_or(Value::Null),
                    tool = call.tool
                );
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

    /// At the cap of the session policy, ends the HTTP session idle the
    /// longest, so a new one fits (L-SESSION-IDLE).
    fn make_room_for_a_session(&mut self) {
        let Some(max) = self.policy.max_sessions else {
            return;
        };
        while self.sessions.len() >= max.max(1) {
            let oldest = self
                .sessions
                .iter()
                .filter(|(conn, _)| conn.session_id().is_some())
                .min_by_key(|(_, s)| (s.last_seen, s.seq))
                .map(|(conn, _)| conn.clone());
            let Some(conn) = oldest else {
                return;
            };
            let now = self.now;
            self.retire(
                now,
                &conn,
                "was the one idle longest when a new session needed room under the server's cap",
            );
        }
    }

    /// HTTP on a legacy-only server before any session exists.
    pub(super) fn legacy_http_without_session(
        &mut self,
        request: &HttpRequest,
    ) -> Option<HttpReply> {
        let revision = self.revision_for(&ConnId::http());
        let value: Value = serde_json::from_str(&request.body).ok()?;
        if value.get("method").and_then(Value::as_str) == Some(methods::INITIALIZE) {
            return None;
        }
        // Notifications are left to the normal path (202 or ignored).
        value.get("id")?;
        Some(match self.config.unknown_method {
            UnknownMethodPolicy::Answer => {
                let id = value.get("id").and_then(RequestId::from_json);
                let refusal = Refusal::new(Fault::SessionRequired, "Bad Request: No valid session ID provided", &[rules::E_PROBE_HTTP, rules::RPC_CODES],
                    crate::note!("legacy.legacy_streamable_http_server", "A legacy Streamable HTTP server wants a session first: 400 with an SDK-specific -32000 error, not a recognized modern error."));
                self.refuse_http(id.as_ref(), refusal, revision)
            }
            UnknownMethodPolicy::Silent => HttpReply::new(
                HttpResponse::empty(404),
                vec![rules::E_PROBE_HTTP],
                crate::note!(
                    "legacy.legacy_server_answers_modern",
                    "This legacy server answers the modern request with 404 and an empty body."
                ),
                revision,
            ),
        })
    }
}

/// Whether the simulated server implements `method` in a legacy session
/// (when its capabilities allow): every legacy client request of the
/// method table but the handshake and 2025-11-25's experimental tasks.
fn implements(method: &str) -> bool {
    methods::find(method).is_some_and(|m| {
        m.eras.has(crate::protocol::Era::Legacy)
            && m.from == methods::Sender::Client
            && m.shape == methods::Shape::Request
            && m.name != methods::INITIALIZE
            && !m.name.starts_with("tasks/")
    })
}
