//! Grading a server's protection (A-CHALLENGE, A-PRM, A-AS-METADATA,
//! A-AUDIENCE, A-SCOPE-STEP-UP) from what a checker observed over HTTP,
//! sans-IO: the CLI does the requests ([`probe_body`], the URLs of
//! [`challenge`]) and hands [`Observations`] to [`grade`].
//!
//! What is observed: the answer to a request without a token; the
//! protected resource metadata fetched from the challenge's
//! `resource_metadata`, or from the RFC 9728 well-known URIs when it names
//! none; the authorization server's metadata from its RFC 8414 / OpenID
//! Connect well-known URIs; and, when the person gave tokens, the answers
//! to the same request with a valid token, a token for another resource
//! and a token short of scope. A rule whose observation is missing is n/a
//! with why, never pass.

pub mod challenge;
mod judge;

use serde_json::Value;

use crate::rules::{self, RuleId};

pub use judge::grade;
pub(crate) use judge::{challenge_outcome, expected, scope_outcome};

/// The rules this grader judges, in the order it says them.
pub const RULES: &[RuleId] = &[
    rules::A_CHALLENGE,
    rules::A_PRM,
    rules::A_AS_METADATA,
    rules::A_AUDIENCE,
    rules::A_SCOPE_STEP_UP,
];

/// One HTTP answer, as it came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers, in order (names as sent).
    pub headers: Vec<(String, String)>,
    /// The body as text (cut at the checker's size limit).
    pub body: String,
}

/// One request the checker made: where, and what came back, or why
/// nothing did (the transport's words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetch {
    /// The URL asked.
    pub url: String,
    /// The answer, or why there was none.
    pub answer: Result<Answer, String>,
}

impl Fetch {
    /// The body as a JSON object, when the answer is a 200 with one.
    pub fn document(&self) -> Option<serde_json::Map<String, Value>> {
        let answer = self.answer.as_ref().ok()?;
        if answer.status != 200 {
            return None;
        }
        match serde_json::from_str::<Value>(&answer.body).ok()? {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }
}

/// Everything a protection check observed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Observations {
    /// The MCP endpoint's URL (the resource the metadata must name).
    pub endpoint: String,
    /// The answer to the request sent without a token.
    pub unauthenticated: Option<Fetch>,
    /// The protected resource metadata fetches, in the order tried; the
    /// checker stops at the first usable document.
    pub prm: Vec<Fetch>,
    /// The authorization server metadata fetches, in the order tried.
    pub as_metadata: Vec<Fetch>,
    /// The answer to the request with `--token`.
    pub token: Option<Fetch>,
    /// The answer to the request with `--other-audience-token`.
    pub other_audience: Option<Fetch>,
    /// The answer to the request with `--low-scope-token`.
    pub low_scope: Option<Fetch>,
}

impl Observations {
    /// Whether the unauthenticated answer asks for a token: HTTP 401, or
    /// any 401/403 with a `WWW-Authenticate` header.
    pub fn protected(&self) -> bool {
        let Some(Ok(answer)) = self.unauthenticated.as_ref().map(|f| &f.answer) else {
            return false;
        };
        answer.status == 401
            || (answer.status == 403
                && answer
                    .headers
                    .iter()
                    .any(|(k, _)| k.eq_ignore_ascii_case("www-authenticate")))
    }

    /// Where to fetch the protected resource metadata, in order: the
    /// challenge's `resource_metadata` (alone: the server said where),
    /// else the RFC 9728 well-known URIs of the endpoint.
    pub fn prm_urls(&self) -> Vec<String> {
        let named = self
            .unauthenticated
            .as_ref()
            .and_then(|f| f.answer.as_ref().ok())
            .and_then(|a| challenge::bearer(&a.headers))
            .and_then(|c| c.param("resource_metadata").map(str::to_string))
            .filter(|url| challenge::origin_and_path(url).is_some());
        match named {
            Some(url) => vec![url],
            None => challenge::prm_well_known(&self.endpoint),
        }
    }

    /// The first authorization server the usable protected resource
    /// metadata names, if any.
    pub fn issuer(&self) -> Option<String> {
        let doc = self.prm.iter().find_map(Fetch::document)?;
        doc.get("authorization_servers")?
            .as_array()?
            .first()?
            .as_str()
            .map(str::to_string)
    }

    /// Where to fetch the authorization server's metadata, in order.
    pub fn as_urls(&self) -> Vec<String> {
        self.issuer()
            .map(|issuer| challenge::as_well_known(&issuer))
            .unwrap_or_default()
    }
}

/// The body of the request a protection check sends (with and without
/// tokens): a 2026-07-28 `server/discover`, the first request of a check.
pub fn probe_body() -> String {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": crate::protocol::methods::DISCOVER,
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        }}
    })
    .to_string()
}

/// The headers of the probe request (without `Authorization`).
pub fn probe_headers() -> Vec<(String, String)> {
    [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", crate::protocol::methods::DISCOVER),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}
