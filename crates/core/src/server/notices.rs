//! Notifications a set-up scripts (`"event": "notify"`) sent by a server
//! that runs for real over HTTP (`mcp-lanes serve --file`): as over stdio,
//! as written, but on the streams that carry what a server sends on its
//! own: each operating legacy session's (its standalone stream when one is
//! open), and each open `subscriptions/listen` stream.

use serde_json::Value;

use super::{ConnId, OutputKind, Server, SessionState};
use crate::protocol::ProtocolVersion;
use crate::rules;
use crate::sim::SimTime;

impl Server {
    /// Sends the scripted notification `message`, as written, to every
    /// operating legacy session and every open listen stream; then drain
    /// [`Server::poll_output`]. How many it went to (0: nobody could hear
    /// it, and nothing is queued).
    pub fn send_scripted(&mut self, now: SimTime, message: &Value) -> usize {
        self.now = now;
        let mut sessions: Vec<(u64, ConnId, ProtocolVersion)> = self
            .sessions
            .iter()
            .filter(|(_, s)| s.state == SessionState::Operating)
            .map(|(c, s)| (s.seq, c.clone(), s.version.clone()))
            .collect();
        sessions.sort_by_key(|(seq, ..)| *seq);
        let listeners: Vec<ConnId> = self.listeners.iter().map(|l| l.conn.clone()).collect();
        let targets = sessions
            .into_iter()
            .map(|(_, conn, revision)| (conn, revision))
            .chain(
                listeners
                    .into_iter()
                    .map(|c| (c, ProtocolVersion::modern())),
            );
        let mut count = 0;
        for (conn, revision) in targets {
            count += 1;
            let method = message
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            self.note(
                &conn,
                OutputKind::Send {
                    message: message.clone(),
                    revision,
                    violation: None,
                },
                &[rules::RPC_NOTIFY],
                crate::note!(
                    "server.notices.scripted",
                    "The set-up scripts {method} now: the server sends it as written on the stream that carries what it sends on its own.",
                    method = method
                ),
            );
        }
        self.place_events();
        count
    }
}
