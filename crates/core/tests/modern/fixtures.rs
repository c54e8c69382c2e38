//! What the concerns share: the modern presets, the notes server made
//! modern-only, and a battery of valid requests with every server's replies.

use crate::common::schema::schemas;
use crate::common::*;
use mcp_lanes_core::protocol::version::EraMode;
use mcp_lanes_core::server::{presets, OutputKind, Server, ServerConfig};
use serde_json::{json, Value};

pub const MODERN_PRESETS: &[&str] = &["deploy-console", "order-desk", "dual-era"];

/// The notes server upgraded to modern-only: tools, resources and prompts,
/// so every cacheable method has something to answer.
pub fn modern_notes() -> ServerConfig {
    let mut cfg = presets::notes();
    cfg.era = EraMode::ModernOnly;
    cfg.modern_versions = vec![MODERN.into()];
    cfg.legacy_versions = Vec::new();
    if let Some(resources) = cfg.capabilities.resources.as_mut() {
        resources.subscribe = None;
    }
    cfg
}

/// Every modern server the tests use.
pub fn modern_servers() -> Vec<(String, Server)> {
    let mut out: Vec<(String, Server)> = MODERN_PRESETS
        .iter()
        .map(|p| (p.to_string(), server(p)))
        .collect();
    out.push(("modern notes".into(), Server::new(modern_notes())));
    out
}

/// A battery of valid modern requests; each server answers what it can.
pub fn battery() -> Vec<Value> {
    let rich = json!({"elicitation": {"form": {}, "url": {}}});
    vec![
        modern(json!(1), "server/discover", json!({}), json!({})),
        modern(json!(2), "tools/list", json!({}), json!({})),
        call(json!(3), "list_incidents", json!({}), json!({})),
        call(
            json!(4),
            "notify_oncall",
            json!({"incident": "INC-1"}),
            json!({}),
        ),
        call(
            json!(5),
            "notify_oncall",
            json!({"incident": "INC-1"}),
            rich.clone(),
        ),
        call(
            json!(6),
            "confirm_order",
            json!({"order_id": "A-1042"}),
            json!({}),
        ),
        call(
            json!(7),
            "confirm_order",
            json!({"order_id": "A-1042"}),
            rich.clone(),
        ),
        call(
            json!(8),
            "read_note",
            json!({"title": "standup"}),
            json!({}),
        ),
        call(json!(9), "no_such_tool", json!({}), json!({})),
        modern(json!(10), "prompts/list", json!({}), json!({})),
        modern(json!(11), "resources/list", json!({}), json!({})),
        modern(json!(12), "resources/templates/list", json!({}), json!({})),
        modern(
            json!(13),
            "resources/read",
            json!({"uri": "note://standup"}),
            json!({}),
        ),
        modern(
            json!(14),
            "resources/read",
            json!({"uri": "note://missing"}),
            json!({}),
        ),
        modern(
            json!(15),
            "prompts/get",
            json!({"name": "summarize_notes"}),
            json!({}),
        ),
        modern(json!(16), "ping", json!({}), json!({})),
        modern(json!(17), "no/such/method", json!({}), json!({})),
        modern_v(json!(18), "tools/list", json!({}), "2025-11-25", json!({})),
        // A cursor the server never issued is -32602 (M-PAGINATION): this
        // one asks for the first page, with a string id.
        modern(json!("s-19"), "tools/list", json!({}), rich),
    ]
}

/// Every (request, reply) of the battery on every modern server, checked
/// against the schema on the way.
pub fn battery_replies() -> Vec<(String, Value, Value)> {
    let mut out = Vec::new();
    for (name, mut server) in modern_servers() {
        for request in battery() {
            let reply = send(&mut server, &request)
                .unwrap_or_else(|| panic!("{name}: no reply to {request}"));
            assert_eq!(reply.revision, MODERN, "{name}: {request}");
            let method = request["method"].as_str().expect("method");
            if let Err(f) = schemas().validate_message(MODERN, &reply.message, Some(method)) {
                panic!(
                    "{name}: reply to {request} does not validate {f}\n  {}",
                    reply.message
                );
            }
            // Modern servers never send requests to the client (M-MRTR).
            for out in drain(&mut server) {
                assert!(
                    !matches!(out.kind, OutputKind::Send { .. }),
                    "{name}: a modern server sent something on its own: {out:?}"
                );
            }
            out.push((name.clone(), request, reply.message));
        }
    }
    out
}
