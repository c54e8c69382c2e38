//! On Streamable HTTP a client cancels a request by closing the stream its
//! response travels on: when it stops waiting (a timeout) and when its
//! script is done with a request still running in the background
//! (C-BACKGROUND). The server hears of it as a real one does from its
//! HTTP layer, through [`crate::server::Server::stream_closed`]: a listen
//! subscription ends (M-LISTEN-FILTER), a legacy stream keeps its events
//! for a resumption (H-SSE-RESUME).

use super::{scripted, Delivery, Engine};
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
    /// closes its request's; the end of its script (the background
    /// request's decision, C-BACKGROUND alone) closes every one still open.
    pub(super) fn cancels(&mut self, kind: &EventKind, rules: &[RuleId]) {
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
                hit
            }
            EventKind::Decision { side: Side::Client } if rules == [rules::C_BACKGROUND] => {
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
