//! Modern flows (2026-07-28): the era probe, server/discover, `_meta` on
//! every request, MRTR round trips, and the version and capability retries.

use serde_json::{json, Map, Value};

use super::{Answer, Client, Input, Job, Purpose, Step, Waiting};
use crate::note::Note;
use crate::protocol::jsonrpc::{self, ErrorCode, ErrorObject};
use crate::protocol::version::{pick_mutual, EraMode};
use crate::protocol::{meta, methods, ClientCapabilities, Era, ProtocolVersion, ResultType};
use crate::rules::{self, RuleId};
use crate::sim::{EventKind, SimTime};
use crate::transport::TransportKind;

/// What an answered elicitation form is called in notes.
pub(super) const FORM: &str = "the form";
/// What an answered sampling request is called in notes.
pub(super) const SAMPLED: &str = "a sampled reply";
/// What an answered roots request is called in notes.
pub(super) const ROOTS: &str = "the roots";

/// The most MRTR rounds one request goes through (C-MRTR-ROUNDS).
pub const MAX_MRTR_ROUNDS: u8 = 8;
/// The most times one request is retried for its version (C-VERSION-RETRY-ONCE).
pub const MAX_VERSION_RETRIES: u8 = 3;

/// The roots a client with the `roots` capability reports (MRTR roots/list).
pub const ROOTS_LIST: &[(&str, &str)] = &[("file:///workspace", "workspace")];

/// Whether a -32022 naming `supported` lets a request that named `current`
/// and was retried `retries` times for its version be retried with `pick`
/// (M-VERSION-RETRY, C-VERSION-RETRY-ONCE): a different version once or
/// more, the very same one only on the first refusal.
fn may_retry_version(pick: &ProtocolVersion, current: &ProtocolVersion, retries: u8) -> bool {
    retries < MAX_VERSION_RETRIES && (pick != current || retries == 0)
}

impl Client {
    pub(super) fn preferred_modern(&self) -> ProtocolVersion {
        self.config
            .modern_versions
            .first()
            .map_or_else(ProtocolVersion::modern, |v| {
                ProtocolVersion::new(v.as_str())
            })
    }

    /// The version for the next modern request: a mutual one if the server
    /// told us its list, else our preferred one.
    pub(super) fn chosen_version(&self) -> ProtocolVersion {
        if let Some(cached) = &self.known.discover {
            if let Some(v) = pick_mutual(&self.config.modern_versions, &cached.supported) {
                return v;
            }
        }
        self.preferred_modern()
    }

    pub(super) fn meta(&self, version: &ProtocolVersion, declare: &ClientCapabilities) -> Value {
        json!({
            meta::PROTOCOL_VERSION: version,
            meta::CLIENT_CAPABILITIES: declare.to_json(),
            meta::CLIENT_INFO: self.config.info.to_json(),
        })
    }

    pub(super) fn send_probe(&mut self, now: SimTime, version: ProtocolVersion) {
        let id = self.fresh_id();
        let msg = jsonrpc::request(
            &id,
            methods::DISCOVER,
            json!({"_meta": self.meta(&version, &self.config.capabilities.clone())}),
        );
        let (rules, note, deadline): (&[RuleId], Note, Option<SimTime>) = match self.transport {
            TransportKind::Stdio => (&[rules::E_PROBE_STDIO], crate::note!("client.modern.dual_era_client_probes", "The dual-era client probes with server/discover naming {version}: a DiscoverResult or a modern error means modern; any other error or {probe_timeout_ms} s of silence means legacy.", version = version, probe_timeout_ms = self.config.probe_timeout_ms / 1000),
                Some(now.plus_millis(self.config.probe_timeout_ms))),
            TransportKind::Http => (&[rules::E_PROBE_HTTP], crate::note!("client.modern.dual_era_client_tries", "The dual-era client tries a modern request (server/discover, {version}); on 400/404/405 it will read the body to decide the era.", version = version), self.deadline(now)),
        };
        self.emit(
            msg,
            Era::Modern,
            Some(Purpose::Probe { version }),
            deadline,
            rules,
            note,
        );
    }

