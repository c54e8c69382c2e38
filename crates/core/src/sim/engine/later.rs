//! Work that takes virtual time: a tool with a declared `duration_ms`
//! sends its progress notifications spaced over that time and its result
//! at its end (M-PROGRESS), so the lanes show them arriving while the call
//! runs. Each message is recorded when it is sent.

use serde_json::Value;

use super::{message_event, Delivery, Engine};
use crate::note::Note;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::{methods, ProtocolVersion};
use crate::rules::RuleId;
use crate::server::{HttpReply, OutputKind, Reply, Server, ServerOutput};
use crate::sim::scripted;
use crate::sim::timeline::{EventKind, HttpInfo, Side};
use crate::sim::SimTime;

/// A server message held back until its time.
#[derive(Debug, Clone)]
pub(super) enum Later {
    /// A progress notification.
    Output(ServerOutput),
    /// The reply to a stdio line.
    Reply(Reply),
    /// A whole HTTP response (JSON, not a stream).
    Http(HttpReply),
    /// One event of an SSE response.
    Event {
        data: String,
        info: HttpInfo,
        revision: ProtocolVersion,
        rules: Vec<RuleId>,
        note: Note,
    },
}

/// How long the tool that `text` calls works, when it declares it.
pub(super) fn duration_of(server: &Server, text: &str) -> Option<u64> {
    let (_, method, params) = scripted::request_of(text)?;
    if method != methods::TOOLS_CALL {
        return None;
    }
    let name = params.get("name").and_then(Value::as_str)?;
    let tool = server.config().tools.iter().find(|t| t.name == name)?;
    tool.duration_ms.filter(|d| *d > 0)
}

/// Whether an answer is a refusal or a tool error: the tool did no work,
/// so it answers at once whatever its duration.
pub(super) fn at_once(message: &Value) -> bool {
    message.get("error").is_some() || message.pointer("/result/isError") == Some(&Value::Bool(true))
}

/// The request a `notifications/cancelled` line cancels, when it is one.
pub(super) fn cancelled(line: &str) -> Option<RequestId> {
    let value: Value = serde_json::from_str(line).ok()?;
    if value.get("method").and_then(Value::as_str) != Some(methods::CANCELLED)
        || value.get("id").is_some()
    {
        return None;
    }
    RequestId::from_json(value.pointer("/params/requestId")?)
}

/// A JSON answer to a request whose response stream already carried a
/// notification becomes that stream's last event: one POST has one
/// response, an SSE stream with the notifications first and the answer
/// last (H-SSE-RESPONSE).
pub(super) fn onto_stream(reply: &mut HttpReply) {
    let response = &reply.response;
    if response.status == 200 && !crate::transport::http::is_event_stream(response) {
        let event = crate::transport::http::sse_event(None, &response.body);
        reply.response = crate::transport::http::HttpResponse::event_stream(event);
    }
}

fn is_progress(out: &ServerOutput) -> bool {
    matches!(&out.kind, OutputKind::Send { message, .. }
        if message.get("method").and_then(Value::as_str) == Some(methods::PROGRESS))
}

impl Engine {
    /// The time of message `i` (from 0) of `count` spread evenly over
    /// `duration`: the last one at its end.
    pub(super) fn spaced(&self, duration: u64, i: usize, count: usize) -> SimTime {
        let count = count.max(1) as u64;
        self.now.plus_millis(duration * (i as u64 + 1) / count)
    }

    /// A stdio call to a tool that works for `duration` ms: its progress
    /// and its reply are held back to their times; the rest goes now.
    pub(super) fn space_out(
        &mut self,
        duration: u64,
        outputs: Vec<ServerOutput>,
        reply: Option<Reply>,
        work: Option<RequestId>,
    ) {
        let (progress, now): (Vec<_>, Vec<_>) = outputs.into_iter().partition(is_progress);
        for out in now {
            self.server_output(out);
        }
        let count = progress.len() + usize::from(reply.is_some());
        for (i, out) in progress.into_iter().enumerate() {
            let at = self.spaced(duration, i, count);
            self.schedule(at, Delivery::Later(Later::Output(out), work.clone()));
        }
        if let Some(reply) = reply {
            let at = self.now.plus_millis(duration);
            self.schedule(at, Delivery::Later(Later::Reply(reply), work));
        }
    }

    /// The request a held-back message belongs to was cancelled
    /// (`notifications/cancelled` on stdio, its stream closed on HTTP):
    /// the server stops working on it, and what it would still have sent
    /// for it (its progress, its result) is never sent (L-TIMEOUT,
    /// C-BACKGROUND; 2026-07-28 basic/patterns/cancellation).
    pub(super) fn drop_work(&mut self, cancelled: impl Fn(&RequestId) -> bool) {
        self.queue.retain(
            |(_, delivery)| !matches!(delivery, Delivery::Later(_, Some(work)) if cancelled(work)),
        );
    }

    /// A held-back message's time has come: it is sent now.
    pub(super) fn later(&mut self, later: Later) {
        match later {
            Later::Output(out) => self.server_output(out),
            Later::Reply(reply) => self.send_reply(reply),
            Later::Http(reply) => self.http_response(reply, None),
            Later::Event {
                data,
                info,
                revision,
                rules,
                note,
            } => {
                let msg = message_event(Side::Server, &data, revision, None, Some(info));
                let index = self.push(EventKind::Message(msg), rules, note);
                if !self.lost(Side::Server) {
                    let at = self.now.plus_millis(self.latency);
                    self.schedule(
                        at,
                        Delivery::ToClientText {
                            text: data,
                            event: index,
                        },
                    );
                }
            }
        }
    }
}
