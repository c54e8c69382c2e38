//! Unit tests of who sent what; the formats on real material are in
//! `crates/core/tests/import.rs`.

use super::*;
use crate::sim::Side;

fn senders(text: &str) -> Vec<Option<Side>> {
    let imported = read("t.json", text).expect("reads");
    imported.lanes[0]
        .messages()
        .map(|(_, m)| m.sender())
        .collect()
}

#[test]
fn a_response_goes_back_to_whoever_sent_the_request_with_its_id() {
    // elicitation/create is the server's (METHODS); its answer the client's.
    let text = r#"[
      {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {}},
      {"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}
    ]"#;
    assert_eq!(senders(text), [Some(Side::Server), Some(Side::Client)]);
}

#[test]
fn a_modern_shaped_request_of_an_unknown_method_is_the_clients() {
    let text = r#"[
      {"jsonrpc": "2.0", "id": 1, "method": "acme/search", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}},
      {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}
    ]"#;
    assert_eq!(senders(text), [Some(Side::Client), Some(Side::Server)]);
}

#[test]
fn a_wrappers_from_settles_it_and_undecided_stays_undecided() {
    let text = r#"[
      {"message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "from": "server"},
      {"message": {"jsonrpc": "2.0", "id": 1, "result": {}}, "direction": "undecided"},
      {"message": {"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}}
    ]"#;
    assert_eq!(senders(text), [Some(Side::Server), None, None]);
}

#[test]
fn a_client_that_left_is_read_as_it_disconnecting_where_it_happened() {
    use crate::sim::EventKind;
    let text = r#"[
      {"message": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, "from": "client", "at_ms": 3},
      {"left": "client", "why": "before_answer", "request": "POST /mcp", "at_ms": 9},
      {"message": {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}, "from": "server", "at_ms": 12}
    ]"#;
    let imported = read("t.json", text).expect("reads");
    let lane = &imported.lanes[0];
    assert_eq!(lane.events.len(), 3);
    assert_eq!(
        lane.events[1].kind,
        EventKind::Disconnected { side: Side::Client }
    );
    assert_eq!(lane.events[1].at_ms, 9);
    assert_eq!(lane.events[1].index, 1);
    assert!(
        lane.events[1]
            .note
            .contains("before the answer to POST /mcp"),
        "{}",
        lane.events[1].note
    );
    assert!(lane.events[1].note_msg.is_some());
    // Who sent the answer is still read from its request.
    assert_eq!(senders(text), [Some(Side::Client), Some(Side::Server)]);
    assert!(lane.summary.outcome.starts_with("2 messages"));
}

#[test]
fn a_departure_with_a_wrong_side_ends_the_lane_with_a_notice() {
    let text = r#"[
      {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
      {"left": "host", "at_ms": 9}
    ]"#;
    let imported = read("t.json", text).expect("reads");
    assert_eq!(imported.lanes[0].events.len(), 1);
    assert!(imported.notices[0].note.text().contains("`left`"));
}

#[test]
fn s_answer_an_answer_read_after_the_client_closed_its_input_is_graded() {
    use crate::check::{grade_recorded, Outcome};
    // Over stdio a client closes its input and still reads what comes.
    let answered = r#"[
      {"message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}, "from": "client", "at_ms": 1},
      {"left": "client", "why": "closed_stdin", "at_ms": 2},
      {"message": {"jsonrpc": "2.0", "id": 1, "result": {}}, "from": "server", "at_ms": 3}
    ]"#;
    let lane = &read("t.json", answered).expect("reads").lanes[0];
    let answer = grade_recorded(lane)
        .into_iter()
        .find(|v| v.rule == "S-ANSWER")
        .expect("S-ANSWER");
    assert_eq!(answer.verdict, Outcome::Pass, "{answer:?}");
    // Nothing came: the client left first, no failure of the server's.
    let left = r#"[
      {"message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}, "from": "client", "at_ms": 1},
      {"left": "client", "why": "closed_stdin", "at_ms": 2}
    ]"#;
    let lane = &read("t.json", left).expect("reads").lanes[0];
    let answer = grade_recorded(lane)
        .into_iter()
        .find(|v| v.rule == "S-ANSWER")
        .expect("S-ANSWER");
    assert_eq!(answer.verdict, Outcome::NotApplicable, "{answer:?}");
    assert!(
        answer.got.contains("client closed the connection"),
        "{answer:?}"
    );
}
