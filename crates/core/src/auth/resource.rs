//! The MCP server as an OAuth protected resource: its RFC 9728 metadata,
//! and the check every HTTP request passes before the MCP server reads
//! it: no token or a bad one gets 401 with `WWW-Authenticate` naming the
//! metadata (A-CHALLENGE, A-AUDIENCE), a token short of a scope gets
//! 403 `insufficient_scope` (A-SCOPE-STEP-UP).

use serde_json::{json, Value};

use super::token::{Claims, Signer};
use super::{ISSUER, PRM_URL, RESOURCE};
use crate::note::Note;
use crate::rules::{self, RuleId};

/// Why a request is refused, as the server says it on the wire.
#[derive(Debug, Clone, PartialEq)]
pub struct Challenge {
    /// 401 or 403.
    pub status: u16,
    /// The `WWW-Authenticate` header's value.
    pub www_authenticate: String,
    /// The rules behind the refusal.
    pub rules: Vec<RuleId>,
    /// What happened, for the learner.
    pub note: Note,
}

/// The protected-resource side of an MCP server.
#[derive(Debug, Clone, PartialEq)]
pub struct ProtectedResource {
    /// Its canonical URI.
    pub resource: String,
    /// Its authorization server's issuer.
    pub issuer: String,
    /// The scopes a client starts with (`scopes_supported`).
    pub scopes: Vec<String>,
    /// Where its protected resource metadata is published (what a
    /// challenge's `resource_metadata` names).
    pub metadata_url: String,
    /// Leave `resource_metadata` out of challenges (a broken server).
    pub omit_metadata: bool,
    signer: Signer,
}

impl ProtectedResource {
    /// The simulated server, checking tokens signed with `key`.
    pub fn new(key: &[u8], scopes: &[&str]) -> ProtectedResource {
        ProtectedResource {
            resource: RESOURCE.into(),
            issuer: ISSUER.into(),
            scopes: scopes.iter().map(|s| s.to_string()).collect(),
            metadata_url: PRM_URL.into(),
            omit_metadata: false,
            signer: Signer::new(key),
        }
    }

    /// Its protected resource metadata document (A-PRM).
    pub fn metadata(&self) -> Value {
        json!({
            "resource": self.resource,
            "authorization_servers": [self.issuer],
            "scopes_supported": self.scopes,
            "bearer_methods_supported": ["header"],
        })
    }

    fn header(&self, extra: &str, scope: &[String]) -> String {
        let mut parts = Vec::new();
        if !extra.is_empty() {
            parts.push(extra.to_string());
        }
        if !scope.is_empty() {
            parts.push(format!("scope=\"{}\"", scope.join(" ")));
        }
        if !self.omit_metadata {
            parts.push(format!("resource_metadata=\"{}\"", self.metadata_url));
        }
        format!("Bearer {}", parts.join(", "))
    }

    /// Checks a request's headers at `now_ms` for an operation needing
    /// `needed` scopes: the token's claims, or the challenge to answer.
    pub fn check(
        &self,
        headers: &[(String, String)],
        needed: &[&str],
        now_ms: u64,
    ) -> Result<Claims, Box<Challenge>> {
        let needed: Vec<String> = needed.iter().map(|s| s.to_string()).collect();
        let bearer = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("authorization"))
            .and_then(|(_, v)| v.strip_prefix("Bearer "));
        let unauthorized = |extra: &str, note: Note| {
            Box::new(Challenge {
                status: 401,
                www_authenticate: self.header(extra, &needed),
                rules: vec![rules::A_CHALLENGE, rules::A_AUDIENCE],
                note,
            })
        };
        let Some(token) = bearer else {
            let note = if self.omit_metadata {
                crate::note!("auth.no_token_no_metadata", "No token: the server answers 401, but its `WWW-Authenticate` leaves out `resource_metadata`, so the client has to try the well-known URI itself.")
            } else {
                crate::note!("auth.no_token", "No token: the server answers 401, and its `WWW-Authenticate` names its protected resource metadata and the scope needed.")
            };
            return Err(Box::new(Challenge {
                rules: vec![rules::A_CHALLENGE],
                ..*unauthorized("", note)
            }));
        };
        let invalid = "error=\"invalid_token\"";
        let Some(claims) = self.signer.open(token).filter(|c| c.kind == "access") else {
            return Err(unauthorized(invalid, crate::note!("auth.token_invalid", "The token is not one the server's authorization server issued: 401 `invalid_token`.")));
        };
        if claims.iss != self.issuer || claims.aud != self.resource {
            return Err(unauthorized(invalid, crate::note!("auth.token_audience", "The token was issued for {aud}, not for this server: it refuses it with 401 and passes it nowhere.", aud = claims.aud)));
        }
        if now_ms >= claims.exp_ms {
            return Err(unauthorized(
                invalid,
                crate::note!(
                    "auth.token_expired",
                    "The token expired at {exp} ms: 401 `invalid_token`.",
                    exp = claims.exp_ms
                ),
            ));
        }
        let missing: Vec<String> = needed.iter().filter(|s| !claims.has(s)).cloned().collect();
        if !missing.is_empty() {
            return Err(Box::new(Challenge {
                status: 403,
                www_authenticate: self.header("error=\"insufficient_scope\"", &needed),
                rules: vec![rules::A_SCOPE_STEP_UP],
                note: crate::note!("auth.insufficient_scope", "The token lacks {missing}: 403 `insufficient_scope`, naming every scope this call needs.", missing = missing.join(" ")),
            }));
        }
        Ok(claims)
    }
}