    pub(super) fn send_discover(&mut self, now: SimTime, version: ProtocolVersion, is_step: bool) {
        let id = self.fresh_id();
        let declare = self
            .work
            .job
            .as_ref()
            .and_then(|j| j.declare.clone())
            .unwrap_or_else(|| self.config.capabilities.clone());
        let msg = jsonrpc::request(
            &id,
            methods::DISCOVER,
            json!({"_meta": self.meta(&version, &declare)}),
        );
        let note = if is_step {
            crate::note!("client.modern.client_asks_server_describe", "The client asks the server to describe itself: server/discover naming {version}. Calling it is optional for clients.", version = version)
        } else {
            crate::note!("client.modern.discover_first_one_round", "Discover first: one round trip for versions, capabilities and cache hints ({version}).", version = version)
        };
        let deadline = self.deadline(now);
        self.emit(
            msg,
            Era::Modern,
            Some(Purpose::Discover { version, is_step }),
            deadline,
            &[rules::M_DISCOVER, rules::M_META_REQUIRED],
            note,
        );
    }

    pub(super) fn on_probe_answer(
        &mut self,
        now: SimTime,
        version: ProtocolVersion,
        answer: Answer,
    ) {
        let probe_rule = if self.transport == TransportKind::Http {
            rules::E_PROBE_HTTP
        } else {
            rules::E_PROBE_STDIO
        };
        match answer {
            Answer::Result(result) => {
                self.known.era = Some(Era::Modern);
                self.decide(&[probe_rule, rules::E_CACHE], crate::note!("client.modern.discoverresult_server_modern_era", "A DiscoverResult: the server is modern. The era is a property of the server, so the client caches it."));
                self.cache_discover(now, &result);
                self.mark_discovered();
                self.advance(now);
            }
            Answer::Error(err) if err.code.is_recognized_modern() => {
                self.known.era = Some(Era::Modern);
                if err.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION {
                    let supported = supported_list(&err);
                    match pick_mutual(&self.config.modern_versions, &supported) {
                        Some(v) if v != version => {
                            self.decide(&[probe_rule, rules::M_VERSION_RETRY], crate::note!("client.modern.32022_modern_error_server", "-32022 is a modern error, so the server is modern: no fallback. The client retries the probe with {v}, a version both support.", v = v));
                            self.send_probe(now, v);
                        }
                        _ => self.abandon(now, &[probe_rule, rules::M_VERSION_RETRY], crate::note!("client.modern.server_modern_but_shares", "The server is modern but shares no version with this client: the client tells the user.")),
                    }
                } else {
                    self.decide(
                        &[probe_rule],
                        crate::note!(
                            "client.modern.recognized_modern_error_server",
                            "{code} is a recognized modern error: the server is modern.",
                            code = err.code
                        ),
                    );
                    self.advance(now);
                }
            }
            Answer::Error(err) => {
                self.decide(&[probe_rule, rules::E_CACHE], crate::note!("client.modern.not_modern_error_server", "{code} {message} is not a modern error, so the server is legacy: fall back to initialize (never keyed to one specific code).", code = err.code, message = err.message));
                self.known.era = Some(Era::Legacy);
                self.advance(now);
            }
        }
    }

    pub(super) fn on_unreadable_http(&mut self, now: SimTime, w: Waiting, status: u16) {
        match w.purpose {
            Purpose::Probe { .. } => {
                self.decide(&[rules::E_PROBE_HTTP, rules::E_CACHE], crate::note!("client.modern.http_empty_or_unrecognized", "HTTP {status} with an empty or unrecognized body: the server is legacy, fall back to initialize.", status = status));
                self.known.era = Some(Era::Legacy);
                self.advance(now);
            }
            _ => self.abandon(
                now,
                &[rules::H_STATUS],
                crate::note!(
                    "client.modern.http_without_json_rpc",
                    "HTTP {status} without a JSON-RPC body: the request failed.",
                    status = status
                ),
            ),
        }
    }

