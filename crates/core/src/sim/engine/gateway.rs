//! A run with a gateway between the client and the server (G-FORWARD):
//! every message of the client or the server goes to the gateway first
//! (its arrow ends on the gateway's column), and what the gateway sends on
//! (a message forwarded, rewritten, or its own answer) is a hop of its own,
//! recorded when the gateway sends it and travelling the channel's latency
//! again. A channel's losses apply to the client's and the server's own
//! messages; the gateway's hops are never lost.

use super::{message_event, Delivery, Engine, Setup};
use crate::gateway::Passage;
use crate::note::Note;
use crate::protocol::ProtocolVersion;
use crate::rules::RuleId;
use crate::sim::timeline::{Actor, EventKind, HttpInfo, Side};
use crate::transport::http::{self, HttpResponse};

/// The columns of a set-up's run: the client, the gateway and the server
/// when it has a gateway, none listed otherwise.
pub(super) fn actors(setup: &Setup) -> Vec<Actor> {
    match setup.gateway {
        Some(_) => vec![Actor::Client, Actor::Gateway, Actor::Server],
        None => Vec::new(),
    }
}

impl Engine {
    /// A delivery as it travels in this run: with a gateway, a message
    /// of the client or the server goes to the gateway first; what the
    /// gateway sends on goes straight to its side.
    pub(super) fn via_gateway(&mut self, delivery: Delivery) -> Delivery {
        if self.gateway.is_none() {
            return delivery;
        }
        let event = match &delivery {
            Delivery::ToServerText { event, .. }
            | Delivery::ToServerHttp { event, .. }
            | Delivery::ToClientText { event, .. }
            | Delivery::ToClientHttp { event, .. } => *event,
            _ => return delivery,
        };
        let Some(EventKind::Message(m)) = self.rec.event_mut(event).map(|e| &mut e.kind) else {
            return delivery;
        };
        if m.from_actor == Some(Actor::Gateway) {
            return delivery;
        }
        m.to_actor = Some(Actor::Gateway);
        Delivery::Gateway(Box::new(delivery))
    }

    /// A message reaches the gateway: it decides, and sends on what it
    /// decided (G-FORWARD, G-FILTER, G-REWRITE).
    pub(super) fn at_gateway(&mut self, delivery: Delivery) {
        let Some(mut gateway) = self.gateway.take() else {
            return;
        };
        self.gateway_decides(&mut gateway, delivery);
        self.gateway = Some(gateway);
    }

