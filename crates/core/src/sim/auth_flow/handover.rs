//! Where the flow meets a set-up: the set-up's first request in place of
//! the flow's own call, a gateway as the resource the client sees
//! (G-AUTH-RESOURCE) with a token of its own for the server
//! (G-NO-PASSTHROUGH), and the [`Bearer`] the engine's run goes on with.

use base64::Engine as _;

use super::{form, json_headers, FirstRequest, Hop, Run, KEY, READ};
use crate::auth::resource::ProtectedResource;
use crate::auth::server::AuthorizationServer;
use crate::auth::{GATEWAY_CLIENT_ID, GATEWAY_PRM_URL, GATEWAY_RESOURCE, RESOURCE};
use crate::note::Note;
use crate::rules::{self, RuleId};
use crate::sim::engine::{with_token, Bearer};
use crate::sim::Actor;

/// The gateway's secret at the server's authorization server (a set-up
/// constant, as the signing key).
const GATEWAY_SECRET: &str = "gateway-secret";

/// The actors of a flow: the gateway between the client and the server
/// when there is one.
pub(super) fn actors(gateway: bool) -> Vec<Actor> {
    if gateway {
        vec![
            Actor::Client,
            Actor::Gateway,
            Actor::Server,
            Actor::AuthServer,
        ]
    } else {
        vec![Actor::Client, Actor::Server, Actor::AuthServer]
    }
}

/// The resource the client sees: the server, or the gateway under its
/// own URI and metadata (G-AUTH-RESOURCE).
pub(super) fn resource_seen(gateway: bool) -> ProtectedResource {
    let mut resource = ProtectedResource::new(KEY, &[READ]);
    if gateway {
        resource.resource = GATEWAY_RESOURCE.into();
        resource.metadata_url = GATEWAY_PRM_URL.into();
    }
    resource
}

impl Run {
    /// What the resource the client sees answers, said as the gateway's
    /// own answer when it is the gateway (G-AUTH-RESOURCE).
    pub(super) fn by_resource(
        &self,
        mut rules: Vec<RuleId>,
        mut note: Note,
    ) -> (Vec<RuleId>, Note) {
        if self.resource == Actor::Gateway {
            rules.push(rules::G_AUTH_RESOURCE);
            note.push(crate::note!("auth.gateway_answers", "Here the resource the client sees is the gateway, not the server behind it: the gateway answers this itself, for its own URI, and forwards nothing to the server."));
        }
        (rules, note)
    }

    /// The set-up's first request's headers, with `token` as their
    /// `Authorization` or without one.
    pub(super) fn headers_with(&self, token: Option<&str>) -> Vec<(String, String)> {
        let mut headers = self
            .setup
            .request
            .as_ref()
            .map(|r| r.headers.clone())
            .unwrap_or_default();
        match token {
            Some(t) => with_token(&mut headers, t),
            None => headers.retain(|(k, _)| !k.eq_ignore_ascii_case("authorization")),
        }
        headers
    }

    /// Sends the set-up's first request, without a token or with one.
    pub(super) fn first_request(
        &mut self,
        first: &FirstRequest,
        token: Option<&str>,
    ) -> (u64, Vec<(String, String)>) {
        let headers = self.headers_with(token);
        // Each send is a new request, with a new id (RPC-ID).
        let id = first_id(&first.body) + self.id as i64;
        self.id += 1;
        let mut body = serde_json::from_str::<serde_json::Value>(&first.body).ok();
        let method = body
            .as_ref()
            .and_then(|v| v.get("method")?.as_str().map(str::to_string))
            .unwrap_or_else(|| first.method.clone());
        let text = match body.as_mut().and_then(|b| b.as_object_mut()) {
            Some(object) if object.contains_key("id") => {
                object.insert("id".into(), id.into());
                serde_json::Value::Object(object.clone()).to_string()
            }
            _ => first.body.clone(),
        };
        let note = match token {
            None => crate::note!("auth.request_without_token", "The client sends {method} without a token: it does not yet know the server is protected.", method = method.clone()),
            Some(_) => crate::note!("auth.request_with_token", "The client sends {method} again, its access token in the `Authorization` header.", method = method.clone()),
        };
        self.hop(Hop {
            from: Actor::Client,
            to: self.resource,
            request: Some((first.method.as_str(), first.path.clone())),
            status: None,
            headers: headers.clone(),
            body: text,
            label: method,
            rules: if token.is_some() {
                vec![rules::A_BEARER]
            } else {
                vec![rules::A_CHALLENGE]
            },
            note,
        });
        (0, headers)
    }
}

