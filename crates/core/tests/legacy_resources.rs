//! An unknown resource is answered with the code of the session's
//! revision: -32002 Resource not found in a legacy session (2024-11-05 to
//! 2025-11-25, L-RESOURCE-NOT-FOUND), -32602 in 2026-07-28 (M-RESOURCES),
//! the URI in `data` either way. Found by the course lesson on resources
//! (`tests/lessons/10-resources.json`).

mod common;

use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{Side, Timeline};
use serde_json::{json, Value};

fn read_unknown(server: &str, client: Value) -> Timeline {
    let value = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "servers": [{"id": "docs", "era": "dual", "resources": [{"uri": "doc://a", "text": "A"}]}],
        "clients": [client],
        "setups": [{"client": "c", "server": server, "steps": [{"do": "read", "uri": "doc://missing"}]}]
    });
    let loaded = file::load_value(&value).unwrap_or_else(|e| {
        panic!(
            "{:?}",
            e.iter().map(ToString::to_string).collect::<Vec<_>>()
        )
    });
    let timeline = scenarios::run_setups(&loaded.setups).remove(0);
    common::assert_timeline_valid(&timeline);
    timeline
}

fn error_of(t: &Timeline) -> (Value, Vec<&'static str>, String) {
    let (event, message) = t
        .messages()
        .find(|(_, m)| {
            m.from == Side::Server && m.json.as_ref().is_some_and(|j| j.get("error").is_some())
        })
        .expect("an error");
    let json = message.json.clone().expect("json");
    (
        json["error"].clone(),
        event.rules.clone(),
        event.note.clone(),
    )
}

#[test]
fn l_resource_not_found_is_32002_with_the_uri_in_every_legacy_session() {
    for (server, version) in [
        ("docs", "2025-11-25"),
        ("docs", "2025-06-18"),
        ("reference", "2025-11-25"),
    ] {
        let t = read_unknown(
            server,
            json!({"id": "c", "era": "legacy", "legacyVersions": [version]}),
        );
        let (error, rules, note) = error_of(&t);
        assert_eq!(error["code"], -32002, "{server} {version}: {error}");
        assert_eq!(error["data"]["uri"], "doc://missing", "{error}");
        assert!(rules.contains(&"L-RESOURCE-NOT-FOUND"), "{rules:?}");
        assert!(
            note.contains(version) && !note.contains("never the old"),
            "{note}"
        );
    }
}

#[test]
fn m_resources_an_unknown_resource_stays_32602_in_2026_07_28() {
    for server in ["docs", "reference"] {
        let t = read_unknown(server, json!({"id": "c"}));
        let (error, rules, _) = error_of(&t);
        assert_eq!(error["code"], -32602, "{server}: {error}");
        assert_eq!(error["data"]["uri"], "doc://missing");
        assert!(rules.contains(&"M-RESOURCES"), "{rules:?}");
    }
}
