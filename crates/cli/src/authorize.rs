//! `mcp-lanes client` against a protected server: the HTTP side of the
//! core's authorization flow ([`mcp_lanes_core::auth::client`]). When a run
//! meets HTTP 401 (or a 403 step-up), the core says which request to send
//! next, this module sends it and hands back the answer, until the core
//! holds a token (the run is then done again with it) or refuses. The authorization server's redirect is not followed: its
//! `Location` carries the code, `state` and `iss` the core checks. The PKCE
//! verifier, the `state` and a JWT ID are drawn from the operating system
//! here, the time read from its clock, and a client assertion signed with
//! the private key of `MCP_CONFORMANCE_CONTEXT` ([`crate::jws`]): the key
//! stays here, the core sees only the signature. So is the DPoP key
//! ([`crate::dpop`]) that signs the proofs the core asks for (A-DPOP-PROOF).

use mcp_lanes_core::auth::client::{Authorizer, Credentials, Decision, Extension, Next, Setup};
use mcp_lanes_core::check::protection::Answer;
use mcp_lanes_core::sim::{EventKind, Side, Timeline};
use serde_json::Value;
use std::sync::Arc;

use crate::driver::{fetch, Limits};

/// Where the suite's test client says its Client ID Metadata Document is
/// (the conformance scenarios check this client ID).
const CONFORMANCE_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";
/// The loopback redirect URI the client registers (the code is read from
/// the authorization server's `Location`, nothing listens there).
const REDIRECT_URI: &str = "http://127.0.0.1:33418/callback";
/// Requests of one flow at most (a server sending the client in circles).
const MAX_REQUESTS: usize = 20;
/// Authorizations of one run at most: a server that keeps refusing its
/// tokens is not asked forever (A-SCOPE-STEP-UP).
pub const MAX_AUTHORIZATIONS: usize = 3;

/// What the flow came to.
pub struct Outcome {
    /// The access token, when the client got one.
    pub token: Option<String>,
    /// The scope the authorization asked for.
    pub scope: Option<String>,
    /// Each decision with its rules, in order.
    pub decisions: Vec<Decision>,
    /// The key the token is bound to, when it is DPoP-bound
    /// (A-DPOP-PRESENT).
    pub dpop: Option<Arc<crate::dpop::Key>>,
}

fn random(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    // Without the system's generator the flow still runs, with a weak
    // verifier: better than none for a learning tool's test client.
    let _ = getrandom::fill(&mut buf);
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// Credentials from `MCP_CONFORMANCE_CONTEXT` (`client_id`, `client_secret`).
fn pre_registered(context: Option<&str>) -> Option<Credentials> {
    let v: Value = serde_json::from_str(context?).ok()?;
    Some(Credentials {
        client_id: v.get("client_id")?.as_str()?.to_string(),
        client_secret: v
            .get("client_secret")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// What `MCP_CONFORMANCE_CONTEXT` hands the client for a grant without a
/// user, with the private key kept apart (it never goes to the core):
/// `private_key_pem` (and `signing_algorithm`, ES256 when absent) for
/// `private_key_jwt`; `valid_jwt`, a workload's JWT; `idp_id_token` with
/// `idp_token_endpoint` and `idp_client_id`, for an ID-JAG.
fn extension(context: Option<&str>) -> (Option<Extension>, Option<String>) {
    let Some(v) = context.and_then(|c| serde_json::from_str::<Value>(c).ok()) else {
        return (None, None);
    };
    let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    if let Some(pem) = field("private_key_pem") {
        let alg = field("signing_algorithm").unwrap_or_else(|| "ES256".into());
        return (Some(Extension::SigningKey { alg }), Some(pem));
    }
    if let Some(jwt) = field("valid_jwt") {
        return (Some(Extension::WorkloadJwt(jwt)), None);
    }
    if let (Some(id_token), Some(token_endpoint)) =
        (field("idp_id_token"), field("idp_token_endpoint"))
    {
        let client_id = field("idp_client_id").unwrap_or_default();
        return (
            Some(Extension::IdToken {
                id_token,
                token_endpoint,
                client_id,
            }),
            None,
        );
    }
    (None, None)
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The first answer of a run that asks for authorization: HTTP 401, or
/// 403 with `error="insufficient_scope"` (a step-up).
pub fn challenge(timeline: &Timeline) -> Option<Answer> {
    timeline.events.iter().find_map(|e| {
        let EventKind::Message(m) = &e.kind else {
            return None;
        };
        let http = m.http.as_ref().filter(|_| m.from == Side::Server)?;
        let status = http.status?;
        let step_up = status == 403
            && http.headers.iter().any(|(k, v)| {
                k.eq_ignore_ascii_case("www-authenticate") && v.contains("insufficient_scope")
            });
        (status == 401 || step_up).then(|| Answer {
            status,
            headers: http.headers.clone(),
            body: m.wire.clone(),
        })
    })
}

/// Runs the flow after `answer` (a 401 or a 403 step-up) for the server
/// at `url`; `granted` is the scope asked before, if any.
pub fn authorize(
    url: &str,
    answer: &Answer,
    granted: Option<&str>,
    context: Option<&str>,
    limits: Limits,
) -> Outcome {
    let (extension, key) = extension(context);
    let dpop_key = crate::dpop::Key::random().map(Arc::new);
    let setup = Setup {
        endpoint: url.to_string(),
        redirect_uri: REDIRECT_URI.into(),
        verifier: random(32),
        state: random(16),
        metadata_url: CONFORMANCE_METADATA_URL.into(),
        client_name: "mcp-lanes client".into(),
        pre_registered: pre_registered(context),
        granted: granted
            .unwrap_or_default()
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        extension,
        now: now(),
        jti: random(16),
        dpop: dpop_key.is_some(),
    };
    let (mut auth, mut next) = Authorizer::start(setup, answer);
    let mut token = None;
    for _ in 0..MAX_REQUESTS {
        match next {
            Next::Send(call) => {
                let mut headers = call.headers;
                if let (Some(asked), Some(key)) = (&call.dpop, &dpop_key) {
                    let proof = key.proof(&call.method, &call.url, None, asked.nonce.as_deref());
                    headers.push(("DPoP".into(), proof));
                }
                let fetched = fetch::request(&call.url, &call.method, headers, call.body, limits);
                next = auth.answer(&fetched.answer);
            }
            Next::Authorized(t) => {
                token = Some(t);
                break;
            }
            Next::Sign { alg, input } => {
                let signature = match &key {
                    Some(pem) => crate::jws::sign(&alg, &input, pem),
                    None => Err("no private key".to_string()),
                };
                next = auth.signed(signature);
            }
            Next::Refused => break,
        }
    }
    Outcome {
        token,
        scope: auth.scope().map(str::to_string),
        dpop: dpop_key.filter(|_| auth.dpop_bound()),
        decisions: auth.decisions,
    }
}
