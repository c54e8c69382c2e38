//! What a scenario scripts for the server, played by the engine: the
//! notifications tied to a request's method, a reply armed to answer
//! wrongly on purpose in the server's place, and a scripted notification
//! sent as written.

use super::{message_event, Delivery, Engine, ServerEvent};
use crate::protocol::ProtocolVersion;
use crate::sim::scripted::{self, ScriptedNotice};
use crate::sim::timeline::{EventKind, HttpInfo, Side};
use crate::transport::http::HttpResponse;
use crate::transport::TransportKind;

impl Engine {
    /// A request reached the server: notifications tied to its method are
    /// scheduled, and a scripted reply armed for it answers in the server's
    /// place (the server never sees it). Whether one did.
    pub(super) fn scripted_reply(
        &mut self,
        text: &str,
        http: bool,
        revision: ProtocolVersion,
    ) -> bool {
        let Some((id, method, params)) = scripted::request_of(text) else {
            return false;
        };
        let now = self.now;
        let mut i = 0;
        while i < self.tied.len() {
            if self.tied[i].1.after.as_deref() == Some(method.as_str()) {
                let (delay, notice) = self.tied.remove(i);
                if delay == 0 {
                    // At once: before the server's own answer, on HTTP as
                    // the first event of the request's response stream.
                    self.on_request_stream = http;
                    self.scripted_notice(notice, revision.clone());
                } else {
                    self.schedule(
                        now.plus_millis(delay),
                        Delivery::ServerSees(ServerEvent::Notify(notice)),
                    );
                }
            } else {
                i += 1;
            }
        }
        let Some(pos) = self.armed.iter().position(|r| r.answers(&method, &params)) else {
            return false;
        };
        let scripted = self.armed.remove(pos);
        let text = scripted.text_for(&id);
        let status = scripted.status.unwrap_or(200);
        let info = http.then(|| HttpInfo {
            method: None,
            status: Some(status),
            headers: vec![("Content-Type".into(), "application/json".into())],
            event_id: None,
        });
        let msg = message_event(
            Side::Server,
            &text,
            revision,
            Some(scripted.violation.clone()),
            info,
        );
        let index = self.push(
            EventKind::Message(msg),
            scripted.rule_ids(),
            scripted.lane_note(),
        );
        if self.lost(Side::Server) {
            return true;
        }
        let at = now.plus_millis(self.latency);
        let delivery = if http {
            let response = HttpResponse::json(status, text);
            Delivery::ToClientHttp {
                response,
                event: index,
            }
        } else {
            Delivery::ToClientText { text, event: index }
        };
        self.schedule(at, delivery);
        true
    }

    /// The server sends a scripted notification, as written.
    pub(super) fn scripted_notice(&mut self, notice: ScriptedNotice, revision: ProtocolVersion) {
        if self.closed {
            return;
        }
        let text = notice.message.to_string();
        let info = (self.transport == TransportKind::Http).then(|| HttpInfo {
            method: None,
            status: self.on_request_stream.then_some(200),
            headers: vec![("Content-Type".into(), "text/event-stream".into())],
            event_id: None,
        });
        let msg = message_event(
            Side::Server,
            &text,
            revision,
            notice.violation.clone(),
            info,
        );
        let index = self.push(
            EventKind::Message(msg),
            notice.rule_ids(),
            notice.lane_note(),
        );
        if self.lost(Side::Server) {
            return;
        }
        let at = self.now.plus_millis(self.latency);
        self.schedule(at, Delivery::ToClientText { text, event: index });
    }
}
