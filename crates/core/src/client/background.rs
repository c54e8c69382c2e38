//! Requests that run alongside the script (a step with `background`): a
//! listen stream or a long call is sent, and the client goes on at once;
//! its answer is matched by id whenever it comes, and what is still open
//! when the script is done is cancelled (C-BACKGROUND).

use serde_json::json;

use super::Client;
use crate::protocol::jsonrpc::{self, RequestId};
use crate::protocol::{methods, ClientCapabilities, Era};
use crate::rules;
use crate::sim::SimTime;
use crate::transport::TransportKind;

/// A request sent in the background and not answered yet.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Background {
    /// Its id.
    pub(super) id: RequestId,
    /// Its method.
    pub(super) method: String,
    /// The era it was sent in.
    pub(super) era: Era,
}

impl Client {
    /// The job's request went out in the background: note it, and go on
    /// with the next step without waiting.
    pub(super) fn went_to_background(
        &mut self,
        now: SimTime,
        id: RequestId,
        method: &str,
        era: Era,
    ) {
        self.decide(
            &[rules::C_BACKGROUND],
            crate::note!(
                "client.background.goes_on",
                "{method} ({id}) runs in the background: the client goes on with its next step without waiting, and matches its answer by id when it comes.",
                method = method,
                id = id.to_string()
            ),
        );
        self.background.push(Background {
            id,
            method: method.to_string(),
            era,
        });
        self.work.job = None;
        self.advance(now);
    }

    /// Whether `id` answers a background request; if so it is done, and
    /// noted as such.
    pub(super) fn background_answered(&mut self, id: Option<&RequestId>) -> bool {
        let Some(pos) = id.and_then(|id| self.background.iter().position(|b| &b.id == id)) else {
            return false;
        };
        let done = self.background.remove(pos);
        self.decide(
            &[rules::C_BACKGROUND, rules::RPC_ID],
            crate::note!(
                "client.background.answered",
                "The answer to {method} ({id}), which ran in the background, arrives between the other steps; the id tells the client which request it ends.",
                method = done.method,
                id = done.id.to_string()
            ),
        );
        true
    }

    /// The script is done: every background request still open is
    /// cancelled (on stdio with `notifications/cancelled`; on HTTP closing
    /// its stream is the cancellation).
    pub(super) fn cancel_background(&mut self) {
        for open in std::mem::take(&mut self.background) {
            let id = open.id.to_string();
            if self.transport == TransportKind::Http {
                // The engine closes the stream on this decision, found by
                // its key (`sim/engine/cancel.rs`, `closes_background`).
                self.decide(
                    &[rules::C_BACKGROUND],
                    crate::note!(
                        "client.background.closes_stream",
                        "The script is done: the client closes the stream of {method} ({id}), which is how HTTP cancels it.",
                        method = open.method,
                        id = id
                    ),
                );
                continue;
            }
            let mut params = json!({"requestId": open.id.to_json(), "reason": "no longer needed"});
            if open.era == Era::Modern {
                params["_meta"] = self.meta(&self.chosen_version(), &ClientCapabilities::none());
            }
            let msg = jsonrpc::notification(methods::CANCELLED, params);
            self.emit(
                msg,
                open.era,
                None,
                None,
                &[rules::C_BACKGROUND, rules::RPC_NOTIFY],
                crate::note!(
                    "client.background.cancels",
                    "The script is done: the client cancels {method} ({id}), which it no longer needs, with notifications/cancelled.",
                    method = open.method,
                    id = id
                ),
            );
        }
    }
}
