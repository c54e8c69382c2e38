//! The server's HTTP edge: a request to the MCP endpoint in, a response
//! out (statuses, SSE streams, polled and resumed streams, legacy GET
//! streams), the events a POST's stream carries, and the Host and Origin
//! guards (H-HOST). What to answer is decided by the eras' modules; this
//! module only frames it for Streamable HTTP.

use super::*;

impl Server {
    /// Handles one HTTP request to the MCP endpoint and returns the response
    /// together with the reply's rules and note.
    pub fn handle_http(&mut self, now: SimTime, request: &HttpRequest) -> HttpReply {
        self.now = now;
        self.opened_stream = None;
        self.poll_reply = None;
        let reply = self.handle_http_inner(request);
        self.poll_reply = None;
        self.place_events();
        reply
    }

    pub(super) fn handle_http_inner(&mut self, request: &HttpRequest) -> HttpReply {
        let now = self.now;
        let fallback_revision = self.default_revision();
        let session = request.header(http::SESSION_HEADER).map(str::to_string);
        if let (Some(id), Some(idle)) = (&session, self.policy.idle_ms) {
            let conn = ConnId::http_session(id);
            let expired = self
                .sessions
                .get(&conn)
                .is_some_and(|s| now.millis_since(s.last_seen) > idle);
            if expired {
                self.retire(now, &conn, "was idle longer than the server's limit");
                return HttpReply::new(HttpResponse::empty(404), vec![rules::L_SESSION_IDLE, rules::L_INIT],
                    crate::note!("server.session_expired_after_more", "Session {id} expired after more than {idle} ms unused: 404 tells the client to initialize again.", id = id, idle = idle), fallback_revision);
            }
        }
        if let Some(id) = &session {
            if let Some(s) = self.sessions.get_mut(&ConnId::http_session(id)) {
                s.last_seen = now;
            }
        }
        // Legacy Streamable HTTP ends a session with DELETE.
        if request.method == "DELETE" && self.config.era.speaks_legacy() {
            if let Some(id) = &session {
                let conn = ConnId::http_session(id);
                if self.sessions.contains_key(&conn) {
                    self.handle_disconnect(now, &conn);
                    return HttpReply::new(
                        HttpResponse::empty(200),
                        vec![rules::L_INIT],
                        crate::note!(
                            "server.delete_ends_legacy_session",
                            "DELETE ends legacy session {id}; a new one needs initialize.",
                            id = id
                        ),
                        fallback_revision,
                    );
                }
                return HttpReply::new(
                    HttpResponse::empty(404),
                    vec![rules::L_INIT],
                    crate::note!(
                        "server.there_no_session_end",
                        "There is no session {id} to end.",
                        id = id
                    ),
                    fallback_revision,
                );
            }
        }
        // Legacy Streamable HTTP: GET opens or resumes a session's stream.
        if request.method == "GET" && self.config.era.speaks_legacy() {
            if let Some(id) = &session {
                return self.legacy_get(id, request, fallback_revision);
            }
        }
        if request.method != "POST" {
            let note = crate::note!("server.mcp_endpoint_server_keeps", "{method} to the MCP endpoint: this server keeps no sessions or standalone streams, so only POST is allowed.", method = request.method);
            let mut resp = HttpResponse::empty(405);
            resp.headers.push(("Allow".into(), "POST".into()));
            return HttpReply::new(
                resp,
                vec![rules::H_STATUS, rules::H_SESSION],
                note,
                fallback_revision,
            );
        }
        if let Some(host) = request.header("Host").filter(|_| self.config.checks_host) {
            if !host_allowed(host) {
                let refusal = Refusal::new(Fault::ForbiddenHost, "Forbidden: host not allowed", &[rules::H_HOST, rules::H_STATUS],
                    crate::note!("server.host_not_loopback_server", "Host \"{host}\" is not this loopback server's name: 403, so a page on another site that rebinds its DNS name to 127.0.0.1 cannot reach it.", host = host));
                return self.refuse_http(None, refusal, fallback_revision);
            }
        }
        if let Some(origin) = request.header("Origin") {
            if !origin_allowed(origin) {
                let refusal = Refusal::new(Fault::ForbiddenOrigin, "Forbidden: origin not allowed", &[rules::H_STATUS],
                    crate::note!("server.origin_not_allowed_403", "Origin \"{origin}\" is not allowed: 403 protects a local server from DNS rebinding.", origin = origin));
                return self.refuse_http(None, refusal, fallback_revision);
            }
        }
        if let Some(refused) = self.identify_http(request, &fallback_revision) {
            return refused;
        }
        let conn = match (&session, self.config.era) {
            (Some(id), era) if era.speaks_legacy() => ConnId::http_session(id),
            _ => ConnId::http(),
        };
        if request.body.len() > MAX_MESSAGE_BYTES {
            let refusal = Refusal::new(Fault::BodyTooLarge, format!("Invalid Request: body of {} bytes exceeds this server's {MAX_MESSAGE_BYTES} byte limit", request.body.len()),
                &[rules::RPC_INVALID, rules::H_STATUS], crate::note!("server.body_larger_than_server", "The body is larger than the server accepts: refused before parsing."));
            return self.refuse_http(None, refusal, fallback_revision);
        }
        // Legacy sessions: an unknown session id is 404 (the client must
        // initialize again); an unsupported protocol version header is 400.
        if self.config.era.speaks_legacy() {
            if let Some(id) = &session {
                // (A dual-era server still serves modern requests statelessly.)
                let modern_on_dual = self.config.era == EraMode::DualEra
                    && request.body.contains(meta::PROTOCOL_VERSION);
                if !self.sessions.contains_key(&conn) && !modern_on_dual {
                    return HttpReply::new(HttpResponse::empty(404), vec![rules::L_INIT],
                        crate::note!("server.session_unknown_ended_or", "Session {id} is unknown (ended or never started): 404 tells the client to initialize again.", id = id), fallback_revision);
                }
                let known = self.sessions.get(&conn).map(|s| s.version.clone());
                if let (Some(version), Some(header)) =
                    (known, request.header(http::PROTOCOL_VERSION_HEADER))
                {
                    if version != header && !self.config.legacy_versions.iter().any(|v| v == header)
                    {
                        let refusal = Refusal::new(Fault::UnsupportedVersion, format!("Bad Request: unsupported MCP-Protocol-Version {header}"), &[rules::L_VERSION, rules::H_STATUS],
                            crate::note!("server.session_speaks_request_naming", "The session speaks {version}; a request naming {header} in MCP-Protocol-Version is refused with 400.", version = version, header = header));
                        return self.refuse_http(None, refusal, version);
                    }
                }
            }
        }
        let mut extra_rules = Vec::new();
        if session.is_some() && self.config.era == EraMode::ModernOnly {
            extra_rules.push(rules::H_SESSION);
        }
        // A legacy-only server without a session answers everything but
        // initialize the way legacy SDKs do (E-PROBE-HTTP sees a non-modern body).
        if self.config.era == EraMode::LegacyOnly && !self.sessions.contains_key(&conn) {
            if let Some(resp) = self.legacy_http_without_session(request) {
                return resp;
            }
        }
        let request_id = serde_json::from_str::<Value>(&request.body)
            .ok()
            .filter(|v| v.get("method").is_some())
            .and_then(|v| v.get("id").and_then(RequestId::from_json));
        let is_response = serde_json::from_str::<Value>(&request.body)
            .is_ok_and(|v| v.get("method").is_none() && v.get("id").is_some());
        match self.handle_message(&conn, &request.body, Some(request)) {
            Some(reply) => {
                if let (Some(retry_ms), Some(id)) = (self.poll_reply.take(), &request_id) {
                    if let Some(polled) = self.polled_response(&conn, id, &reply, retry_ms) {
                        return polled;
                    }
                }
                let (sends, send_rules, send_note) = self.take_sends(&conn);
                let mut rules = reply.rules.clone();
                let mut note = reply.note.clone();
                let mut resp = if !sends.is_empty() && reply.status == 200 {
                    // Notifications for this request travel first, on its own
                    // SSE stream, then the response (H-SSE-RESPONSE).
                    let mut body = String::new();
                    for message in sends.iter().chain([&reply.message]) {
                        body.push_str(&format!("event: message\ndata: {message}\n\n"));
                    }
                    for rule in send_rules.into_iter().chain([rules::H_SSE_RESPONSE]) {
                        if !rules.contains(&rule) {
                            rules.push(rule);
                        }
                    }
                    note = crate::note!("server.response_sse_stream_notification", "The response is an SSE stream: {count} notification(s) for this request first ({send_note}), then the result. {note}", count = sends.len(), send_note = send_note, note = note);
                    HttpResponse::event_stream(body)
                } else {
                    HttpResponse::json(reply.status, reply.message.to_string())
                };
                resp.headers.extend(reply.headers.iter().cloned());
                rules.extend(extra_rules);
                if rules.contains(&rules::H_SESSION) && !reply.rules.contains(&rules::H_SESSION) {
                    note.push(crate::note!(
                        "server.session_header_ignored",
                        "The Mcp-Session-Id header was ignored: a modern server keeps no sessions."
                    ));
                }
                HttpReply::new(resp, rules, note, reply.revision)
            }
            None => {
                let dropped = self
                    .outbox
                    .iter()
                    .any(|o| matches!(o.kind, OutputKind::Dropped(_)));
                if let Some(key) = self.opened_stream.take() {
                    self.listen_response(key)
                } else if dropped && self.config.unknown_method == UnknownMethodPolicy::Silent {
                    HttpReply::new(
                        HttpResponse::empty(404),
                        vec![rules::E_PROBE_HTTP],
                        crate::note!("server.legacy_server_has_no", "The legacy server has no such endpoint behaviour: 404 with an empty body."),
                        fallback_revision,
                    )
                } else if let Some(id) = request_id {
                    self.sse_response(&conn, id, fallback_revision)
                } else if is_response {
                    HttpReply::new(
                        HttpResponse::empty(202),
                        vec![rules::H_STATUS, rules::L_CAP_SESSION],
                        crate::note!("server.client_s_answer_accepted", "The client's answer is accepted with 202; the server continues the call it belongs to."),
                        fallback_revision,
                    )
                } else {
                    HttpReply::new(HttpResponse::empty(202), vec![rules::RPC_NOTIFY, rules::H_STATUS], crate::note!("server.notification_accepted_202_no", "Notification accepted: 202 with no body, since a notification never gets a response."), fallback_revision)
                }
            }
        }
    }

