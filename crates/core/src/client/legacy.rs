//! Legacy flows (2025-11-25 and earlier): the initialize handshake and
//! version check, requests the server sends on its own (declared or not),
//! and list_changed with its debounce.

use serde_json::{json, Value};

use super::timers::Timer;
use super::{Answer, Client, Purpose, UndeclaredPolicy};
use crate::note::Note;
use crate::protocol::jsonrpc::{self, ErrorCode, ErrorObject, RequestId};
use crate::protocol::{methods, Era, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::sim::{EventKind, Side, SimTime};

/// An established legacy session.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Session {
    pub(super) version: ProtocolVersion,
    pub(super) http_session: Option<String>,
}

impl Client {
    pub(super) fn send_initialize(&mut self, now: SimTime) {
        let id = self.fresh_id();
        let version = ProtocolVersion::legacy_default(&self.config.legacy_versions);
        let msg = jsonrpc::request(
            &id,
            methods::INITIALIZE,
            json!({
                "protocolVersion": version,
                "capabilities": self.config.capabilities.to_json(),
                "clientInfo": self.config.info.to_json(),
            }),
        );
        let caps = self.config.capabilities.names();
        let note = crate::note!("client.legacy.legacy_handshake_initialize_asks", "Legacy handshake: initialize asks for {version} and declares {join} once, for the whole session.", version = version, join = if caps.is_empty() { crate::note!("client.legacy.no_capabilities", "no capabilities") } else { Note::from(caps.join(", ")) });
        let deadline = self.deadline(now);
        self.emit(
            msg,
            Era::Legacy,
            Some(Purpose::Initialize),
            deadline,
            &[rules::L_INIT, rules::L_CAP_SESSION],
            note,
        );
    }

    pub(super) fn on_initialize_answer(&mut self, now: SimTime, answer: Answer) {
        match answer {
            Answer::Result(result) => {
                let version = result
                    .get("protocolVersion")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if !self.config.legacy_versions.contains(&version) {
                    self.close(&[rules::L_VERSION], crate::note!("client.legacy.server_answered_which_client", "The server answered {version}, which this client cannot speak ({join}): it disconnects instead of carrying on.", version = version, join = self.config.legacy_versions.join(", ")));
                    return;
                }
                let http_session = self.known.pending_http_session.take();
                let version = ProtocolVersion::new(version);
                self.known.session = Some(Session {
                    version: version.clone(),
                    http_session,
                });
                self.known.era = Some(Era::Legacy);
                let msg = jsonrpc::notification(methods::INITIALIZED, Value::Null);
                self.emit(msg, Era::Legacy, None, None, &[rules::L_INIT, rules::RPC_NOTIFY],
                    crate::note!("client.legacy.client_can_speak_confirms", "The client can speak {version}, so it confirms with notifications/initialized (a notification: no reply).", version = version));
                if let Some(instructions) = result.get("instructions").and_then(Value::as_str) {
                    self.decide(&[rules::L_INIT], crate::note!("client.legacy.host_shows_server_s", "The host shows the server's instructions to the model once, labelled: \u{201c}{instructions}\u{201d}", instructions = instructions));
                }
                let caps = result.get("capabilities").cloned().unwrap_or(Value::Null);
                if caps.get("prompts").is_none() {
                    self.decide(
                        &[rules::L_DEGRADE],
                        crate::note!("client.legacy.no_prompts_capability_host", "No prompts capability: the host hides its prompt menu instead of failing."),
                    );
                }
                if caps.get("logging").is_none() {
                    self.decide(
                        &[rules::L_DEGRADE],
                        crate::note!(
                            "client.legacy.no_logging_capability_client",
                            "No logging capability: the client will not wait for log lines."
                        ),
                    );
                }
                self.advance(now);
            }
            Answer::Error(err) => {
                let mut rules = vec![rules::E_MATRIX];
                if err.data.as_ref().and_then(|d| d.get("supported")).is_some()
                    || err.message.contains(ProtocolVersion::MODERN)
                {
                    rules.push(rules::M_INIT_ON_MODERN);
                }
                self.work.job = None;
                self.work.script.clear();
                self.decide(&rules, crate::note!("client.legacy.initialize_refused_legacy_client", "initialize refused ({code}): a legacy client has no fall-forward, so all it can do is show the user this message: {message}", code = err.code, message = err.message));
            }
        }
    }

    pub(super) fn send_relist(&mut self, _now: SimTime) {
        let id = self.fresh_id();
        let (msg, era) = match self.known.era {
            Some(Era::Legacy) => (
                jsonrpc::request(&id, methods::TOOLS_LIST, Value::Null),
                Era::Legacy,
            ),
            _ => {
                let caps = self.config.capabilities.clone();
                (
                    jsonrpc::request(
                        &id,
                        methods::TOOLS_LIST,
                        json!({"_meta": self.meta(&self.chosen_version(), &caps)}),
                    ),
                    Era::Modern,
                )
            }
        };
        self.relists.push(id);
        let note = if self.config.debounce_ms == 0 {
            crate::note!(
                "client.legacy.tools_list_again_notice",
                "tools/list again, for this notice alone."
            )
        } else {
            crate::note!(
                "client.legacy.list_changed_burst_over",
                "The list_changed burst is over: one tools/list refreshes the cached list."
            )
        };
        self.emit(msg, era, None, None, &[rules::L_LIST_CHANGED], note);
    }