    fn gateway_decides(&mut self, gateway: &mut crate::gateway::Gateway, delivery: Delivery) {
        let at = self.now.plus_millis(self.latency);
        match delivery {
            Delivery::ToServerText { text, event } => {
                if self.closed {
                    return;
                }
                self.mark_delivered(event);
                match gateway.from_client(&text) {
                    Passage::Forward {
                        text: on,
                        rewritten,
                        rules,
                        note,
                    } => {
                        let index =
                            self.hop(event, Side::Client, &on, rewritten, None, rules, note);
                        self.schedule(
                            at,
                            Delivery::ToServerText {
                                text: on,
                                event: index,
                            },
                        );
                    }
                    Passage::Answer { text, rules, note } => {
                        let index = self.hop(event, Side::Server, &text, true, None, rules, note);
                        self.schedule(at, Delivery::ToClientText { text, event: index });
                    }
                }
            }
            Delivery::ToServerHttp { mut request, event } => {
                self.mark_delivered(event);
                if !self.gateway_checks(&request.headers, event) {
                    return;
                }
                match gateway.from_client(&request.body) {
                    Passage::Forward {
                        text,
                        rewritten,
                        mut rules,
                        mut note,
                    } => {
                        self.gateway_swaps(&mut request.headers, &mut rules, &mut note);
                        if rewritten {
                            mirror_headers(&mut request.headers, &text);
                            request.body = text;
                        }
                        let info = HttpInfo {
                            method: Some(request.method.clone()),
                            status: None,
                            headers: request.headers.clone(),
                            event_id: None,
                        };
                        let body = request.body.clone();
                        let index = self.hop(
                            event,
                            Side::Client,
                            &body,
                            rewritten,
                            Some(info),
                            rules,
                            note,
                        );
                        self.schedule(
                            at,
                            Delivery::ToServerHttp {
                                request,
                                event: index,
                            },
                        );
                    }
                    Passage::Answer { text, rules, note } => {
                        // -32602 is 200 on HTTP, as a server's (H-STATUS).
                        let response = HttpResponse::json(200, text);
                        let info = HttpInfo {
                            method: None,
                            status: Some(response.status),
                            headers: response.headers.clone(),
                            event_id: None,
                        };
                        let body = response.body.clone();
                        let index =
                            self.hop(event, Side::Server, &body, true, Some(info), rules, note);
                        self.schedule(
                            at,
                            Delivery::ToClientHttp {
                                response,
                                event: index,
                            },
                        );
                    }
                }
            }
            Delivery::ToClientText { text, event } => {
                if self.closed {
                    return;
                }
                self.mark_delivered(event);
                let (text, rewritten, rules, note) = onward(gateway.from_server(&text));
                let info = self.http_of(event);
                let index = self.hop(event, Side::Server, &text, rewritten, info, rules, note);
                self.schedule(at, Delivery::ToClientText { text, event: index });
            }
            Delivery::ToClientHttp {
                mut response,
                event,
            } => {
                self.mark_delivered(event);
                let (text, rewritten, rules, note) = onward(gateway.from_server(&response.body));
                response.body = text;
                let info = self.http_of(event);
                let body = response.body.clone();
                let index = self.hop(event, Side::Server, &body, rewritten, info, rules, note);
                self.schedule(
                    at,
                    Delivery::ToClientHttp {
                        response,
                        event: index,
                    },
                );
            }
            // Only messages are sent to the gateway (`via_gateway`).
            _ => {}
        }
    }

    /// The HTTP details of message event `event`.
    fn http_of(&self, event: usize) -> Option<HttpInfo> {
        self.rec
            .events()
            .get(event)
            .and_then(|e| e.message())
            .and_then(|m| m.http.clone())
    }

    /// Records a message the gateway sends, in the revision of the message
    /// `cause` it came from (its violation too, when it passes unchanged).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hop(
        &mut self,
        cause: usize,
        from: Side,
        text: &str,
        rewritten: bool,
        http: Option<HttpInfo>,
        rules: Vec<RuleId>,
        note: Note,
    ) -> usize {
        let original = self.rec.events().get(cause).and_then(|e| e.message());
        let revision = original.map_or_else(ProtocolVersion::modern, |m| {
            ProtocolVersion::new(m.revision.clone())
        });
        let kept = original
            .filter(|_| !rewritten)
            .map(|m| (m.violation.clone(), m.violation_msg.clone()));
        let mut message = message_event(from, text, revision, None, http);
        if let Some((violation, violation_msg)) = kept {
            message.violation = violation;
            message.violation_msg = violation_msg;
        }
        if text.is_empty() {
            if let Some(m) = original {
                message.label = m.label.clone();
            }
        }
        message.from_actor = Some(Actor::Gateway);
        self.push(EventKind::Message(message), rules, note)
    }
}

/// What the gateway passes back to the client (it never answers the
/// server itself).
fn onward(passage: Passage) -> (String, bool, Vec<RuleId>, Note) {
    match passage {
        Passage::Forward {
            text,
            rewritten,
            rules,
            note,
        } => (text, rewritten, rules, note),
        Passage::Answer { text, rules, note } => (text, true, rules, note),
    }
}

/// Keeps the `Mcp-Name` header of a modern POST equal to the body the
/// gateway rewrote (G-REWRITE, H-HEADERS); a request without one keeps
/// its headers.
fn mirror_headers(headers: &mut [(String, String)], body: &str) {
    let Ok(value) = serde_json::from_str(body) else {
        return;
    };
    let expected = http::modern_headers(&value);
    for (name, value) in headers.iter_mut() {
        if name.eq_ignore_ascii_case(http::NAME_HEADER) {
            if let Some((_, want)) = expected
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(http::NAME_HEADER))
            {
                *value = want.clone();
            }
        }
    }
}