    /// A legacy request whose answer has to wait for the client (e.g. an
    /// elicitation): the response is an SSE stream for this request that
    /// stays open (H-SSE-STREAM). Its body carries the server's messages so
    /// far as events with ids (H-SSE-RESUME); the later ones, ending with
    /// the request's response, come as outputs of later calls tagged with
    /// the same stream.
    pub(super) fn sse_response(
        &mut self,
        conn: &ConnId,
        id: RequestId,
        revision: ProtocolVersion,
    ) -> HttpReply {
        let session_id = conn.session_id().map(str::to_string);
        let number = self.sessions.get_mut(conn).map(|s| s.streams.open_for(id));
        let key = session_id
            .as_deref()
            .zip(number)
            .map(|(session, n)| streams::stream_key(session, n));
        // The server's messages for this request so far become the stream's
        // first events.
        let mut outbox = std::mem::take(&mut self.outbox);
        for out in outbox.iter_mut() {
            if out.conn != *conn || out.event.is_some() {
                continue;
            }
            let (OutputKind::Send { message, .. }, Some(key), Some(number)) =
                (&out.kind, &key, number)
            else {
                continue;
            };
            out.event = self
                .sessions
                .get_mut(conn)
                .and_then(|s| s.streams.record(number, message, false))
                .map(|event_id| SseEvent {
                    stream: key.clone(),
                    id: Some(event_id),
                    closes: false,
                });
        }
        self.outbox = outbox;
        let (body, mut rules) = match &key {
            Some(key) => self.stream_body(key),
            // No session to keep a stream in: what is there is all.
            None => self.take_untagged_sends(conn),
        };
        rules.splice(0..0, [rules::H_STATUS, rules::H_SSE_STREAM]);
        let mut resp = HttpResponse::event_stream(body);
        if let Some(session) = &session_id {
            resp.headers
                .push((http::SESSION_HEADER.into(), session.clone()));
            resp.stream = key;
        }
        HttpReply::new(resp, rules, crate::note!("server.answer_has_wait_server", "The answer has to wait: the server opens an SSE stream for this request and sends its own request on it, with an event id; the stream stays open, and the result will follow on it as its last event."), revision)
    }

