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
