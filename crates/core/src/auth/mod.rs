//! Authorization over HTTP (2026-07-28, `basic/authorization`), sans-IO:
//! the MCP server's protected-resource side ([`resource`]: 401 and 403
//! challenges, audience and scope checks, its RFC 9728 metadata), a
//! simulated authorization server ([`server`]: RFC 8414 metadata,
//! registration, PKCE, consent, tokens, refresh), signed tokens
//! ([`token`]), PKCE S256 ([`pkce`]). A run of the whole flow between three
//! actors is [`crate::sim::auth_flow`]. Nothing here reads a clock or draws a random
//! number: times are arguments, codes and tokens are derived from the
//! set-up. Authorization applies to HTTP transports only (A-HTTP-ONLY).

pub mod pkce;
pub mod resource;
pub mod server;
pub mod token;

/// The MCP server's canonical URI in the simulated set-ups (its RFC 8707
/// `resource`, the audience of its tokens).
pub const RESOURCE: &str = "https://mcp.example.com/mcp";
/// Where the MCP server publishes its protected resource metadata.
pub const PRM_URL: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
/// The simulated authorization server's issuer.
pub const ISSUER: &str = "https://auth.example.com";
/// Another MCP server, for a token issued to the wrong audience.
pub const OTHER_RESOURCE: &str = "https://other.example.com/mcp";
/// The client's Client ID Metadata Document URL (its client ID).
pub const CLIENT_ID_URL: &str = "https://client.example.com/oauth/metadata.json";
/// Where the authorization server sends the user back with the code.
pub const REDIRECT_URI: &str = "http://127.0.0.1:33418/callback";

/// How the client gets its client ID (A-REGISTER).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registration {
    /// A Client ID Metadata Document: the client ID is its HTTPS URL.
    MetadataDocument,
    /// Dynamic client registration (RFC 7591).
    Dynamic,
    /// A client ID agreed beforehand.
    PreRegistered,
}

/// One thing a set-up gets wrong on purpose, to show what it costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Break {
    /// The client sends no PKCE challenge.
    NoPkce,
    /// The client asks for a token for another resource.
    WrongResource,
    /// The client asks for too few scopes (the server then challenges).
    MissingScope,
    /// The client's token has expired by the time it is used.
    ExpiredToken,
    /// The authorization response names another issuer.
    WrongIssuer,
    /// The server's 401 leaves `resource_metadata` out.
    NoResourceMetadata,
}
