//! The authorization scenarios (23 to 28): a protected server over HTTP,
//! drawn in three lanes with its authorization server: the happy path,
//! two ways to register, a scope step-up, and three failures the client
//! or the server catches (another resource's token, a wrong issuer, a
//! challenge without `resource_metadata`).

// The catalog's helpers and imports.
use super::*;
use crate::auth::{Break, Protection, Registration};

/// The protected server: one tool, `search_files`, the call every lane's
/// script makes once it holds a token.
fn files_server() -> ServerConfig {
    use crate::protocol::Implementation;
    use crate::server::ToolSpec;
    let mut cfg = ServerConfig::new("files-server", Implementation::new("files-server", "1.0.0"));
    cfg.capabilities.tools = Some(Default::default());
    cfg.tools = vec![ToolSpec {
        name: "search_files".into(),
        description: "Search the user's files.".into(),
        input_schema: json!({"type": "object", "properties": {
            "query": {"type": "string"}
        }, "required": ["query"]}),
        result_text: "3 files found for {query}.".into(),
        ..Default::default()
    }];
    cfg
}

/// A lane whose server is protected: the flow of `protection`, met by
/// the lane's script, which runs once the client holds a token.
fn protected(label: &str, protection: Protection) -> Setup {
    let mut s = setup(
        label,
        clients::plain(),
        files_server(),
        HTTP,
        vec![call(
            "search_files",
            json!({"query": "quarterly report"}),
            None,
            false,
        )],
    );
    s.auth = Some(protection);
    s
}

fn broken(label: &str, b: Break) -> Vec<Setup> {
    vec![protected(
        label,
        Protection {
            broken: Some(b),
            ..Protection::default()
        },
    )]
}

pub(super) const AUTH_HAPPY_PATH: Definition = Definition {
    number: 24,
    id: "auth-happy-path",
    title: en!("Authorization: the whole flow"),
    summary: en!(
        "A call without a token gets 401 naming the resource metadata; the client reads \
        it and the authorization server's metadata, sends the user to consent with PKCE \
        and the resource, checks iss, exchanges the code and calls again with the token."
    ),
    lanes: 1,
    setups: || {
        vec![protected(
            "client ID metadata document",
            Protection::default(),
        )]
    },
};

pub(super) const AUTH_REGISTRATION: Definition = Definition {
    number: 25,
    id: "auth-registration",
    title: en!("Registration: a metadata document or dynamic"),
    summary: en!(
        "Side by side: a client whose ID is the URL of its metadata document, which the \
        authorization server fetches, and a client that registers dynamically (RFC 7591) \
        and gets a new ID."
    ),
    lanes: 2,
    setups: || {
        vec![
            protected("client ID metadata document", Protection::default()),
            protected(
                "dynamic registration",
                Protection {
                    registration: Registration::Dynamic,
                    ..Protection::default()
                },
            ),
        ]
    },
};

pub(super) const AUTH_SCOPE_STEP_UP: Definition = Definition {
    number: 26,
    id: "auth-scope-step-up",
    title: en!("Scope step-up"),
    summary: en!(
        "The first token carries files:read only; the call needs files:write too, so the \
        server answers 403 insufficient_scope and the client asks again for the union of \
        the scopes, then retries."
    ),
    lanes: 1,
    setups: || {
        vec![protected(
            "step-up to files:write",
            Protection {
                step_up: Some("files:write".into()),
                ..Protection::default()
            },
        )]
    },
};

pub(super) const AUTH_AUDIENCE: Definition = Definition {
    number: 27,
    id: "auth-audience",
    title: en!("A token for another resource"),
    summary: en!(
        "The client names another server as the resource: the token is issued for that \
        audience, and the MCP server refuses it with 401, passing it nowhere."
    ),
    lanes: 1,
    setups: || broken("token for another resource", Break::WrongResource),
};

pub(super) const AUTH_WRONG_ISSUER: Definition = Definition {
    number: 28,
    id: "auth-wrong-issuer",
    title: en!("A wrong issuer caught"),
    summary: en!(
        "The authorization response names another iss than the issuer the client \
        recorded: a mix-up. The client sends the code to no token endpoint."
    ),
    lanes: 1,
    setups: || broken("iss mismatch", Break::WrongIssuer),
};

pub(super) const AUTH_NO_RESOURCE_METADATA: Definition = Definition {
    number: 29,
    id: "auth-no-resource-metadata",
    title: en!("A 401 without resource_metadata"),
    summary: en!(
        "The server's challenge forgets resource_metadata: the client falls back to the \
        well-known URI built from the server's URL and the flow goes on."
    ),
    lanes: 1,
    setups: || broken("no resource_metadata", Break::NoResourceMetadata),
};