/// The id of the set-up's first request (1 when it has none).
fn first_id(body: &str) -> i64 {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("id")?.as_i64())
        .unwrap_or(1)
}

/// The client's token was accepted: with a gateway, the gateway gets its
/// own token for the server (G-NO-PASSTHROUGH); the checks and tokens of
/// the engine's run.
pub(super) fn accepted(
    run: &mut Run,
    auth: &mut AuthorizationServer,
    seen: &ProtectedResource,
    access: &str,
    needed: &[String],
) -> Bearer {
    let gateway = (run.resource == Actor::Gateway).then(|| {
        let own = gateway_token(run, auth, needed);
        (seen.clone(), own)
    });
    let first = run.setup.request.as_ref().map_or(1, |r| first_id(&r.body));
    Bearer {
        token: access.to_string(),
        first_id: first + run.id as i64,
        offset_ms: run.now,
        server: ProtectedResource::new(KEY, &[READ]),
        needed: needed.to_vec(),
        gateway,
    }
}

/// The gateway's own token for the server: the client credentials grant
/// at the server's authorization server, with the server's URI as
/// `resource` (A-CLIENT-CREDENTIALS, A-RESOURCE).
fn gateway_token(run: &mut Run, auth: &mut AuthorizationServer, needed: &[String]) -> String {
    run.decide(Actor::Gateway, vec![rules::G_NO_PASSTHROUGH], crate::note!("auth.gateway_keeps_token", "The client's token is for the gateway, and the gateway will not pass it on (token passthrough is forbidden): toward the server {resource} it needs a token of its own.", resource = RESOURCE));
    let scope = needed.join(" ");
    let basic = base64::engine::general_purpose::STANDARD
        .encode(format!("{GATEWAY_CLIENT_ID}:{GATEWAY_SECRET}"));
    run.hop(Hop {
        from: Actor::Gateway,
        to: Actor::AuthServer,
        request: Some(("POST", "/token".into())),
        status: None,
        headers: vec![
            ("content-type".into(), "application/x-www-form-urlencoded".into()),
            ("authorization".into(), format!("Basic {basic}")),
        ],
        body: form(&[
            ("grant_type", "client_credentials"),
            ("resource", RESOURCE),
            ("scope", &scope),
        ]),
        label: "POST /token (client credentials)".into(),
        rules: vec![rules::A_CLIENT_CREDENTIALS, rules::A_CLIENT_AUTH, rules::A_RESOURCE],
        note: crate::note!("auth.gateway_token_request", "The gateway asks the authorization server for a token of its own: client credentials, authenticated with its secret, for the resource {resource}.", resource = RESOURCE),
    });
    let tokens = auth.client_credentials(GATEWAY_CLIENT_ID, RESOURCE, needed, run.now);
    run.hop(Hop {
        from: Actor::AuthServer,
        to: Actor::Gateway,
        request: None,
        status: Some(200),
        headers: json_headers(),
        body: tokens.to_string(),
        label: "200 token (gateway)".into(),
        rules: vec![rules::A_CLIENT_CREDENTIALS, rules::G_NO_PASSTHROUGH],
        note: crate::note!("auth.gateway_token", "A token for {resource} that speaks for the gateway: the one the server will see in place of the client's.", resource = RESOURCE),
    });
    tokens["access_token"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}
