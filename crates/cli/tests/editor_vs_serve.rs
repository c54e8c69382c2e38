//! Every reply the request editor shows for the `reference` preset is what
//! `mcp-lanes serve --preset reference` sends: each editor template of both
//! revisions (and a few reference calls) goes to an `EditorSession` and to
//! the real binary over stdio, and the messages must be equal, in order.

mod common;

use common::Proc;
use mcp_lanes_core::editor::{templates, EditorSession};
use mcp_lanes_core::server::presets;
use mcp_lanes_core::transport::TransportKind;
use serde_json::{json, Value};

/// What the editor shows for `text`: the server's messages (side effects,
/// then the reply), as the binary writes them to stdout.
fn editor_messages(session: &mut EditorSession, text: &str) -> Vec<Value> {
    let exchange = session.send(text, None);
    let mut out: Vec<Value> = exchange
        .side_effects
        .iter()
        .filter_map(|m| m.message.clone())
        .collect();
    out.extend(exchange.reply_json);
    out
}

fn compare(texts: &[String]) {
    let config = presets::server("reference").expect("reference preset");
    let mut session = EditorSession::new(config, TransportKind::Stdio);
    let mut proc = Proc::stdio("reference");
    for text in texts {
        let expected = editor_messages(&mut session, text);
        proc.send_line(
            &serde_json::from_str::<Value>(text)
                .expect("template is JSON")
                .to_string(),
        );
        let got: Vec<Value> = expected.iter().map(|_| proc.recv()).collect();
        assert_eq!(got, expected, "editor and serve differ for {text}");
    }
    // Nothing more was written: the next line answers a fresh request.
    let probe = json!({"jsonrpc": "2.0", "id": "probe", "method": "tools/list", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}});
    assert_eq!(proc.call(&probe)["id"], "probe");
}

#[test]
fn editor_replies_for_the_reference_preset_are_what_serve_sends() {
    let modern: Vec<String> = templates("2026-07-28")
        .into_iter()
        .map(|t| t.text)
        .collect();
    let extra = [
        json!({"jsonrpc": "2.0", "id": 70, "method": "tools/call", "params": {"name": "test_tool_with_progress", "arguments": {},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "progressToken": "p"}}}),
        json!({"jsonrpc": "2.0", "id": 71, "method": "tools/call", "params": {"name": "test_input_required_result_elicitation", "arguments": {},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}}}}),
        json!({"jsonrpc": "2.0", "id": 72, "method": "resources/read", "params": {"uri": "test://template/5/data",
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}),
    ];
    let mut texts = modern;
    texts.extend(extra.iter().map(Value::to_string));
    compare(&texts);
    let legacy: Vec<String> = templates("2025-11-25")
        .into_iter()
        .map(|t| t.text)
        .collect();
    compare(&legacy);
}
