//! Authorization over HTTP (2026-07-28, `basic/authorization`), sans-IO:
//! the MCP server's protected-resource side ([`resource`]: 401 and 403
//! challenges, audience and scope checks, its RFC 9728 metadata), a
//! simulated authorization server ([`server`]: RFC 8414 metadata,
//! registration, PKCE, consent, tokens, refresh), signed tokens
//! ([`token`]), PKCE S256 ([`pkce`]); [`lab`] answers real HTTP with
//! them for `serve --auth`; [`client`] is the client's side of the flow
//! against a real server. A run of the whole flow between three
//! actors is [`crate::sim::auth_flow`]. Nothing here reads a clock or draws a random
//! number: times are arguments, codes and tokens are derived from the
//! set-up. Authorization applies to HTTP transports only (A-HTTP-ONLY).

pub mod client;
pub mod form;
pub mod lab;
pub mod pkce;
pub mod resource;
pub mod server;
pub mod token;

use serde::{Deserialize, Serialize};

/// The MCP server's canonical URI in the simulated set-ups (its RFC 8707
/// `resource`, the audience of its tokens).
pub const RESOURCE: &str = "https://mcp.example.com/mcp";
/// Where the MCP server publishes its protected resource metadata.
pub const PRM_URL: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
/// The simulated authorization server's issuer.
pub const ISSUER: &str = "https://auth.example.com";
/// Another MCP server, for a token issued to the wrong audience.
pub const OTHER_RESOURCE: &str = "https://other.example.com/mcp";
/// The gateway's canonical URI, when a gateway stands in front of the MCP
/// server: the resource the client sees, and its tokens' audience
/// (G-AUTH-RESOURCE).
pub const GATEWAY_RESOURCE: &str = "https://gateway.example.com/mcp";
/// Where the gateway publishes its own protected resource metadata.
pub const GATEWAY_PRM_URL: &str =
    "https://gateway.example.com/.well-known/oauth-protected-resource/mcp";
/// The gateway's client ID at the server's authorization server, for its
/// own tokens (G-NO-PASSTHROUGH).
pub const GATEWAY_CLIENT_ID: &str = "mcp-gateway";
/// The client's Client ID Metadata Document URL (its client ID).
pub const CLIENT_ID_URL: &str = "https://client.example.com/oauth/metadata.json";
/// Where the authorization server sends the user back with the code.
pub const REDIRECT_URI: &str = "http://127.0.0.1:33418/callback";

/// How the client gets its client ID (A-REGISTER).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Registration {
    /// A Client ID Metadata Document: the client ID is its HTTPS URL.
    #[default]
    MetadataDocument,
    /// Dynamic client registration (RFC 7591).
    Dynamic,
    /// A client ID agreed beforehand.
    PreRegistered,
}

/// One thing a set-up gets wrong on purpose, to show what it costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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

impl Registration {
    /// Every way, with its name in scenario files.
    pub const ALL: [(&'static str, Registration); 3] = [
        ("metadata-document", Registration::MetadataDocument),
        ("dynamic", Registration::Dynamic),
        ("pre-registered", Registration::PreRegistered),
    ];

    /// Its name in scenario files.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, r)| *r == self)
            .map_or("metadata-document", |(n, _)| n)
    }
}

impl Break {
    /// Every break, with its name in scenario files.
    pub const ALL: [(&'static str, Break); 6] = [
        ("no-pkce", Break::NoPkce),
        ("wrong-resource", Break::WrongResource),
        ("missing-scope", Break::MissingScope),
        ("expired-token", Break::ExpiredToken),
        ("wrong-issuer", Break::WrongIssuer),
        ("no-resource-metadata", Break::NoResourceMetadata),
    ];

    /// Its name in scenario files.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, b)| *b == self)
            .map_or("no-pkce", |(n, _)| n)
    }
}

/// A set-up's protected server (`Setup::auth`): over HTTP, the run is the
/// whole authorization flow between the client, the server and its
/// authorization server ([`crate::sim::auth_flow`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Protection {
    /// How the client gets its client ID.
    #[serde(default)]
    pub registration: Registration,
    /// A scope the called tool needs beyond the first one granted (a
    /// step-up, A-SCOPE-STEP-UP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_up: Option<String>,
    /// One step broken on purpose.
    #[serde(default, rename = "break", skip_serializing_if = "Option::is_none")]
    pub broken: Option<Break>,
}
