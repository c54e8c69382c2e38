//! The set-ups of scenario 30: who the caller is. One notes server with a
//! policy; alice, whose token grants writing, sees every tool, gets her
//! own notes and deletes one; bob, with a read-only token, does not see
//! the export tool, gets -32602 when he calls it anyway and 403
//! `insufficient_scope` when he tries to delete; over stdio, bob (the
//! principal the host launched the server as) gets a tool error instead;
//! carol, with no token at all, gets 401.

use serde_json::json;

use super::tool;
use crate::client::presets as clients;
use crate::client::{ClientConfig, Step};
use crate::identity::{Identity, Token};
use crate::protocol::{methods, Implementation};
use crate::server::{CallerResult, Policy, ServerConfig, ToolPolicy};
use crate::sim::Setup;
use crate::transport::{ChannelConfig, TransportKind};

/// The `team-notes` server and its policy.
pub(crate) fn team_notes() -> ServerConfig {
    let mut cfg = ServerConfig::new("team-notes", Implementation::new("team-notes", "1.0.0"));
    cfg.capabilities.tools = Some(Default::default());
    cfg.tools = vec![
        tool("read_notes", "Read the team's notes.", "3 shared notes."),
        tool("delete_note", "Delete a note.", "Note 2 deleted."),
        tool(
            "export_notes",
            "Export every note, private ones included.",
            "Exported 5 notes.",
        ),
    ];
    let names = |list: &[&str]| Some(list.iter().map(|s| s.to_string()).collect());
    cfg.policy = Some(Policy {
        tools: vec![
            ToolPolicy {
                tool: "read_notes".into(),
                results: vec![CallerResult {
                    principal: "alice".into(),
                    result: "3 shared notes and 2 of alice's own.".into(),
                }],
                ..Default::default()
            },
            ToolPolicy {
                tool: "delete_note".into(),
                callable_by: names(&["alice"]),
                scopes: vec!["notes:write".into()],
                ..Default::default()
            },
            ToolPolicy {
                tool: "export_notes".into(),
                visible_to: names(&["alice"]),
                ..Default::default()
            },
        ],
        launched_as: None,
    });
    cfg
}

fn caller(principal: &str, scopes: Option<&[&str]>) -> ClientConfig {
    let mut client = clients::plain();
    client.identity = Some(Identity {
        principal: principal.into(),
        token: scopes.map(|s| Token {
            scopes: s.iter().map(|s| s.to_string()).collect(),
        }),
    });
    client
}

fn list() -> Step {
    Step::Request {
        method: methods::TOOLS_LIST.into(),
        params: json!({}),
        declare: None,
        version: None,
        retry_on_missing_capability: true,
        follow_cursor: false,
        background: false,
    }
}

fn call(tool: &str) -> Step {
    Step::call_tool(tool, json!({}))
}

fn lane(label: &str, client: ClientConfig, kind: TransportKind, script: Vec<Step>) -> Setup {
    Setup {
        label: label.into(),
        client,
        server: team_notes(),
        channel: ChannelConfig::new(kind),
        script,
        server_events: Vec::new(),
        auth: None,
        gateway: None,
    }
}

/// Scenario 30's four set-ups.
pub(super) fn setups() -> Vec<Setup> {
    use TransportKind::{Http, Stdio};
    vec![
        lane(
            "alice, token with notes:write",
            caller("alice", Some(&["notes:read", "notes:write"])),
            Http,
            vec![list(), call("read_notes"), call("delete_note")],
        ),
        lane(
            "bob, read-only token",
            caller("bob", Some(&["notes:read"])),
            Http,
            vec![list(), call("export_notes"), call("delete_note")],
        ),
        lane(
            "bob over stdio",
            caller("bob", None),
            Stdio,
            vec![list(), call("delete_note")],
        ),
        lane("carol, no token", caller("carol", None), Http, vec![list()]),
    ]
}
