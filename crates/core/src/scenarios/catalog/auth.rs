//! The authorization scenarios (23 to 28): a protected server over HTTP,
//! drawn in three lanes with its authorization server: the happy path,
//! two ways to register, a scope step-up, and three failures the client
//! or the server catches (another resource's token, a wrong issuer, a
//! challenge without `resource_metadata`).

// The catalog's helpers and imports.
use super::*;
use crate::auth::{Break, Protection, Registration};

/// A lane whose server is protected: the flow of `protection`, with the
/// call the flow makes written as its script (what a scenario file shows).
fn protected(label: &str, protection: Protection) -> Setup {
    let mut s = setup(
        label,
        clients::plain(),
        servers::deploy_console(),
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
    number: 23,
    id: "auth-happy-path",
    title: en!("Authorization: the whole flow"),
    summary: en!(
        "401 naming the resource metadata, both metadata documents, consent with PKCE and resource, iss checked, the code exchanged, the call retried with the token."
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
    number: 24,
    id: "auth-registration",
    title: en!("Registration: a metadata document or dynamic"),
    summary: en!(
        "A client ID that is the URL of a metadata document, beside dynamic registration (RFC 7591)."
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
    number: 25,
    id: "auth-scope-step-up",
    title: en!("Scope step-up"),
    summary: en!(
        "A token with files:read only: 403 insufficient_scope, the union of the scopes asked for, the call retried."
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
    number: 26,
    id: "auth-audience",
    title: en!("A token for another resource"),
    summary: en!("A token issued for another server: the MCP server refuses it with 401."),
    lanes: 1,
    setups: || broken("token for another resource", Break::WrongResource),
};

pub(super) const AUTH_WRONG_ISSUER: Definition = Definition {
    number: 27,
    id: "auth-wrong-issuer",
    title: en!("A wrong issuer caught"),
    summary: en!(
        "The authorization response names another iss: the client sends the code nowhere."
    ),
    lanes: 1,
    setups: || broken("iss mismatch", Break::WrongIssuer),
};

pub(super) const AUTH_NO_RESOURCE_METADATA: Definition = Definition {
    number: 28,
    id: "auth-no-resource-metadata",
    title: en!("A 401 without resource_metadata"),
    summary: en!(
        "No resource_metadata in the 401: the client tries the well-known URI and goes on."
    ),
    lanes: 1,
    setups: || broken("no resource_metadata", Break::NoResourceMetadata),
};
