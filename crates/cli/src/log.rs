//! Human-readable log lines on stderr (never stdout, which carries the
//! protocol on stdio) and short labels for JSON-RPC messages.

use std::io::{self, Write};
use std::time::Instant;

use mcp_lanes_core::server::{OutputKind, ServerOutput};
use serde_json::Value;

/// Milliseconds since `start`: the virtual time handed to the core.
pub fn millis_since(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Writes one log line to stderr, prefixed with the time in ms. A failing
/// stderr is ignored: logging never stops the server.
pub fn line(now: u64, text: &str) {
    let text = text.replace(['\n', '\r'], " ");
    let _ = writeln!(io::stderr().lock(), "[{now:>8} ms] {text}");
}

/// `[RULE, RULE]`, or nothing when there are no rules.
pub fn rules(rules: &[&str]) -> String {
    if rules.is_empty() {
        String::new()
    } else {
        format!(" [{}]", rules.join(", "))
    }
}

/// A short label for a message: `tools/call id 2`, `result id 2`,
/// `error -32021 id 2`, `input_required id 2`, `notifications/initialized`.
pub fn label(message: &Value) -> String {
    let id = match message.get("id") {
        Some(Value::Null) | None => String::new(),
        Some(id) => format!(" id {id}"),
    };
    if let Some(method) = message.get("method").and_then(Value::as_str) {
        return format!("{method}{id}");
    }
    if let Some(error) = message.get("error") {
        let code = error.get("code").map(Value::to_string).unwrap_or_default();
        return format!("error {code}{id}");
    }
    if let Some(result) = message.get("result") {
        let kind = match result.get("resultType").and_then(Value::as_str) {
            Some("input_required") => "input_required",
            _ if result.get("isError") == Some(&Value::Bool(true)) => "result (isError)",
            _ => "result",
        };
        return format!("{kind}{id}");
    }
    "message".into()
}

/// A label for raw input text: the message label when it is JSON, else a
/// note that it is not.
pub fn label_text(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => label(&value),
        Err(_) => format!("{} bytes of non-JSON text", text.len()),
    }
}

/// Logs one server output that is not a message to send (locks, drops,
/// decisions) or, with `sent` saying what became of it, one that is.
pub fn output(now: u64, out: &ServerOutput, sent: &str) {
    let what = match &out.kind {
        OutputKind::Send { message, .. } => format!("server sends {} ({sent})", label(message)),
        OutputKind::LockTaken(name) => format!("server takes {name}"),
        OutputKind::LockReleased(name) => format!("server releases {name}"),
        OutputKind::Dropped(what) => format!("server drops {what}"),
        OutputKind::Decision => "server decides".into(),
        OutputKind::Broadcast(change) => format!("server announces {change:?} to every instance"),
        other => format!("server output {other:?}"),
    };
    line(
        now,
        &format!("{what}{}: {}", rules(&out.rules), out.note.text()),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn labels() {
        assert_eq!(
            label(&json!({"jsonrpc":"2.0","id":2,"method":"tools/call"})),
            "tools/call id 2"
        );
        assert_eq!(
            label(&json!({"jsonrpc":"2.0","method":"notifications/initialized"})),
            "notifications/initialized"
        );
        assert_eq!(
            label(&json!({"jsonrpc":"2.0","id":null,"error":{"code":-32700}})),
            "error -32700"
        );
        assert_eq!(
            label(&json!({"jsonrpc":"2.0","id":"a","result":{"resultType":"input_required"}})),
            "input_required id \"a\""
        );
        assert_eq!(
            label(&json!({"jsonrpc":"2.0","id":1,"result":{"isError":true}})),
            "result (isError) id 1"
        );
        assert_eq!(label_text("nope"), "4 bytes of non-JSON text");
    }
}
