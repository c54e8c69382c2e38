//! The request editor's engine: check a hand-written request before it is
//! sent (path-aware, typed, no JSON Schema engine needed in the browser),
//! send it to a simulated server over stdio or HTTP keeping legacy session
//! state per connection, and describe the reply. Templates, capability and
//! version toggles and the MRTR "answer and retry" builder live here too, so
//! the UI never has to know protocol rules.
//!
//! API boundary: the UI uses [`EditorSession`] (send, history, timeline) and
//! the free functions re-exported here; the files are
//! `lint.rs` (checks), `templates.rs`, `edits.rs` (toggles and builders),
//! `session.rs` and `reply.rs` (describing an exchange), `arguments_form.rs`
//! (a `tools/call`'s arguments as a form built from the tool's schema).

pub mod arguments_form;
mod edits;
mod lint;
mod reply;
mod session;
mod templates;

use serde_json::Value;

pub use edits::{
    answer_and_retry, answer_server_request, declared, headers_for, set_capability, set_version,
    with_id,
};
/// The client of the editor's lane: the person at the editor (a view says
/// it in its own language).
pub const CLIENT_LABEL: &str = "you (the editor)";

pub use lint::{lint, lint_for, Lint, ParseProblem, Warning};
pub use reply::{check_reply, wire_error, Badge, Exchange, ServerMessage, WireError};
pub use session::{EditorSession, RemoteAnswer};
pub use templates::{methods, template_for, template_for_server, templates, Template};

/// Largest request the editor sends; larger text gets a clear message.
pub const MAX_REQUEST_BYTES: usize = 1024 * 1024;

/// Deepest nesting of arrays and objects the editor sends: the JSON
/// parser's own limit, so deeper text could never be read by a server.
pub const MAX_DEPTH: usize = 128;

/// JSON text to a value (templates are kept as text: smaller in
/// WebAssembly than `json!` literals).
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_default()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

#[cfg(test)]
mod tests;