    pub(super) fn on_discover_answer(
        &mut self,
        now: SimTime,
        version: ProtocolVersion,
        is_step: bool,
        answer: Answer,
    ) {
        match answer {
            Answer::Result(result) => {
                self.known.worked_modern = true;
                self.cache_discover(now, &result);
                if is_step {
                    self.work.job = None;
                } else {
                    self.mark_discovered();
                }
                self.advance(now);
            }
            Answer::Error(err) if err.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported = supported_list(&err);
                let retries = self.work.job.as_ref().map_or(0, |j| j.version_retries);
                match pick_mutual(&self.config.modern_versions, &supported) {
                    Some(v) if v == version && may_retry_version(&v, &version, retries) => {
                        self.decide(&[rules::M_VERSION_RETRY, rules::C_VERSION_RETRY_ONCE, rules::RPC_ID], crate::note!("client.modern.32022_lists_which_includes_2", "-32022 lists {join}, which includes {v}, the very version this request named. It is a mutually supported version, so the client retries once with it and a new id; a second refusal ends the request.", join = supported.join(", "), v = v));
                        if let Some(job) = self.work.job.as_mut() { job.version = Some(v.clone()); job.version_retries += 1; }
                        self.send_discover(now, v, is_step);
                    }
                    Some(v) if may_retry_version(&v, &version, retries) => {
                        self.decide(&[rules::M_VERSION_RETRY, rules::RPC_ID], crate::note!("client.modern.32022_lists_client_picks", "-32022 lists {join}; the client picks {v}, which it supports too, and retries with a new id.", join = supported.join(", "), v = v));
                        if let Some(job) = self.work.job.as_mut() { job.version = Some(v.clone()); job.version_retries += 1; }
                        self.send_discover(now, v, is_step);
                    }
                    _ => self.abandon(now, &[rules::M_VERSION_RETRY], crate::note!("client.modern.no_version_data_supported", "No version in data.supported is one this client speaks: it tells the user.")),
                }
            }
            Answer::Error(err) => {
                if self.config.era == EraMode::ModernOnly && !err.code.is_recognized_modern() {
                    self.abandon(now, &[rules::E_MATRIX], crate::note!("client.modern.server_discover_server_not", "{code} to server/discover: the server is not modern, and a modern-only client cannot fall back. It fails deterministically and tells the user.", code = err.code));
                } else {
                    self.abandon(
                        now,
                        &[rules::M_DISCOVER],
                        crate::note!(
                            "client.modern.server_discover_failed",
                            "server/discover failed with {code}.",
                            code = err.code
                        ),
                    );
                }
            }
        }
    }

    pub(super) fn on_job_answer(&mut self, now: SimTime, era: Era, answer: Answer) {
        let Some(mut job) = self.work.job.clone() else {
            return;
        };
        // A hand-written message is sent once, exactly as written: an
        // answer that would make the client send its request again (a
        // version or capability retry, an input round) ends it instead.
        if let Step::Raw { .. } = job.step {
            let again = match &answer {
                Answer::Error(err) => {
                    err.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION
                        || err.code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
                }
                Answer::Result(result) => {
                    ResultType::of(result) == Some(ResultType::INPUT_REQUIRED)
                }
            };
            if again {
                self.abandon(
                    now,
                    &[],
                    crate::note!(
                        "client.modern.raw_not_again",
                        "A hand-written request is sent once, as written: the client does not send it again."
                    ),
                );
                return;
            }
        }
        match answer {
            Answer::Result(result) => {
                match ResultType::of(&result) {
                    Some(kind) if kind == ResultType::INPUT_REQUIRED => {
                        let round = job.input.as_ref().map_or(1, |i| i.round.saturating_add(1));
                        if round > MAX_MRTR_ROUNDS {
                            self.abandon(now, &[rules::M_MRTR, rules::C_MRTR_ROUNDS], crate::note!("client.modern.input_required_th_time", "input_required for the {round}th time: after {MAX_MRTR_ROUNDS} rounds the client stops retrying and tells the user the request did not complete.", round = round, MAX_MRTR_ROUNDS = MAX_MRTR_ROUNDS));
                            return;
                        }
                        let input = match self.answer_input_requests(&result, round) {
                            Ok(input) => input,
                            Err((rules, why)) => {
                                self.abandon(now, &rules, why);
                                return;
                            }
                        };
                        let note = if round == 1 && input.kinds == [FORM] && input.state.is_some() {
                            // The lessons' wording (golden transcripts).
                            crate::note!("client.modern.input_required_client_shows", "input_required: the client shows the form to the user and collects the answer.")
                        } else {
                            let asked = if input.kinds.is_empty() { crate::note!("client.modern.nothing_answer", "nothing to answer") } else { Note::from(input.kinds.join(", ")) };
                            let state = if input.state.is_some() { crate::note!("client.modern.requeststate_echo", "a requestState to echo") } else { crate::note!("client.modern.no_requeststate", "no requestState") };
                            crate::note!("client.modern.input_required_round_client", "input_required (round {round}): {asked}, and {state}. The client gathers the answers and retries.", round = round, asked = asked, state = state)
                        };
                        let rules: &[RuleId] = if round == 1 && input.kinds == [FORM] && input.state.is_some() {
                            &[rules::M_MRTR]
                        } else {
                            &[rules::M_MRTR, rules::C_MRTR_ROUNDS]
                        };
                        job.input = Some(input);
                        self.work.job = Some(job);
                        self.decide(rules, note);
                        self.send_job(now);
                    }
                    Some(kind) if kind != ResultType::COMPLETE => self.abandon(now, &[rules::M_RESULT_TYPE], crate::note!("client.modern.resulttype_unknown_client_result", "resultType \"{kind}\" is unknown to this client, so the result is invalid.", kind = kind)),
                    kind => {
                        if era == Era::Modern {
                            self.known.worked_modern = true;
                        }
                        if kind.is_none() && era == Era::Modern {
                            self.decide(&[rules::M_RESULT_TYPE], crate::note!("client.modern.no_resulttype_treated_complete", "No resultType: treated as complete, as for an older server."));
                        }
                        if result.get("isError") == Some(&Value::Bool(true)) {
                            self.decide(&[rules::M_TOOL_ERROR], crate::note!("client.modern.tool_error_model_reads", "A tool error: the model reads it and can re-call with what it names."));
                        }
                        if let Step::Request { method, params, .. } = &job.step {
                            let next_page = params.get("cursor").is_some();
                            self.remember_list(method, &result, next_page);
                            self.on_skill_file(method, params, &result);
                        }
                        if self.follow_cursor(now, &mut job, &result) {
                            return;
                        }
                        self.work.job = None;
                        self.advance(now);
                    }
                }
            }
            Answer::Error(err) => self.on_job_error(now, era, job, err),
        }
    }

    /// For a step that follows cursors (M-PAGINATION): asks for the next
    /// page when `result` has a `nextCursor`, and says so. `false`: the
    /// step is done.
    fn follow_cursor(&mut self, now: SimTime, job: &mut Job, result: &Value) -> bool {
        let Step::Request {
            method,
            params,
            follow_cursor: true,
            ..
        } = &mut job.step
        else {
            return false;
        };
        let Some(cursor) = result.get("nextCursor").and_then(Value::as_str) else {
            return false;
        };
        let method = method.clone();
        params["cursor"] = json!(cursor);
        job.input = None;
        job.version_retries = 0;
        self.work.job = Some(job.clone());
        self.decide(&[rules::M_PAGINATION, rules::RPC_ID], crate::note!("client.modern.next_page", "The result ends with a nextCursor: more of the list follows. The client asks for the next page, {method} with that cursor exactly as it came and a new id.", method = method));
        self.send_job(now);
        true
    }

    pub(super) fn on_job_error(&mut self, now: SimTime, era: Era, mut job: Job, err: ErrorObject) {
        let retry = matches!(
            job.step,
            Step::Request {
                retry_on_missing_capability: true,
                follow_cursor: false,
                background: false,
                ..
            }
        );
        match err.code {
            ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
                let cached_era_failed = self.config.era == EraMode::DualEra
                    && (self.known.worked_modern
                        || era == Era::Legacy
                        || self.known.session.is_some())
                    && !job.reprobed;
                if cached_era_failed {
                    job.reprobed = true;
                    job.version = None;
                    self.work.job = Some(job);
                    self.known.era = None;
                    self.known.discover = None;
                    self.known.session = None;
                    self.record(EventKind::CacheExpired { key: "era".into() }, &[rules::E_CACHE],
                        crate::note!("client.modern.call_used_work_now", "A call that used to work now returns a version error: the server was upgraded underneath. The cached era is dropped and the client probes again."));
                    self.send_probe(now, self.preferred_modern());
                    return;
                }
                let supported = supported_list(&err);
                let current = job.version.clone().unwrap_or_else(|| self.chosen_version());
                match pick_mutual(&self.config.modern_versions, &supported) {
                    Some(v) if v == current && may_retry_version(&v, &current, job.version_retries) => {
                        self.decide(&[rules::M_VERSION_RETRY, rules::C_VERSION_RETRY_ONCE, rules::RPC_ID], crate::note!("client.modern.32022_lists_which_includes", "-32022 lists {join}, which includes {v}, the very version this request named. It is a mutually supported version, so the client retries the same request once with it and a new id; a second refusal ends the request.", join = supported.join(", "), v = v));
                        job.version = Some(v);
                        job.version_retries += 1;
                        self.work.job = Some(job);
                        self.send_job(now);
                    }
                    Some(v) if may_retry_version(&v, &current, job.version_retries) => {
                        self.decide(&[rules::M_VERSION_RETRY, rules::RPC_ID], crate::note!("client.modern.32022_server_supports_client", "-32022: the server supports {join}; the client picks {v} and retries the same request with a new id.", join = supported.join(", "), v = v));
                        job.version = Some(v);
                        job.version_retries += 1;
                        self.work.job = Some(job);
                        self.send_job(now);
                    }
                    _ => self.abandon(now, &[rules::M_VERSION_RETRY], crate::note!("client.modern.no_mutually_supported_version", "No mutually supported version: the client tells the user instead of retrying.")),
                }
            }
            ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY => {
                let required: ClientCapabilities = err
                    .data
                    .as_ref()
                    .and_then(|d| d.get("requiredCapabilities"))
                    .map(ClientCapabilities::from_json)
                    .unwrap_or_default();
                let declared = job
                    .declare
                    .clone()
                    .unwrap_or_else(|| self.config.capabilities.clone());
                let names = required.names().join(", ");
                if retry
                    && self.config.capabilities.covers(&required)
                    && !declared.covers(&required)
                {
                    let mut declare = declared;
                    merge_caps(&mut declare, &required, &self.config.capabilities);
                    job.declare = Some(declare);
                    self.work.job = Some(job);
                    self.decide(&[rules::M_CAP_REQUIRED, rules::RPC_ID], crate::note!("client.modern.32021_names_client_has", "-32021 names {names}. This client has it, so it retries the call declaring {names} on that request, with a new id.", names = names));
                    self.send_job(now);
                } else if !self.config.capabilities.covers(&required) {
                    self.abandon(now, &[rules::M_CAP_REQUIRED], crate::note!("client.modern.32021_names_which_client", "-32021 names {names}, which this client does not have: it tells the user this tool needs a feature the app lacks.", names = names));
                } else {
                    self.abandon(now, &[rules::M_CAP_REQUIRED, rules::M_STATELESS], crate::note!("client.modern.32021_again_was_not", "-32021 again: {names} was not declared on this request, and the server never remembers an earlier declaration.", names = names));
                }
            }
            ErrorCode::HEADER_MISMATCH => self.abandon(
                now,
                &[rules::H_HEADERS],
                crate::note!(
                    "client.modern.32020_headers_disagreed_body",
                    "-32020: the headers disagreed with the body; the client must fix its request."
                ),
            ),
            code => {
                let rules: Vec<RuleId> = match code {
                    ErrorCode::METHOD_NOT_FOUND => vec![rules::M_UNKNOWN_METHOD],
                    ErrorCode::INVALID_PARAMS if err.message.starts_with("Unknown tool") => {
                        vec![rules::M_UNKNOWN_TOOL]
                    }
                    ErrorCode::INVALID_PARAMS if err.message == "Invalid cursor" => {
                        vec![rules::M_PAGINATION]
                    }
                    ErrorCode::INVALID_PARAMS if err.message.starts_with("Invalid arguments") => {
                        vec![rules::L_TOOL_INPUT]
                    }
                    ErrorCode::INVALID_PARAMS if err.message.contains("_meta") => {
                        vec![rules::M_META_REQUIRED]
                    }
                    _ => vec![rules::RPC_CODES],
                };
                self.abandon(
                    now,
                    &rules,
                    crate::note!(
                        "client.modern.request_failed",
                        "The request failed with {code}: {message}.",
                        code = code,
                        message = err.message
                    ),
                )
            }
        }
    }

    /// Builds the retry of an input_required result (C-MRTR-ROUNDS): an
    /// answer to every input request, as the user (a form filled with
    /// sensible values), the host's model (a sampled reply) or the host
    /// (its roots) would give it, each only with the capability for it;
    /// and `requestState` exactly as it came, or none.
    pub(super) fn answer_input_requests(
        &self,
        result: &Value,
        round: u8,
    ) -> Result<Input, (Vec<RuleId>, Note)> {
        let refuse = |why: Note| (vec![rules::M_MRTR, rules::C_MRTR_ROUNDS], why);
        let state = match result.get("requestState") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(refuse(crate::note!("client.modern.requeststate_not_string_result", "requestState is {other}, not a string: the result is invalid and the client cannot echo it.", other = other)))
            }
        };
        let requests = match result.get("inputRequests") {
            None | Some(Value::Null) => None,
            Some(Value::Object(map)) => Some(map),
            Some(other) => {
                return Err(refuse(crate::note!(
                    "client.modern.inputrequests_not_object_client",
                    "inputRequests is {other}, not an object: the client cannot answer it.",
                    other = other
                )))
            }
        };
        if requests.is_none() && state.is_none() {
            return Err(refuse(
                crate::note!("client.modern.input_required_neither_inputrequests", "input_required with neither inputRequests nor requestState: there is nothing to retry with."),
            ));
        }
        let mut kinds = Vec::new();
        let responses = match requests {
            None => None,
            Some(requests) => {
                let mut responses = Map::new();
                for (key, request) in requests {
                    let method = request.get("method").and_then(Value::as_str).unwrap_or("");
                    let params = request.get("params");
                    let (answer, kind) = self
                        .answer_one(key, method, params)
                        .map_err(|why| (vec![rules::M_MRTR, rules::M_MRTR_CAP], why))?;
                    responses.insert(key.clone(), answer);
                    if !kinds.contains(&kind) {
                        kinds.push(kind);
                    }
                }
                Some(Value::Object(responses))
            }
        };
        Ok(Input {
            responses,
            state,
            round,
            kinds,
        })
    }

    /// The answer to one input request, or why the client cannot give it
    /// (also how a legacy session answers a server's sampling or roots
    /// request, `legacy.rs`).
    pub(super) fn answer_one(
        &self,
        key: &str,
        method: &str,
        params: Option<&Value>,
    ) -> Result<(Value, &'static str), Note> {
        let caps = &self.config.capabilities;
        match method {
            methods::ELICITATION_CREATE => {
                let Some(elicitation) = &caps.elicitation else {
                    return Err(crate::note!("client.modern.server_asked_elicitation_but", "The server asked ({key}) for an elicitation, but this client has no elicitation capability: it cannot answer.", key = key));
                };
                let url_mode = params.and_then(|p| p.get("mode")).and_then(Value::as_str) == Some("url");
                if url_mode {
                    if !elicitation.supports_url() {
                        return Err(crate::note!("client.modern.server_asked_url_mode", "The server asked ({key}) for a URL-mode elicitation, which this client never declared: it cannot answer.", key = key));
                    }
                    return Ok((json!({"action": "accept"}), "a visited URL"));
                }
                Ok((
                    crate::protocol::elicitation::accept_with_defaults(
                        params.and_then(|p| p.get("requestedSchema")),
                    ),
                    FORM,
                ))
            }
            methods::SAMPLING_CREATE_MESSAGE => {
                if caps.sampling.is_none() {
                    return Err(crate::note!("client.modern.server_asked_sampled_message", "The server asked ({key}) for a sampled message, but this client has no sampling capability: it cannot answer.", key = key));
                }
                Ok((
                    json!({
                        "role": "assistant",
                        "content": {"type": "text", "text": "Paris."},
                        "model": "simulated-model",
                        "stopReason": "endTurn",
                    }),
                    SAMPLED,
                ))
            }
            methods::ROOTS_LIST => {
                if caps.roots.is_none() {
                    return Err(crate::note!("client.modern.server_asked_client_s", "The server asked ({key}) for the client's roots, but this client has no roots capability: it cannot answer.", key = key));
                }
                let roots: Vec<Value> = ROOTS_LIST
                    .iter()
                    .map(|(uri, name)| json!({"uri": uri, "name": name}))
                    .collect();
                Ok((json!({"roots": roots}), ROOTS))
            }
            other => Err(crate::note!("client.modern.server_asked_which_not", "The server asked ({key}) for {other_fmt}, which is not an input request this client knows (elicitation/create, sampling/createMessage, roots/list).", key = key, other_fmt = format!("{:?}", other))),
        }
    }
}

pub(super) fn supported_list(err: &ErrorObject) -> Vec<String> {
    err.data
        .as_ref()
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Adds to `declare` the parts of `required` the client has.
pub(super) fn merge_caps(
    declare: &mut ClientCapabilities,
    required: &ClientCapabilities,
    have: &ClientCapabilities,
) {
    if required.elicitation.is_some() {
        declare.elicitation = have.elicitation.clone();
    }
    if required.sampling.is_some() {
        declare.sampling = have.sampling.clone();
    }
    if required.roots.is_some() {
        declare.roots = have.roots.clone();
    }
    if required.extensions.is_some() {
        declare.extensions = have.extensions.clone();
    }
}