    pub(super) fn on_server_request(
        &mut self,
        now: SimTime,
        id: RequestId,
        method: &str,
        params: &Value,
    ) {
        let url_mode = params.get("mode").and_then(Value::as_str) == Some("url");
        let declared = method == methods::ELICITATION_CREATE
            && self
                .config
                .capabilities
                .elicitation
                .as_ref()
                .is_some_and(|e| !url_mode || e.supports_url());
        if declared && url_mode {
            // URL mode: the user is sent to the page; the answer carries
            // no content, what they enter there never passes the client.
            let msg = jsonrpc::result(&id, json!({"action": "accept"}));
            self.emit(msg, Era::Legacy, None, None, &[rules::L_CAP_SESSION, rules::M_CAP_ELICIT_MODES],
                crate::note!("client.legacy.url_mode_accepts", "The client declared elicitation.url, so it shows the user the page to open and answers accept, with no content: what the user enters there never passes through the client."));
            return;
        }
        if declared {
            let answer =
                crate::protocol::elicitation::accept_with_defaults(params.get("requestedSchema"));
            let msg = jsonrpc::result(&id, answer.clone());
            self.emit(msg, Era::Legacy, None, None, &[rules::L_CAP_SESSION, rules::C_ELICIT_DEFAULTS],
                crate::note!("client.legacy.client_declared_elicitation_shows", "The client declared elicitation, so it shows the question and returns the user's answer {content}.", content = answer.get("content").cloned().unwrap_or(Value::Null)));
            return;
        }
        // Sampling and roots, declared at initialize, are answered as the
        // client answers them in an MRTR round (L-SAMPLING, L-CAP-SESSION).
        let caps = &self.config.capabilities;
        let declared_other = (method == methods::SAMPLING_CREATE_MESSAGE
            && caps.sampling.is_some())
            || (method == methods::ROOTS_LIST && caps.roots.is_some());
        if declared_other {
            if let Ok((answer, _)) = self.answer_one(method, method, Some(params)) {
                let msg = jsonrpc::result(&id, answer);
                let rules: &[RuleId] = if method == methods::ROOTS_LIST {
                    &[rules::L_CAP_SESSION]
                } else {
                    &[rules::L_SAMPLING, rules::L_CAP_SESSION]
                };
                self.emit(msg, Era::Legacy, None, None, rules,
                    crate::note!("client.legacy.client_declared_answers", "The client declared {method} at initialize, so it answers the server's request while the call waits.", method = if method == methods::ROOTS_LIST { "roots" } else { "sampling" }));
                return;
            }
        }
        match self.config.undeclared {
            UndeclaredPolicy::MethodNotFound => {
                let msg = jsonrpc::error(Some(&id), &ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, format!("Method not found: {method}")));
                self.emit(msg, Era::Legacy, None, None, &[rules::L_UNDECLARED],
                    crate::note!("client.legacy.client_s_sdk_has", "This client's SDK has no handler for {method} and answers -32601: the well-behaved case, the server can catch it.", method = method));
            }
            UndeclaredPolicy::Drop => self.record(EventKind::Dropped { side: Side::Client, what: format!("{method} id {id}") }, &[rules::L_UNDECLARED],
                crate::note!("client.legacy.client_s_sdk_logs", "This client's SDK logs the unknown {method} at debug level and drops it: the server will wait for id {id} forever.", method = method, id = id)),
            UndeclaredPolicy::Close => self.close(&[rules::L_UNDECLARED],
                crate::note!("client.legacy.client_s_sdk_treats", "This client's SDK treats the undeclared {method} as a protocol violation and closes the connection.", method = method)),
        }
        let _ = now;
    }

    pub(super) fn on_server_notification(&mut self, now: SimTime, method: &str) {
        if method == methods::TOOLS_LIST_CHANGED {
            if self.config.debounce_ms == 0 {
                self.decide(
                    &[rules::L_LIST_CHANGED],
                    crate::note!(
                        "client.legacy.no_debounce_every_notice",
                        "No debounce: every notice triggers its own re-list."
                    ),
                );
                self.send_relist(now);
            } else {
                let at = now.plus_millis(self.config.debounce_ms);
                self.timers.set(Timer::Relist, Some(at));
                self.decide(&[rules::L_LIST_CHANGED], crate::note!("client.legacy.list_changed_hint_not", "list_changed is a hint, not a new list: the client waits {debounce_ms} ms for the burst to end before re-listing once.", debounce_ms = self.config.debounce_ms));
            }
        }
    }
}
