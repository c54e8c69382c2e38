//! The few answers decided at the transport edge, before the core sees any
//! text: input the core cannot be handed as a `&str` (bytes that are not
//! UTF-8) or should not be handed at all (more than it accepts). They use
//! the core's codes, limit and rule IDs, so they read like its own replies.

use mcp_lanes_core::protocol::jsonrpc::{self, ErrorCode, ErrorObject};
use mcp_lanes_core::rules::{self, RuleId};
use mcp_lanes_core::server::MAX_MESSAGE_BYTES;
use serde_json::Value;

/// A reply built here: the JSON-RPC message, its rules and note.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeReply {
    /// The JSON-RPC error response, without an id (none could be read).
    pub message: Value,
    /// Rules behind it.
    pub rules: Vec<RuleId>,
    /// One sentence for the log.
    pub note: String,
}

/// Input that is not UTF-8 is not JSON text (RFC 8259 §8.1): -32700.
pub fn not_utf8(err: &std::str::Utf8Error) -> EdgeReply {
    EdgeReply {
        message: jsonrpc::error(
            None,
            &ErrorObject::new(
                ErrorCode::PARSE_ERROR,
                format!("Parse error: invalid UTF-8 at byte {}", err.valid_up_to()),
            ),
        ),
        rules: vec![rules::RPC_PARSE],
        note: "The bytes are not UTF-8, so they are not JSON text: -32700 Parse error with no id."
            .into(),
    }
}

/// A stdio line longer than the core accepts: -32600, as the core answers
/// an over-long message, without buffering the whole line.
pub fn line_too_long(len: u64) -> EdgeReply {
    EdgeReply {
        message: jsonrpc::error(
            None,
            &ErrorObject::new(
                ErrorCode::INVALID_REQUEST,
                format!(
                    "Invalid Request: line of {len} bytes exceeds this server's {MAX_MESSAGE_BYTES} byte limit"
                ),
            ),
        ),
        rules: vec![rules::RPC_INVALID],
        note: "The line is larger than the server accepts, so it is skipped without being parsed."
            .into(),
    }
}

/// The simulated server panicked (a bug in the core): -32603, and the
/// server goes on with the next message.
pub fn internal_error() -> EdgeReply {
    EdgeReply {
        message: jsonrpc::error(
            None,
            &ErrorObject::new(
                ErrorCode::INTERNAL_ERROR,
                "Internal error: the simulated server failed",
            ),
        ),
        rules: Vec::new(),
        note: "The simulated server failed on this message (a bug); it keeps serving.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_replies_are_jsonrpc_errors_without_id() {
        let bad = vec![b'{', 0xff, b'}'];
        let Some(err) = String::from_utf8(bad).err().map(|e| e.utf8_error()) else {
            return;
        };
        let r = not_utf8(&err);
        assert!(r.message.get("id").is_none());
        assert_eq!(r.message["error"]["code"], ErrorCode::PARSE_ERROR.0);
        let r = line_too_long(5_000_000);
        assert_eq!(r.message["error"]["code"], ErrorCode::INVALID_REQUEST.0);
        assert_eq!(r.message["jsonrpc"], "2.0");
    }
}
