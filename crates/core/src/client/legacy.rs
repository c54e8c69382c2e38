//! Legacy flows (2025-11-25 and earlier): the initialize handshake and
//! version check, requests the server sends on its own (declared or not),
//! and list_changed with its debounce.

use serde_json::{json, Value};

use super::timers::Timer;
use super::{Answer, Client, Purpose, UndeclaredPolicy};
use crate::protocol::jsonrpc::{self, ErrorCode, ErrorObject, RequestId};
use crate::protocol::{methods, Era, ProtocolVersion};
use crate::rules;
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
        let note = format!("Legacy handshake: initialize asks for {version} and declares {} once, for the whole session.",
            if caps.is_empty() { "no capabilities".to_string() } else { caps.join(", ") });
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
                    self.close(&[rules::L_VERSION], format!(
                        "The server answered {version}, which this client cannot speak ({}): it disconnects instead of carrying on.", self.config.legacy_versions.join(", ")));
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
                    format!("The client can speak {version}, so it confirms with notifications/initialized (a notification: no reply)."));
                if let Some(instructions) = result.get("instructions").and_then(Value::as_str) {
                    self.decide(&[rules::L_INIT], format!("The host shows the server's instructions to the model once, labelled: \u{201c}{instructions}\u{201d}"));
                }
                let caps = result.get("capabilities").cloned().unwrap_or(Value::Null);
                if caps.get("prompts").is_none() {
                    self.decide(
                        &[rules::L_DEGRADE],
                        "No prompts capability: the host hides its prompt menu instead of failing.",
                    );
                }
                if caps.get("logging").is_none() {
                    self.decide(
                        &[rules::L_DEGRADE],
                        "No logging capability: the client will not wait for log lines.",
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
                self.decide(&rules, format!("initialize refused ({}): a legacy client has no fall-forward, so all it can do is show the user this message: {}", err.code, err.message));
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
            "tools/list again, for this notice alone."
        } else {
            "The list_changed burst is over: one tools/list refreshes the cached list."
        };
        self.emit(msg, era, None, None, &[rules::L_LIST_CHANGED], note.into());
    }

    pub(super) fn on_server_request(
        &mut self,
        now: SimTime,
        id: RequestId,
        method: &str,
        params: &Value,
    ) {
        let declared =
            method == methods::ELICITATION_CREATE && self.config.capabilities.elicitation.is_some();
        if declared {
            let answer =
                crate::protocol::elicitation::accept_with_defaults(params.get("requestedSchema"));
            let msg = jsonrpc::result(&id, answer.clone());
            self.emit(msg, Era::Legacy, None, None, &[rules::L_CAP_SESSION],
                format!("The client declared elicitation, so it shows the question and returns the user's answer {}.", answer.get("content").cloned().unwrap_or(Value::Null)));
            return;
        }
        match self.config.undeclared {
            UndeclaredPolicy::MethodNotFound => {
                let msg = jsonrpc::error(Some(&id), &ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, format!("Method not found: {method}")));
                self.emit(msg, Era::Legacy, None, None, &[rules::L_UNDECLARED],
                    format!("This client's SDK has no handler for {method} and answers -32601: the well-behaved case, the server can catch it."));
            }
            UndeclaredPolicy::Drop => self.record(EventKind::Dropped { side: Side::Client, what: format!("{method} id {id}") }, &[rules::L_UNDECLARED],
                format!("This client's SDK logs the unknown {method} at debug level and drops it: the server will wait for id {id} forever.")),
            UndeclaredPolicy::Close => self.close(&[rules::L_UNDECLARED],
                format!("This client's SDK treats the undeclared {method} as a protocol violation and closes the connection.")),
        }
        let _ = now;
    }

    pub(super) fn on_server_notification(&mut self, now: SimTime, method: &str) {
        if method == methods::TOOLS_LIST_CHANGED {
            if self.config.debounce_ms == 0 {
                self.decide(
                    &[rules::L_LIST_CHANGED],
                    "No debounce: every notice triggers its own re-list.",
                );
                self.send_relist(now);
            } else {
                let at = now.plus_millis(self.config.debounce_ms);
                self.timers.set(Timer::Relist, Some(at));
                self.decide(&[rules::L_LIST_CHANGED], format!(
                    "list_changed is a hint, not a new list: the client waits {} ms for the burst to end before re-listing once.", self.config.debounce_ms));
            }
        }
    }
}
