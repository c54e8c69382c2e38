//! `mcp-lanes client` against a protected server: the HTTP side of the
//! core's authorization flow ([`mcp_lanes_core::auth::client`]). When a run
//! meets HTTP 401 (or a 403 step-up), the core says which request to send
//! next, this module sends it and hands back the answer, until the core
//! holds a token (the run is then done again with it) or refuses. The authorization server's redirect is not followed: its
//! `Location` carries the code, `state` and `iss` the core checks. The PKCE
//! verifier and the `state` are drawn from the operating system here, and
//! so is the DPoP key ([`crate::dpop`]) that signs the proofs the core
//! asks for (A-DPOP-PROOF).

use mcp_lanes_core::auth::client::{Authorizer, Credentials, Decision, Next, Setup};
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
    let key = crate::dpop::Key::random().map(Arc::new);
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
        dpop: key.is_some(),
    };
    let (mut auth, mut next) = Authorizer::start(setup, answer);
    let mut token = None;
    for _ in 0..MAX_REQUESTS {
        match next {
            Next::Send(call) => {
                let mut headers = call.headers;
                if let (Some(asked), Some(key)) = (&call.dpop, &key) {
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
            Next::Refused => break,
        }
    }
    Outcome {
        token,
        scope: auth.scope().map(str::to_string),
        dpop: key.filter(|_| auth.dpop_bound()),
        decisions: auth.decisions,
    }
}
