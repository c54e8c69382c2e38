//! `serve --transport stdio`: the simulated server on real stdin/stdout,
//! driven with hand-written lines.

mod common;

use common::{modern, Proc};
use serde_json::{json, Value};

fn exits_zero_when_stdin_closes(mut proc: Proc) {
    let status = proc.close_and_wait();
    assert!(status.success(), "exit status {status:?}");
}

#[test]
fn m_discover_result_over_stdio() {
    let mut p = Proc::stdio("deploy-console");
    let reply = p.call(&modern(1, "server/discover", json!({}), json!({})));
    let result = &reply["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(result["ttlMs"], 3_600_000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "deploy-console", "version": "2.4.0"})
    );
    assert!(result["instructions"].is_string());
    // The log names the rules on stderr; stdout carried only the reply.
    p.stderr_line("M-DISCOVER");
    exits_zero_when_stdin_closes(p);
}

#[test]
fn m_cap_required_per_request_over_stdio() {
    let mut p = Proc::stdio("deploy-console");
    let call = |id, caps| {
        modern(
            id,
            "tools/call",
            json!({"name": "notify_oncall", "arguments": {"incident": "INC-4211"}}),
            caps,
        )
    };
    let refused = p.call(&call(1, json!({})));
    assert_eq!(refused["error"]["code"], -32021);
    let required = &refused["error"]["data"]["requiredCapabilities"];
    assert!(
        required.is_object(),
        "shaped like ClientCapabilities: {required}"
    );
    assert!(required.get("elicitation").is_some(), "{required}");

    let served = p.call(&call(2, json!({"elicitation": {}})));
    assert_eq!(served["result"]["resultType"], "complete", "{served}");

    // M-STATELESS: dropping the declaration is refused again.
    let again = p.call(&call(3, json!({})));
    assert_eq!(again["error"]["code"], -32021);
    exits_zero_when_stdin_closes(p);
}

#[test]
fn rpc_parse_not_json_gets_32700_and_serving_goes_on() {
    let mut p = Proc::stdio("deploy-console");
    p.send_line("this is not JSON");
    let reply = p.recv();
    assert_eq!(reply["error"]["code"], -32700);
    assert!(
        reply.get("id").is_none() || reply["id"].is_null(),
        "{reply}"
    );
    let ok = p.call(&modern(1, "server/discover", json!({}), json!({})));
    assert!(ok.get("result").is_some());
    exits_zero_when_stdin_closes(p);
}

#[test]
fn m_unknown_method_gets_32601() {
    let mut p = Proc::stdio("deploy-console");
    let reply = p.call(&modern(7, "no/such/method", json!({}), json!({})));
    assert_eq!(reply["error"]["code"], -32601);
    exits_zero_when_stdin_closes(p);
}

#[test]
fn rpc_notify_gets_no_reply_line() {
    let mut p = Proc::stdio("deploy-console");
    p.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
    );
    p.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    // The next line on stdout answers the next request: nothing came for
    // the notifications in between.
    let reply = p.call(&modern(9, "server/discover", json!({}), json!({})));
    assert!(reply.get("result").is_some());
    exits_zero_when_stdin_closes(p);
}

#[test]
fn rpc_parse_bad_bytes_huge_lines_and_blank_lines_do_not_stop_the_server() {
    let mut p = Proc::stdio("deploy-console");
    // Invalid UTF-8 (even inside what looks like JSON): a parse error.
    p.write(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}\n");
    assert_eq!(p.recv()["error"]["code"], -32700);
    // A line over the 4 MiB limit: -32600, without being parsed.
    let mut huge = vec![b'x'; 5 * 1024 * 1024];
    huge.push(b'\n');
    p.write(&huge);
    assert_eq!(p.recv()["error"]["code"], -32600);
    // A blank line and a CRLF line ending.
    p.write(b"\n   \n");
    let mut crlf = modern(2, "server/discover", json!({}), json!({})).to_string();
    crlf.push_str("\r\n");
    p.write(crlf.as_bytes());
    let reply = p.recv();
    assert_eq!(reply["id"], 2);
    assert!(reply.get("result").is_some());
    // Valid JSON that is not a request.
    p.send_line("[1, 2, 3]");
    assert_eq!(p.recv()["error"]["code"], -32600);
    assert!(p.running());
    exits_zero_when_stdin_closes(p);
}

#[test]
fn stdin_closed_mid_line_exits_zero() {
    let mut p = Proc::stdio("deploy-console");
    p.write(b"{\"jsonrpc\":");
    p.close_stdin();
    // The unterminated last line is still a message, and not JSON.
    assert_eq!(p.recv()["error"]["code"], -32700);
    let status = p.wait_exit();
    assert!(status.success(), "{status:?}");
}

#[test]
fn l_init_legacy_notes_handshake_over_stdio() {
    let mut p = Proc::stdio("notes");
    let init = p.call(&json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"roots": {"listChanged": true}},
            "clientInfo": {"name": "test-host", "version": "1.0"}
        }
    }));
    let result = &init["result"];
    assert_eq!(result["protocolVersion"], "2025-06-18");
    assert_eq!(result["instructions"], "Read notes before writing them.");
    assert_eq!(result["serverInfo"]["name"], "notes");
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    p.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let tools = p.call(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert!(names.contains(&"read_note"), "{tools}");
    let note = p.call(&json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "read_note", "arguments": {"title": "standup"}}
    }));
    assert!(note.get("result").is_some(), "{note}");
    exits_zero_when_stdin_closes(p);
}

#[test]
fn l_cap_session_server_initiated_elicitation_is_written_to_stdout() {
    let mut p = Proc::stdio("search-index");
    let init = p.call(&json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "test-host", "version": "1.0"}
        }
    }));
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    p.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    p.send(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "purge_index", "arguments": {"index": "prod-catalog"}}
    }));
    // The server asks before answering (poll_output → stdout).
    let ask: Value = p.recv();
    assert_eq!(ask["method"], "elicitation/create", "{ask}");
    let ask_id = ask["id"].clone();
    assert!(!ask_id.is_null());
    p.send(&json!({
        "jsonrpc": "2.0", "id": ask_id,
        "result": {"action": "accept", "content": {"retention_days": 30}}
    }));
    let done = p.recv();
    assert_eq!(done["id"], 1, "{done}");
    assert!(done.get("result").is_some(), "{done}");
    p.stderr_line("index lock");
    exits_zero_when_stdin_closes(p);
}

#[test]
fn l_undeclared_disconnect_releases_the_lock() {
    let mut p = Proc::stdio("search-index");
    p.call(&json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "test-host", "version": "1.0"}
        }
    }));
    p.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    p.send(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "purge_index", "arguments": {"index": "prod-catalog"}}
    }));
    assert_eq!(p.recv()["method"], "elicitation/create");
    let status = p.close_and_wait();
    assert!(status.success(), "{status:?}");
    // handle_disconnect ran: the handler released what it held.
    p.stderr_line("server releases index lock");
}
