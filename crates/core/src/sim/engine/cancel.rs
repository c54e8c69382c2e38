//! On Streamable HTTP a client cancels a request by closing the stream its
//! response travels on: when it stops waiting (a timeout) and when its
//! script is done with a request still running in the background
//! (C-BACKGROUND). The server hears of it as a real one does from its
//! HTTP layer, through [`crate::server::Server::stream_closed`]: a listen
//! subscription ends (M-LISTEN-FILTER), a legacy stream keeps its events
//! for a resumption (H-SSE-RESUME).

use super::{scripted, Delivery, Engine};
use crate::note::{Msg, Note};
use crate::rules::{self, RuleId};
use crate::server::HttpReply;
use crate::sim::timeline::{EventKind, Side};
use crate::transport::TransportKind;

impl Engine {
    /// Notes the stream a response to the request `body` leaves open.
    pub(super) fn opened(&mut self, body: &str, reply: &HttpReply) {
        if let (Some(key), Some((id, _, _))) = (&reply.response.stream, scripted::request_of(body))
        {
            self.streams.push((id.to_string(), key.clone()));
        }
    }

    /// What the client records says whether it closes streams: a timeout
    /// closes its request's; the end of its script (the decision that
    /// closes a background request's stream) closes every one still open.
    /// The decision that sends a request to the background has the same
    /// rule and closes nothing, so a second background request leaves the
    /// first one's stream open. Work the server still holds for a closed
    /// request (a tool that works for a while) is dropped with it.
    pub(super) fn cancels(&mut self, kind: &EventKind, rules: &[RuleId], note: &Note) {
        if self.transport != TransportKind::Http {
            return;
        }
        let closed: Vec<(String, String)> = match kind {
            EventKind::Timeout {
                side: Side::Client,
                request_id,
            } => {
                let (hit, kept) = std::mem::take(&mut self.streams)
                    .into_iter()
                    .partition(|(id, _)| id == request_id);
                self.streams = kept;
                self.drop_work(|work| &work.to_string() == request_id);
                hit
            }
            EventKind::Decision { side: Side::Client }
                if rules == [rules::C_BACKGROUND] && closes_background(note) =>
            {
                self.drop_work(|_| true);
                std::mem::take(&mut self.streams)
            }
            _ => Vec::new(),
        };
        let at = self.now.plus_millis(self.latency);
        for (_, key) in closed {
            self.schedule(at, Delivery::StreamClosed(key));
        }
    }
}

/// Whether a client decision is the end of its script closing a background
/// request's stream (`client/background.rs`, `cancel_background`), not the
/// one that sent it to the background.
fn closes_background(note: &Note) -> bool {
    matches!(note.msg(), Some(Msg::Keyed { key, .. }) if key == "client.background.closes_stream")
}
