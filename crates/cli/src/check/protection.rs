//! `check --url`'s authorization probes: a request without a token; when
//! it gets 401, the protected resource metadata and the authorization
//! server's metadata (GETs through the same HTTP stack and limits as the
//! flows), and the request again with each token the person gave. The
//! core's [`protection::grade`] judges what came back.

use mcp_lanes_core::check::protection::{self, Fetch, Observations};

use crate::driver::{fetch, Limits};

/// The tokens `check` may use (`--token`, `--other-audience-token`,
/// `--low-scope-token`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tokens {
    /// A token the server's authorization server issued for it.
    pub token: Option<String>,
    /// A token issued for another resource (another audience).
    pub other_audience: Option<String>,
    /// A token for the server with too little scope.
    pub low_scope: Option<String>,
    /// `--authorize`: without `token`, get one by the OAuth flow from
    /// the authorization server the server names.
    pub authorize: bool,
}

/// The probe request to the MCP endpoint, with `token` as a Bearer token.
fn probe(url: &str, token: Option<&str>, limits: Limits) -> Fetch {
    let mut headers = protection::probe_headers();
    if let Some(token) = token {
        headers.push(("authorization".into(), format!("Bearer {token}")));
    }
    fetch::request(url, "POST", headers, protection::probe_body(), limits)
}

/// GETs the first of `urls` that gives a usable JSON document (and every
/// one before it).
fn documents(urls: Vec<String>, limits: Limits) -> Vec<Fetch> {
    let mut out = Vec::new();
    for url in urls {
        let headers = vec![("accept".to_string(), "application/json".to_string())];
        let got = fetch::request(&url, "GET", headers, String::new(), limits);
        let usable = got.document().is_some();
        out.push(got);
        if usable {
            break;
        }
    }
    out
}

/// Observes the server's protection at `url`; with `--authorize` and no
/// token, a protected server's token is got by the OAuth flow first (into
/// `tokens`), or the reason there is none is returned.
pub(super) fn observe_authorizing(
    url: &str,
    tokens: &mut Tokens,
    limits: Limits,
) -> (Observations, Option<String>) {
    let obs = observe(url, tokens, limits);
    if !(obs.protected() && tokens.authorize && tokens.token.is_none()) {
        return (obs, None);
    }
    let Some(Ok(answer)) = obs.unauthenticated.as_ref().map(|f| f.answer.clone()) else {
        return (obs, None);
    };
    let outcome = crate::authorize::authorize(url, &answer, None, None, limits);
    match outcome.token {
        Some(token) => {
            tokens.token = Some(token);
            (observe(url, tokens, limits), None)
        }
        None => {
            let why = outcome
                .decisions
                .last()
                .map(|d| d.note.text().to_string())
                .unwrap_or_default();
            (obs, Some(why))
        }
    }
}

/// Observes the server's protection at `url`.
pub(super) fn observe(url: &str, tokens: &Tokens, limits: Limits) -> Observations {
    let mut obs = Observations {
        endpoint: url.to_string(),
        unauthenticated: Some(probe(url, None, limits)),
        ..Observations::default()
    };
    if !obs.protected() {
        return obs;
    }
    obs.prm = documents(obs.prm_urls(), limits);
    obs.as_metadata = documents(obs.as_urls(), limits);
    obs.token = tokens.token.as_deref().map(|t| probe(url, Some(t), limits));
    obs.other_audience = tokens
        .other_audience
        .as_deref()
        .map(|t| probe(url, Some(t), limits));
    obs.low_scope = tokens
        .low_scope
        .as_deref()
        .map(|t| probe(url, Some(t), limits));
    obs
}
