//! Who a client is, as the server sees it (issue 27, identities): a
//! client may carry a principal and, over HTTP, a bearer token with scopes
//! ([`Identity`]); a server that declares a policy
//! ([`crate::server::Policy`]) reads the caller ([`Caller`]) from the token
//! over HTTP, or from how it was launched over stdio (A-HTTP-ONLY).
//!
//! The token is one the simulated authorization server issued before the
//! run began: the same signed form as the authorization flow's
//! ([`crate::auth::token`]), under [`TOKEN_KEY`], for the MCP server's
//! canonical URI, with no expiry within a run. Nothing is drawn: the same
//! identity always gives the same token.

use serde::{Deserialize, Serialize};

use crate::auth::resource::ProtectedResource;
use crate::auth::token::{Claims, Signer};
use crate::auth::{ISSUER, RESOURCE};

/// The key the simulated authorization server signs identities' tokens
/// with, and the MCP server checks them with.
pub const TOKEN_KEY: &[u8] = b"mcp-lanes identities: the simulated authorization server";

/// A client's identity: its principal and, over HTTP, its token.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Who the client acts for (a user or service name).
    pub principal: String,
    /// Its bearer token over HTTP; `None`: it sends no `Authorization`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<Token>,
}

/// A bearer token the client carries, by what it grants.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    /// The scopes it grants.
    #[serde(default)]
    pub scopes: Vec<String>,
}

impl Identity {
    /// The `Authorization` header value the client sends over HTTP
    /// (A-BEARER), if it has a token.
    pub fn bearer(&self) -> Option<String> {
        let token = self.token.as_ref()?;
        let claims = Claims {
            iss: ISSUER.into(),
            aud: RESOURCE.into(),
            sub: self.principal.clone(),
            scope: token.scopes.clone(),
            exp_ms: u64::MAX,
            kind: "access".into(),
        };
        Some(format!("Bearer {}", Signer::new(TOKEN_KEY).seal(&claims)))
    }
}

/// The caller of the request being handled, as the server knows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Caller {
    /// Its principal; `None`: unknown (anonymous).
    pub principal: Option<String>,
    /// The scopes its token grants (none over stdio).
    pub scopes: Vec<String>,
}

impl Caller {
    /// Its principal, or `anonymous`.
    pub fn name(&self) -> &str {
        self.principal.as_deref().unwrap_or("anonymous")
    }
}

/// The MCP server's check of identities' tokens (the auth module's
/// protected resource, keyed with [`TOKEN_KEY`]).
pub fn resource() -> ProtectedResource {
    ProtectedResource::new(TOKEN_KEY, &[])
}
