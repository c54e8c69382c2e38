//! Scheduling: working through the script one step at a time, sending each
//! step's request in the current era, and routing what comes back to the
//! flow that is waiting for it.

use serde_json::{json, Value};

use super::timers::Timer;
use super::{Client, ClientAction, ClientOutput, Job, Purpose, Step, TransportFailure, Waiting};
use crate::note::Note;
use crate::protocol::jsonrpc::{self, Envelope, ErrorObject, RequestId};
use crate::protocol::{Era, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::sim::{EventKind, Side, SimTime};
use crate::transport::http::{self, HttpRequest};
use crate::transport::{sse, TransportKind};

/// The largest SSE event the client reads from a response stream, in bytes.
pub const MAX_EVENT_BYTES: usize = 4 * 1024 * 1024;

/// How many of the ids it sent the client remembers, to tell a
/// hand-written message that reuses one (RPC-ID).
pub const MAX_USED_IDS: usize = 4096;

/// A message to emit, with HTTP headers to send after the computed ones
/// (the `Mcp-Param-*` headers of a tool call, C-PARAM-HEADERS).
pub(super) struct Outgoing {
    /// The JSON-RPC message.
    pub(super) message: Value,
    /// More HTTP headers (none for most messages).
    pub(super) extra_headers: Vec<(String, String)>,
}

impl From<Value> for Outgoing {
    fn from(message: Value) -> Outgoing {
        Outgoing {
            message,
            extra_headers: Vec::new(),
        }
    }
}

impl Client {
    /// Queues an output; it carries the pending narration, if any.
    pub(super) fn output(&mut self, action: ClientAction, rules: &[RuleId], note: Note) {
        let narration = self.work.narration.take();
        self.outbox.push_back(ClientOutput {
            action,
            rules: rules.to_vec(),
            note,
            narration,
        });
    }

    pub(super) fn record(&mut self, kind: EventKind, rules: &[RuleId], note: Note) {
        self.output(ClientAction::Record(kind), rules, note);
    }

    pub(super) fn decide(&mut self, rules: &[RuleId], note: Note) {
        self.record(EventKind::Decision { side: Side::Client }, rules, note);
    }

    pub(super) fn close(&mut self, rules: &[RuleId], note: Note) {
        let narration = self.work.narration.take();
        self.shut_down();
        self.work.narration = narration;
        self.output(ClientAction::Close, rules, note);
    }

    /// The next id of the client's counter, skipping any a hand-written
    /// message already used (RPC-ID).
    pub(super) fn fresh_id(&mut self) -> RequestId {
        let mut id = RequestId::Number(self.next_id);
        self.next_id += 1;
        while self.used_ids.contains(&id) {
            id = RequestId::Number(self.next_id);
            self.next_id += 1;
        }
        self.remember_id(&id);
        id
    }

    /// Notes an id the client sent, keeping at most [`MAX_USED_IDS`].
    pub(super) fn remember_id(&mut self, id: &RequestId) {
        if self.used_ids.len() >= MAX_USED_IDS {
            self.used_ids.remove(0);
        }
        self.used_ids.push(id.clone());
    }

    /// Gives up on the current step and moves on.
    pub(super) fn abandon(&mut self, now: SimTime, rules: &[RuleId], note: Note) {
        self.decide(rules, note);
        if let Some(job) = self.work.job.take() {
            self.skill_read_lost(&job.step);
        }
        self.advance(now);
    }

    /// Starts whatever comes next, unless the client is busy.
    pub(super) fn advance(&mut self, now: SimTime) {
        if self.work.waiting.is_some() || self.timers.is_armed(Timer::Sleep) {
            return;
        }
        if self.work.job.is_none() {
            // Narration is read at once: it waits for the next event.
            while let Some(Step::Narrate { text }) = self.work.script.front() {
                let text = text.clone();
                self.work.script.pop_front();
                self.work.narration = Some(match self.work.narration.take() {
                    Some(earlier) => format!("{earlier} {text}"),
                    None => text,
                });
            }
            let Some(step) = self.work.script.pop_front() else {
                // All done: there is no run left for the host to kill.
                self.timers.stop(Timer::HostKill);
                self.cancel_background();
                if self.work.narration.is_some() {
                    self.decide(
                        &[],
                        crate::note!(
                            "client.client_has_done_every",
                            "The client has done every step of its script."
                        ),
                    );
                }
                return;
            };
            let (declare, version) = match &step {
                Step::Request {
                    declare, version, ..
                } => (
                    declare.clone(),
                    version.as_deref().map(ProtocolVersion::new),
                ),
                Step::Discover { version } => (None, version.as_deref().map(ProtocolVersion::new)),
                _ => (None, None),
            };
            self.work.job = Some(Job {
                step,
                declare,
                version,
                input: None,
                version_retries: 0,
                reprobed: false,
                discovered: false,
            });
        }
        let Some(job) = self.work.job.clone() else {
            return;
        };
        match &job.step {
            Step::Wait { ms } => {
                self.timers.set(Timer::Sleep, Some(now.plus_millis(*ms)));
                self.work.job = None;
            }
            Step::Disconnect => {
                self.work.job = None;
                self.close(
                    &[rules::L_UNDECLARED],
                    crate::note!(
                        "client.client_closes_connection",
                        "The client closes the connection."
                    ),
                );
            }
            Step::Raw { .. } => self.send_raw(now, job.step.clone()),
            // Read before the job was made; never a job.
            Step::Narrate { .. } => self.work.job = None,
            Step::CallListed { .. } | Step::EchoSchema { .. } => {
                self.work.job = None;
                self.expand_listed(now, &job.step);
                self.advance(now);
            }
            Step::LoadSkill { uri } => {
                self.work.job = None;
                self.start_skill_load(uri.as_deref());
                self.advance(now);
            }
            Step::Discover { .. } | Step::Request { .. } => {
                if self.ensure_ready(now, &job) {
                    self.send_job(now);
                }
            }
        }
    }

    /// Waits for a reply, until `deadline` if there is one ([`Timer::Response`]).
    pub(super) fn await_reply(&mut self, waiting: Waiting, deadline: Option<SimTime>) {
        self.timers.set(Timer::Response, deadline);
        self.work.waiting = Some(waiting);
        self.work.wait_serial += 1;
    }

    /// Stops waiting for a reply, and its deadline with it.
    pub(super) fn stop_waiting(&mut self) -> Option<Waiting> {
        self.timers.stop(Timer::Response);
        self.work.waiting.take()
    }

    /// The deadline of a request sent at `now`, if requests time out.
    pub(super) fn deadline(&self, now: SimTime) -> Option<SimTime> {
        self.config.request_timeout_ms.map(|t| now.plus_millis(t))
    }

    /// Emits a message (a [`Value`], or an [`Outgoing`] with more HTTP
    /// headers) and starts waiting if it is a request.
    pub(super) fn emit(
        &mut self,
        message: impl Into<Outgoing>,
        era: Era,
        purpose: Option<Purpose>,
        deadline: Option<SimTime>,
        rules: &[RuleId],
        note: Note,
    ) {
        let Outgoing {
            message,
            extra_headers,
        } = message.into();
        let revision = match era {
            Era::Modern => ProtocolVersion::modern(),
            Era::Legacy => match &self.known.session {
                Some(session) => session.version.clone(),
                None => ProtocolVersion::legacy_default(&self.config.legacy_versions),
            },
        };
        let text = message.to_string();
        let http = (self.transport == TransportKind::Http).then(|| {
            let headers = match era {
                Era::Modern => http::modern_headers(&message),
                Era::Legacy => http::legacy_headers(
                    self.known.session.as_ref().map(|s| s.version.as_str()),
                    self.known
                        .session
                        .as_ref()
                        .and_then(|s| s.http_session.as_deref()),
                ),
            };
            let mut headers = headers;
            headers.extend(extra_headers);
            if let Some(bearer) = self.config.identity.as_ref().and_then(|i| i.bearer()) {
                headers.push(("Authorization".into(), bearer));
            }
            HttpRequest::post(headers, text.clone())
        });
        let id = message.get("id").and_then(RequestId::from_json);
        if let Some(purpose) = purpose {
            self.await_reply(Waiting { id, purpose, era }, deadline);
        }
        self.output(
            ClientAction::Send {
                text,
                http,
                revision,
                violation: None,
            },
            rules,
            note,
        );
    }

    /// Sends a scenario's hand-written message exactly as written.
    pub(super) fn send_raw(&mut self, now: SimTime, step: Step) {
        let Step::Raw {
            text,
            headers,
            violation,
            note,
            rules: rule_ids,
        } = step
        else {
            return;
        };
        let parsed: Option<Value> = serde_json::from_str(&text).ok();
        let id = parsed
            .as_ref()
            .and_then(|v| v.get("id"))
            .and_then(RequestId::from_json);
        // What a server answers: a request (even one whose id is null or
        // of the wrong type: it gets -32600), text that is not JSON
        // (-32700) or JSON that is no message at all (-32600). Only a
        // notification or a response gets nothing back (RPC-NOTIFY), so
        // the step ends as soon as it is sent.
        let is_request = match parsed.as_ref().and_then(Value::as_object) {
            None => true,
            Some(obj) => {
                let method = obj.contains_key("method");
                let response = obj.contains_key("result") || obj.contains_key("error");
                if method {
                    obj.contains_key("id")
                } else {
                    !response
                }
            }
        };
        let mut violation = violation;
        let mut rule_ids = rule_ids;
        if let Some(id) = &id {
            if self.used_ids.contains(id) {
                violation.get_or_insert_with(|| crate::note!("client.raw_reused_id", "id {id} was already used by an earlier request of this client: a request id is never reused", id = id));
                if !rule_ids.iter().any(|r| r == rules::RPC_ID) {
                    rule_ids.push(rules::RPC_ID.to_string());
                }
            } else if parsed.as_ref().is_some_and(|v| v.get("method").is_some()) {
                self.remember_id(id);
            }
        }
        let http = (self.transport == TransportKind::Http).then(|| {
            let headers = headers.unwrap_or_else(|| {
                parsed
                    .as_ref()
                    .map(http::modern_headers)
                    .unwrap_or_default()
            });
            HttpRequest::post(headers, text.clone())
        });
        if is_request {
            let waiting = Waiting {
                id,
                purpose: Purpose::Job,
                era: Era::Modern,
            };
            self.await_reply(waiting, self.deadline(now));
        }
        let rules: Vec<RuleId> = rule_ids
            .iter()
            .filter_map(|id| rules::find(id))
            .map(|r| r.id)
            .collect();
        self.output(
            ClientAction::Send {
                text,
                http,
                revision: ProtocolVersion::modern(),
                violation,
            },
            &rules,
            note,
        );
        if !is_request {
            // Nothing will answer: the step is done, and the next begins.
            self.work.job = None;
            self.advance(now);
        }
    }

    /// Sends the current job's request in the current era.
    pub(super) fn send_job(&mut self, now: SimTime) {
        let Some(job) = self.work.job.clone() else {
            return;
        };
        let era = self.known.era.unwrap_or(Era::Modern);
        if let Step::Discover { .. } = job.step {
            if era == Era::Legacy {
                self.abandon(now, &[rules::E_TERMS], crate::note!("client.server_discover_modern_method", "server/discover is a modern method; this server speaks the legacy era, so the step is skipped."));
                return;
            }
            let version = job.version.clone().unwrap_or_else(|| self.chosen_version());
            self.send_discover(now, version, true);
            return;
        }
        let Step::Request {
            method,
            params,
            background,
            ..
        } = &job.step
        else {
            return;
        };
        let background = *background;
        let purpose = (!background).then_some(Purpose::Job);
        let mut params = params.clone();
        if let Some(input) = &job.input {
            if let Some(responses) = &input.responses {
                params["inputResponses"] = responses.clone();
            }
            if let Some(state) = &input.state {
                params["requestState"] = json!(state);
            }
        }
        let deadline = self.deadline(now);
        match era {
            Era::Modern => {
                // On HTTP a tool call mirrors its designated arguments into
                // Mcp-Param-* headers, and a tool with invalid annotations
                // is never called (C-PARAM-HEADERS, C-PARAM-INVALID).
                let (extra, header_rules, header_note) = match self.param_headers(method, &params) {
                    Ok(found) => found,
                    Err((rule, why)) => {
                        self.abandon(now, &[rule], Note::from(why));
                        return;
                    }
                };
                let id = self.fresh_id();
                let version = job.version.clone().unwrap_or_else(|| self.chosen_version());
                let declare = job
                    .declare
                    .clone()
                    .unwrap_or_else(|| self.config.capabilities.clone());
                let own_meta = params.get("_meta").and_then(Value::as_object).cloned();
                let mut meta = self.meta(&version, &declare);
                // A step's own `_meta` keys travel too; the protocol's win.
                let mut added = Vec::new();
                if let (Some(own_meta), Some(meta)) = (own_meta, meta.as_object_mut()) {
                    for (key, value) in own_meta {
                        if !meta.contains_key(&key) {
                            added.push(key.clone());
                            meta.insert(key, value);
                        }
                    }
                }
                params["_meta"] = meta;
                let caps = declare.names();
                let mut rules = vec![rules::M_META_REQUIRED, rules::M_STATELESS];
                let mut note = match &job.input {
                    Some(input) => {
                        rules.push(rules::M_MRTR);
                        rules.push(rules::RPC_ID);
                        retry_note(method, input)
                    }
                    None => crate::note!(
                        "client.meta_version_capabilities",
                        "{method} with _meta: version {version}, capabilities {join}.",
                        method = method,
                        version = version,
                        join = if caps.is_empty() {
                            crate::note!("client.only_basics", "{} (only the basics)")
                        } else {
                            Note::from(caps.join(", "))
                        }
                    ),
                };
                if let Some(input) = &job.input {
                    if input.round > 1
                        || input.state.is_none()
                        || input.kinds.iter().any(|k| *k != super::modern::FORM)
                    {
                        rules.push(rules::C_MRTR_ROUNDS);
                    }
                }
                if !added.is_empty() {
                    note.push(crate::note!(
                        "client.meta_extras",
                        "The step adds its own _meta: {keys}.",
                        keys = added.join(", ")
                    ));
                }
                for rule in header_rules {
                    if !rules.contains(&rule) {
                        rules.push(rule);
                    }
                }
                if let Some(extra_note) = header_note {
                    note.push(Note::from(extra_note));
                }
                let msg = jsonrpc::request(&id, method, params);
                self.emit(
                    Outgoing {
                        message: msg,
                        extra_headers: extra,
                    },
                    Era::Modern,
                    purpose,
                    deadline,
                    &rules,
                    note,
                );
                if background {
                    self.went_to_background(now, id, method, Era::Modern);
                }
            }
            Era::Legacy => {
                let id = self.fresh_id();
                // A legacy request has no protocol keys in `_meta`; a step's
                // own keys (a progressToken) still travel.
                if let Some(obj) = params.as_object_mut() {
                    let extra = obj.remove("_meta").and_then(|m| match m {
                        Value::Object(mut m) => {
                            for key in [
                                crate::protocol::meta::PROTOCOL_VERSION,
                                crate::protocol::meta::CLIENT_CAPABILITIES,
                                crate::protocol::meta::CLIENT_INFO,
                            ] {
                                m.remove(key);
                            }
                            (!m.is_empty()).then_some(Value::Object(m))
                        }
                        _ => None,
                    });
                    if let Some(extra) = extra {
                        obj.insert("_meta".into(), extra);
                    }
                }
                let params = if params.as_object().is_some_and(|o| o.is_empty()) {
                    Value::Null
                } else {
                    params
                };
                let msg = jsonrpc::request(&id, method, params);
                self.emit(msg, Era::Legacy, purpose, deadline, &[rules::L_CAP_SESSION],
                    crate::note!("client.inside_legacy_session_no", "{method} inside the legacy session: no _meta, the capabilities negotiated at initialize apply.", method = method));
                if background {
                    self.went_to_background(now, id, method, Era::Legacy);
                }
            }
        }
    }
}

/// The note of an MRTR retry (M-MRTR, C-MRTR-ROUNDS).
fn retry_note(method: &str, input: &super::Input) -> Note {
    let single_form = input.kinds.iter().all(|k| *k == super::modern::FORM);
    if input.round == 1 && single_form && input.state.is_some() && input.responses.is_some() {
        // The lessons' wording (golden transcripts).
        return crate::note!("client.client_retries_new_id", "The client retries {method} with a new id, the user's answer in inputResponses and requestState echoed unchanged.", method = method);
    }
    let answers = if input.responses.is_some() {
        crate::note!(
            "client.inputresponses",
            "inputResponses ({join})",
            join = input.kinds.join(", ")
        )
    } else {
        crate::note!(
            "client.no_inputresponses_none_were",
            "no inputResponses (none were asked for)"
        )
    };
    let state = if input.state.is_some() {
        crate::note!(
            "client.requeststate_echoed_exactly",
            "requestState echoed exactly"
        )
    } else {
        crate::note!(
            "client.no_requeststate_since_none",
            "no requestState, since none came"
        )
    };
    crate::note!(
        "client.round_client_retries_new",
        "Round {round}: the client retries {method} with a new id, {answers} and {state}.",
        round = input.round,
        method = method,
        answers = answers,
        state = state
    )
}

/// What came back for a request.
pub(super) enum Answer {
    Result(Value),
    Error(ErrorObject),
}

impl Client {
    pub(super) fn handle_envelope(&mut self, now: SimTime, env: Envelope) {
        match env {
            Envelope::Request { id, method, params } => {
                self.on_server_request(now, id, &method, &params)
            }
            Envelope::Notification { method, .. } => self.on_server_notification(now, &method),
            Envelope::Result { id, result } => {
                self.on_answer(now, Some(id), Answer::Result(result))
            }
            Envelope::Error { id, error } => self.on_answer(now, id, Answer::Error(error)),
        }
    }

    pub(super) fn on_answer(&mut self, now: SimTime, id: Option<RequestId>, answer: Answer) {
        if self.background_answered(id.as_ref()) {
            return;
        }
        if let Some(pos) = id
            .as_ref()
            .and_then(|id| self.relists.iter().position(|r| r == id))
        {
            self.relists.remove(pos);
            let note = if self.config.debounce_ms == 0 {
                crate::note!(
                    "client.one_more_full_tool",
                    "One more full tool list: without a debounce, every notice costs a round trip."
                )
            } else {
                crate::note!(
                    "client.tool_list_refreshed_once",
                    "The tool list is refreshed once for the whole burst of notices."
                )
            };
            self.decide(&[rules::L_LIST_CHANGED], note);
            return;
        }
        let matches = self
            .work
            .waiting
            .as_ref()
            .is_some_and(|w| w.id.is_none() || id.is_none() || w.id == id);
        if !matches {
            self.record(
                EventKind::Dropped {
                    side: Side::Client,
                    what: "a response to nothing pending".into(),
                },
                &[rules::RPC_ID],
                crate::note!(
                    "client.response_matches_no_request",
                    "This response matches no request the client is waiting on."
                ),
            );
            return;
        }
        let Some(w) = self.stop_waiting() else { return };
        match w.purpose.clone() {
            Purpose::Probe { version } => self.on_probe_answer(now, version, answer),
            Purpose::Discover { version, is_step } => {
                self.on_discover_answer(now, version, is_step, answer)
            }
            Purpose::Initialize => self.on_initialize_answer(now, answer),
            Purpose::Job => self.on_job_answer(now, w.era, answer),
        }
    }
}

impl Client {
    /// A whole `text/event-stream` body: each event's data is one message,
    /// handled in order; if the awaited reply is not among them, the stream
    /// ended without it (C-SSE-READ).
    pub(super) fn on_event_stream(&mut self, now: SimTime, body: &str) {
        let serial = self.work.waiting.as_ref().map(|_| self.work.wait_serial);
        let still_waiting = |client: &Client| {
            serial.is_some()
                && client.work.waiting.is_some()
                && serial == Some(client.work.wait_serial)
        };
        match sse::events(body, MAX_EVENT_BYTES) {
            Ok(events) => {
                for event in events {
                    self.handle_text(now, &event.data);
                }
                if still_waiting(self) {
                    self.on_failure(now, &TransportFailure::StreamEnded);
                }
            }
            Err(err) => {
                if still_waiting(self) {
                    self.on_failure(now, &TransportFailure::Garbled(err.to_string()));
                }
            }
        }
    }

    /// No answer will come for the awaited reply: give up on it and go on.
    pub(super) fn on_failure(&mut self, now: SimTime, failure: &TransportFailure) {
        let rule = match failure {
            TransportFailure::StreamEnded => rules::C_SSE_READ,
            _ => rules::C_EXCHANGE_FAILED,
        };
        let Some(waiting) = self.stop_waiting() else {
            self.record(
                EventKind::Dropped {
                    side: Side::Client,
                    what: failure.describe(),
                },
                &[rule],
                crate::note!(
                    "client.message_client_sent_got",
                    "A message the client sent got no answer: {describe}. Nothing waited on it.",
                    describe = failure.describe()
                ),
            );
            return;
        };
        let which = waiting
            .id
            .as_ref()
            .map_or_else(|| "The request".to_string(), |id| format!("Request {id}"));
        if matches!(waiting.purpose, Purpose::Probe { .. }) {
            // No answer is no evidence of an era over HTTP: nothing cached.
            self.known.era = match self.config.era {
                crate::protocol::version::EraMode::DualEra => None,
                _ => self.known.era,
            };
        }
        self.abandon(
            now,
            &[rule],
            crate::note!("client.failed_no_answer_can", "{which} failed: {describe}. No answer can come, so the client gives up on it and goes on.", which = which, describe = failure.describe()),
        );
    }
}
