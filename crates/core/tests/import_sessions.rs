//! A transcript tap recorded over HTTP with several sessions reads as a lane
//! per `Mcp-Session-Id` (as a HAR capture does): ids start over in each
//! session, and RPC-ID judges each on its own.

use mcp_lanes_core::check::{self, Outcome};
use mcp_lanes_core::import;
use serde_json::{json, Value};

fn session(id: &str, at: u64) -> Vec<Value> {
    let sid = json!({"mcp-session-id": id});
    vec![
        json!({"message": {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "c", "version": "1"}}},
            "from": "client", "at_ms": at, "http": {"method": "POST", "headers": {}}}),
        json!({"message": {"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
            "serverInfo": {"name": "s", "version": "1"}}},
            "from": "server", "at_ms": at + 1, "http": {"status": 200, "headers": sid}}),
        json!({"message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            "from": "client", "at_ms": at + 2, "http": {"method": "POST", "headers": sid}}),
        json!({"message": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}},
            "from": "server", "at_ms": at + 3, "http": {"status": 200, "headers": sid}}),
    ]
}

#[test]
fn rpc_id_each_http_session_of_a_transcript_is_a_lane_of_its_own() {
    let mut entries = session("aaa", 0);
    entries.extend(session("bbb", 10));
    let text = Value::Array(entries).to_string();
    let imported = import::read("tap.json", &text).expect("a transcript");
    assert_eq!(imported.lanes.len(), 2);
    assert_eq!(imported.lanes[0].label, "tap.json · aaa");
    assert_eq!(imported.lanes[1].label, "tap.json · bbb");
    for lane in &imported.lanes {
        assert_eq!(lane.messages().count(), 4, "{}", lane.label);
        let failed: Vec<_> = check::grade_recorded(lane)
            .into_iter()
            .filter(|v| v.verdict == Outcome::Fail)
            .map(|v| (v.rule, v.got))
            .collect();
        assert!(failed.is_empty(), "{}: {failed:?}", lane.label);
    }
    // One session, or none: one lane, as before.
    let one = Value::Array(session("aaa", 0)).to_string();
    let imported = import::read("one.json", &one).expect("a transcript");
    assert_eq!(imported.lanes.len(), 1);
    assert_eq!(imported.lanes[0].label, "one.json");
}

#[test]
fn a_long_session_id_is_shortened_in_its_lanes_title() {
    let mut entries = session("d945d610f905bbbfaa4e28661d27065f", 0);
    entries.extend(session("bbb", 10));
    let text = Value::Array(entries).to_string();
    let imported = import::read("tap.json", &text).expect("a transcript");
    assert_eq!(imported.lanes[0].label, "tap.json · d945d610…");
    assert_eq!(imported.lanes[1].label, "tap.json · bbb");
}