    /// SSE polling (H-SSE-POLL): in a 2025-11-25 session, the POST's
    /// stream is primed (an event id, `retry:`, no data) and ends at once;
    /// the request's notifications and its response become the stream's
    /// later events, kept for the GET with `Last-Event-ID` that follows.
    /// `None`: the session's revision has no priming, so the reply goes out
    /// as usual.
    pub(super) fn polled_response(
        &mut self,
        conn: &ConnId,
        id: &RequestId,
        reply: &Reply,
        retry_ms: u64,
    ) -> Option<HttpReply> {
        let session_id = conn.session_id()?.to_string();
        let session = self.sessions.get_mut(conn)?;
        if session.version.as_str() < "2025-11-25" || reply.status != 200 {
            return None;
        }
        let revision = session.version.clone();
        let number = session.streams.open_for(id.clone());
        let primed = session.streams.prime(number)?;
        let (sends, _, _) = self.take_sends(conn);
        let session = self.sessions.get_mut(conn)?;
        for message in &sends {
            session.streams.record(number, message, false);
        }
        let last = session.streams.record(number, &reply.message, true)?;
        let mut resp =
            HttpResponse::event_stream(format!("id: {primed}\nretry: {retry_ms}\ndata: \n\n"));
        resp.headers.push((http::SESSION_HEADER.into(), session_id));
        let mut rules = vec![rules::H_SSE_POLL, rules::H_SSE_RESUME, rules::H_STATUS];
        rules.extend(reply.rules.iter().copied());
        let note = crate::note!("server.sse_polling_stream_opens", "SSE polling: the stream opens with a priming event ({primed}: an id and no data) and retry: {retry_ms}, then the server ends the response before the result. The result waits as event {last}; the client gets it by reconnecting with GET and Last-Event-ID: {primed}. {note}", primed = primed, retry_ms = retry_ms, last = last, note = reply.note);
        Some(HttpReply::new(resp, rules, note, revision))
    }

