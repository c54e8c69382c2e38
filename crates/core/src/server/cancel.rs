//! `notifications/cancelled` from the client: what the server can stop,
//! and what it simply ignores (2025-11-25 basic/utilities/cancellation: a
//! receiver ignores a cancellation it cannot match, or one that comes after
//! its answer).

use serde_json::Value;

use super::{ConnId, OutputKind, Server};
use crate::protocol::jsonrpc::RequestId;
use crate::rules;

impl Server {
    /// Handles a cancellation of request `params.requestId` on `conn`:
    /// a listen stream ends, a call waiting on the client's answer is
    /// dropped (its lock released, a late answer then matches nothing), an
    /// id the session never used is ignored, and any other request gets no
    /// further message.
    pub(super) fn cancelled(&mut self, conn: &ConnId, params: &Value) {
        let Some(id) = params.get("requestId").and_then(RequestId::from_json) else {
            self.note(conn, OutputKind::Decision, &[rules::RPC_NOTIFY],
                crate::note!("server.cancelled_without_request_id", "A cancellation that names no request (no valid requestId) matches nothing; it is ignored."));
            return;
        };
        if self.stop_listening(conn, &id) {
            self.note(conn, OutputKind::Decision, &[rules::M_LISTEN_FILTER, rules::RPC_NOTIFY],
                crate::note!("server.client_cancelled_listen_stream", "The client cancelled listen stream {id}: the subscription ends, and the server forgets it.", id = id));
            return;
        }
        let waiting = self
            .pending
            .iter()
            .find(|((c, _), call)| c == conn && call.call_id == id)
            .map(|(key, _)| key.clone());
        if let Some(call) = waiting.and_then(|key| self.pending.remove(&key)) {
            self.note(conn, OutputKind::Decision, &[rules::L_TIMEOUT, rules::RPC_NOTIFY],
                crate::note!("server.cancelled_waiting_call", "The client cancelled call {id} while {tool} waited for the client's answer: the server drops the call and sends no response; an answer that still comes matches nothing.", id = id, tool = call.tool));
            if let Some(lock) = call.lock {
                self.release(
                    conn,
                    &lock,
                    &[rules::L_TIMEOUT],
                    crate::note!(
                        "server.cancelled_call_releases_lock",
                        "The cancelled {tool} did no work: it releases {lock}.",
                        tool = call.tool,
                        lock = lock
                    ),
                );
            }
            return;
        }
        if self
            .sessions
            .get(conn)
            .is_some_and(|s| !s.used_ids.contains(&id))
        {
            self.note(conn, OutputKind::Decision, &[rules::RPC_NOTIFY],
                crate::note!("server.cancelled_unknown_request", "The client cancelled request {id}, which it never sent in this session: there is nothing to stop, and the notification is ignored.", id = id));
            return;
        }
        self.note(conn, OutputKind::Decision, &[rules::L_TIMEOUT, rules::RPC_NOTIFY],
            crate::note!("server.cancelled_request", "The client cancelled request {id}: the server stops any work still running for it and sends no response for it; one it already answered stays answered.", id = id));
    }
}
