//! The legacy era (initialize handshake, 2024-11-05 .. 2025-11-25):
//! capabilities negotiated once per connection (L-CAP-SESSION).

use serde_json::{json, Map, Value};

use super::{
    ConnId, Fault, HttpReply, LegacySession, OutputKind, Refusal, Reply, Server, SessionState,
    UnknownMethodPolicy,
};
use crate::note::Note;
use crate::protocol::jsonrpc::{self, RequestId};
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
                        json!(cfg
                            .tools
                            .iter()
                            .filter(|t| self.sees(&t.name))
                            .map(|t| super::listing::tool(t, self.revision_for(conn).as_str()))
                            .collect::<Vec<_>>()),
                        vec![rules::L_CAP_SESSION],
                        crate::note!(
                            "legacy.tools_list_tools_capability",
                            "tools/list: {tool}, as the tools capability promised.",
                            tool = super::tools_count(
                                cfg.tools.iter().filter(|t| self.sees(&t.name)).count()
                            )
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
                let mut note = note;
                if let Some((rule, hidden)) = (method == methods::TOOLS_LIST)
                    .then(|| self.hidden_from_list())
                    .flatten()
                {
                    rules.push(rule);
                    note.push(hidden);
                }
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
                    Err(refusal) => {
                        let refusal = super::resources::in_session(refusal, &revision);
                        self.refuse(Some(&id), refusal, revision)
                    }
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