    /// GET on a legacy server with a session: resumes the stream named by
    /// `Last-Event-ID` (its events after that one, then its later ones), or
    /// opens the session's stream for messages unrelated to a request
    /// (H-SSE-RESUME). An unknown session gets 404.
    pub(super) fn legacy_get(
        &mut self,
        id: &str,
        request: &HttpRequest,
        revision: ProtocolVersion,
    ) -> HttpReply {
        let conn = ConnId::http_session(id);
        let Some(session) = self.sessions.get_mut(&conn) else {
            return HttpReply::new(HttpResponse::empty(404), vec![rules::L_INIT],
                crate::note!("server.session_unknown_ended_or", "Session {id} is unknown (ended or never started): 404 tells the client to initialize again.", id = id), revision);
        };
        let revision = session.version.clone();
        let mut resp = HttpResponse {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/event-stream".into()),
                (http::SESSION_HEADER.into(), id.to_string()),
            ],
            body: String::new(),
            stream: None,
        };
        let rules = vec![rules::H_SSE_RESUME, rules::H_STATUS];
        let Some(last) = request.header(http::LAST_EVENT_ID_HEADER) else {
            session.streams.open_standalone();
            resp.stream = Some(streams::stream_key(id, 0));
            return HttpReply::new(resp, rules, crate::note!("server.get_opens_session_s", "GET opens session {id}'s stream for server messages unrelated to a request; it stays open.", id = id), revision);
        };
        let found = streams::parse_event_id(last)
            .and_then(|(number, seq)| session.streams.get(number).map(|s| (s, seq)));
        let Some((stream, after)) = found else {
            let refusal = Refusal::new(Fault::InvalidRequest, format!("Bad Request: no stream of session {id} has event {last}"),
                &[rules::H_SSE_RESUME, rules::H_STATUS],
                crate::note!("server.last_event_id_names", "Last-Event-ID {last} names no stream this session still has: nothing can be replayed, 400.", last = last));
            return self.refuse_http(None, refusal, revision);
        };
        let mut replayed = 0;
        for (seq, data) in stream.sent.iter().filter(|(seq, _)| *seq > after) {
            resp.body.push_str(&http::sse_event(
                Some(&streams::event_id(stream.number, *seq)),
                data,
            ));
            replayed += 1;
        }
        let note = if stream.done {
            crate::note!("server.get_last_event_id_2", "GET with Last-Event-ID {last} resumes the stream: the {replayed} event(s) after it are sent again, ending with the response; the stream is complete.", last = last, replayed = replayed)
        } else {
            resp.stream = Some(streams::stream_key(id, stream.number));
            crate::note!("server.get_last_event_id", "GET with Last-Event-ID {last} resumes the stream: the {replayed} event(s) after it are sent again, and the stream stays open for the rest.", last = last, replayed = replayed)
        };
        HttpReply::new(resp, rules, note, revision)
    }

    /// Gives every message for a legacy HTTP session that no stream carries
    /// yet the session's standalone stream, if it is open (H-SSE-RESUME).
    pub(super) fn place_events(&mut self) {
        let mut outbox = std::mem::take(&mut self.outbox);
        for out in outbox.iter_mut() {
            let (Some(session), None, OutputKind::Send { message, .. }) =
                (out.conn.session_id(), &out.event, &out.kind)
            else {
                continue;
            };
            let Some(s) = self.sessions.get_mut(&out.conn) else {
                continue;
            };
            if !s.streams.has_standalone() {
                continue;
            }
            out.event = s.streams.record(0, message, false).map(|id| SseEvent {
                stream: streams::stream_key(session, 0),
                id: Some(id),
                closes: false,
            });
        }
        self.outbox = outbox;
    }
}

