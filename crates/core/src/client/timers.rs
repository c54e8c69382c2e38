//! Timers: what happens when a deadline the client asked for passes.

use serde_json::json;

use super::{Client, Purpose, Waiting};
use crate::protocol::jsonrpc::{self};
use crate::protocol::{methods, ClientCapabilities, Era};
use crate::rules::{self};
use crate::sim::{EventKind, Side, SimTime};
use crate::transport::TransportKind;

impl Client {
    pub(super) fn on_timeout(&mut self, now: SimTime, w: Waiting) {
        let id = w.id.as_ref().map(|i| i.to_string()).unwrap_or_default();
        let probe = matches!(w.purpose, Purpose::Probe { .. });
        if probe {
            self.record(EventKind::Timeout { side: Side::Client, request_id: id.clone() }, &[rules::E_PROBE_STDIO, rules::L_TIMEOUT],
                "No answer to the probe within the timeout: silence means legacy. The client falls back to initialize.");
        } else {
            self.record(
                EventKind::Timeout {
                    side: Side::Client,
                    request_id: id.clone(),
                },
                &[rules::L_TIMEOUT],
                format!("Request {id} timed out: the client stops waiting."),
            );
        }
        // On stdio the sender cancels what it stopped waiting for; on HTTP
        // closing the response stream is the cancellation, nothing is sent.
        if let (TransportKind::Stdio, Some(req)) = (self.transport, &w.id) {
            let mut params = json!({"requestId": req.to_json(), "reason": "timed out"});
            if w.era == Era::Modern {
                params["_meta"] = self.meta(&self.chosen_version(), &ClientCapabilities::none());
            }
            let msg = jsonrpc::notification(methods::CANCELLED, params);
            self.emit(
                msg,
                w.era,
                None,
                None,
                &[rules::L_TIMEOUT, rules::RPC_NOTIFY],
                format!("The client sends notifications/cancelled for {id}."),
            );
        }
        if probe {
            self.era = Some(Era::Legacy);
        } else {
            self.job = None;
        }
        self.advance(now);
    }
}
