//! A run after the authorization flow (`sim/protected.rs`): the client
//! puts its access token on every HTTP request (A-BEARER), the server
//! checks each one before it reads it (A-AUDIENCE, A-SCOPE-STEP-UP) and,
//! with a gateway, the gateway checks the client's token as the resource
//! the client sees (G-AUTH-RESOURCE) and forwards with a token of its own
//! in place of the client's (G-NO-PASSTHROUGH).

use super::{Delivery, Engine};
use crate::auth::resource::ProtectedResource;
use crate::note::Note;
use crate::rules::{self, RuleId};
use crate::server::HttpReply;
use crate::transport::http::{self, HttpResponse};

/// The tokens and checks of an authorized run.
#[derive(Debug, Clone, PartialEq)]
pub struct Bearer {
    /// The client's access token.
    pub token: String,
    /// The id of the client's first request in this run: the flow's
    /// sends took those before it (RPC-ID: a retry is a new request).
    pub first_id: i64,
    /// Where the run starts on the flow's clock (ms): expiry is checked
    /// against the flow's time.
    pub offset_ms: u64,
    /// The server as a protected resource.
    pub server: ProtectedResource,
    /// The scopes every request needs.
    pub needed: Vec<String>,
    /// With a gateway: the gateway as the resource the client sees, and
    /// its own token for the server.
    pub gateway: Option<(ProtectedResource, String)>,
}

/// The header that carries a token.
const AUTHORIZATION: &str = "authorization";

/// `headers` with `token` as their only `Authorization` (A-BEARER).
pub(crate) fn with_token(headers: &mut Vec<(String, String)>, token: &str) {
    headers.retain(|(k, _)| !k.eq_ignore_ascii_case(AUTHORIZATION));
    headers.push((AUTHORIZATION.into(), format!("Bearer {token}")));
}

/// The answer to a request whose token a resource refused.
fn refusal(c: crate::auth::resource::Challenge, extra: Option<RuleId>) -> HttpReply {
    let mut response = HttpResponse::empty(c.status);
    response
        .headers
        .push(("www-authenticate".into(), c.www_authenticate));
    let mut rules = c.rules;
    rules.extend(extra);
    HttpReply {
        response,
        rules,
        note: c.note,
        revision: crate::protocol::ProtocolVersion::modern(),
    }
}

impl Engine {
    /// The client's request, with its token (A-BEARER): its headers and
    /// its rules.
    pub(super) fn client_token(
        &self,
        headers: &mut Vec<(String, String)>,
        rules: &mut Vec<RuleId>,
    ) {
        if let Some(b) = &self.bearer {
            with_token(headers, &b.token);
            if !rules.contains(&rules::A_BEARER) {
                rules.push(rules::A_BEARER);
            }
        }
    }

    /// Whether the server refuses a request's token; when it does, its
    /// 401 or 403 is answered.
    pub(super) fn server_refuses(&mut self, headers: &[(String, String)]) -> bool {
        let Some(b) = &self.bearer else {
            return false;
        };
        let needed: Vec<&str> = b.needed.iter().map(String::as_str).collect();
        let now = b.offset_ms + self.now.as_millis();
        match b.server.check(headers, &needed, now) {
            Ok(_) => false,
            Err(c) => {
                self.http_response(refusal(*c, None), None);
                true
            }
        }
    }

    /// At the gateway, before anything else, a request of the client's:
    /// its token checked by the gateway as the resource the client sees
    /// (G-AUTH-RESOURCE), before it reads the request (a hidden tool is
    /// not refused to a token it would refuse); or the gateway's refusal,
    /// answered to the client, and `false`.
    pub(super) fn gateway_checks(&mut self, headers: &[(String, String)], event: usize) -> bool {
        let Some(b) = self.bearer.as_ref() else {
            return true;
        };
        let Some((guard, _)) = b.gateway.clone() else {
            return true;
        };
        let needed: Vec<&str> = b.needed.iter().map(String::as_str).collect();
        let checked = guard.check(headers, &needed, b.offset_ms + self.now.as_millis());
        if let Err(c) = checked {
            let reply = refusal(*c, Some(rules::G_AUTH_RESOURCE));
            let response = reply.response.clone();
            let info = crate::sim::HttpInfo {
                method: None,
                status: Some(response.status),
                headers: response.headers.clone(),
                event_id: None,
            };
            let index = self.hop(
                event,
                crate::sim::Side::Server,
                "",
                true,
                Some(info),
                reply.rules,
                reply.note,
            );
            if let Some(crate::sim::EventKind::Message(m)) =
                self.rec.event_mut(index).map(|e| &mut e.kind)
            {
                m.label = format!("{} {}", response.status, http::reason(response.status));
            }
            let at = self.now.plus_millis(self.latency);
            self.schedule(
                at,
                Delivery::ToClientHttp {
                    response,
                    event: index,
                },
            );
            return false;
        }
        true
    }

    /// A request the gateway forwards: the client's token replaced by the
    /// gateway's own (G-NO-PASSTHROUGH; the rule and the note of the hop
    /// say so).
    pub(super) fn gateway_swaps(
        &self,
        headers: &mut Vec<(String, String)>,
        rules: &mut Vec<RuleId>,
        note: &mut Note,
    ) {
        let Some((_, own)) = self.bearer.as_ref().and_then(|b| b.gateway.as_ref()) else {
            return;
        };
        with_token(headers, own);
        rules.push(rules::G_NO_PASSTHROUGH);
        note.push(crate::note!("gateway.token_swapped", "It accepted the client's token, issued for the gateway, and sends the server its own token in its place: the client's never leaves the gateway."));
    }
}