/// Takes the messages the server queued for `conn` while handling the
/// current request (progress, log messages: they travel before its response).
impl Server {
    pub(super) fn take_sends(&mut self, conn: &ConnId) -> (Vec<Value>, Vec<RuleId>, Note) {
        let mut sends = Vec::new();
        let mut rules = Vec::new();
        let mut note = Note::default();
        let mut rest = VecDeque::new();
        while let Some(out) = self.outbox.pop_front() {
            match &out.kind {
                OutputKind::Send { message, .. }
                    if out.conn == *conn && message.get("id").is_none() =>
                {
                    sends.push(message.clone());
                    for rule in &out.rules {
                        if !rules.contains(rule) {
                            rules.push(*rule);
                        }
                    }
                    if note.is_empty() {
                        note = out.note.clone();
                        note.trim_end_period();
                    }
                }
                _ => rest.push_back(out),
            }
        }
        self.outbox = rest;
        (sends, rules, note)
    }

    /// The response of a `subscriptions/listen` POST: an SSE stream that
    /// stays open, its acknowledgement first (M-LISTEN-ACK).
    pub(super) fn listen_response(&mut self, key: String) -> HttpReply {
        let (body, mut rules) = self.stream_body(&key);
        rules.insert(0, rules::H_STATUS);
        let mut resp = HttpResponse::event_stream(body);
        resp.stream = Some(key.clone());
        let note = crate::note!("server.subscriptions_listen_response_sse", "subscriptions/listen: the response is an SSE stream that stays open ({key}); the acknowledgement is its first event, and later notifications follow on it until the client closes it.", key = key);
        HttpReply::new(resp, rules, note, ProtocolVersion::modern())
    }
}

impl Server {
    /// Takes the messages queued for stream `key` out of the outbox: they
    /// are the first events of the response that opens it, its body.
    pub(super) fn stream_body(&mut self, key: &str) -> (String, Vec<RuleId>) {
        let mut body = String::new();
        let mut rules = Vec::new();
        let mut rest = VecDeque::new();
        while let Some(out) = self.outbox.pop_front() {
            match (&out.kind, &out.event) {
                (OutputKind::Send { message, .. }, Some(event)) if event.stream == key => {
                    body.push_str(&event.frame(&message.to_string()));
                    rules.extend(out.rules.iter().copied());
                }
                _ => rest.push_back(out),
            }
        }
        self.outbox = rest;
        (body, rules)
    }

    /// Takes every message queued for `conn` that no stream carries, as
    /// events without ids.
    pub(super) fn take_untagged_sends(&mut self, conn: &ConnId) -> (String, Vec<RuleId>) {
        let mut body = String::new();
        let mut rules = Vec::new();
        let mut rest = VecDeque::new();
        while let Some(out) = self.outbox.pop_front() {
            match &out.kind {
                OutputKind::Send { message, .. } if out.conn == *conn && out.event.is_none() => {
                    body.push_str(&http::sse_event(None, &message.to_string()));
                    rules.extend(out.rules.iter().copied());
                }
                _ => rest.push_back(out),
            }
        }
        self.outbox = rest;
        (body, rules)
    }
}

/// A message to a listen stream travels on it as an event without an id
/// (M-LISTEN-TAG: the subscription id is in the message itself).
pub(super) fn listen_event(conn: &ConnId, kind: &OutputKind) -> Option<SseEvent> {
    match (conn, kind) {
        (ConnId::HttpStream(key), OutputKind::Send { .. }) => Some(SseEvent {
            stream: key.clone(),
            id: None,
            closes: false,
        }),
        _ => None,
    }
}

/// Loopback host names only (the `Host` header, port ignored).
pub(super) fn host_allowed(host: &str) -> bool {
    let name = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']')
            .next()
            .map(|h| format!("[{h}]"))
            .unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or("").to_string()
    };
    matches!(
        name.to_ascii_lowercase().as_str(),
        "localhost" | "127.0.0.1" | "[::1]"
    )
}

/// Loopback origins only. `null` (sandboxed iframes, file pages) is refused:
/// any website can produce it, which would defeat the DNS-rebinding guard.
pub(super) fn origin_allowed(origin: &str) -> bool {
    let Some(rest) = origin.split_once("://").map(|(_, r)| r) else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']')
            .next()
            .map(|h| format!("[{h}]"))
            .unwrap_or_default()
    } else {
        authority.split(':').next().unwrap_or("").to_string()
    };
    matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
}
