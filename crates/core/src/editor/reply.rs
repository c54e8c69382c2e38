//! Describing what came back: the [`Exchange`] the reply pane shows, its
//! badge, and a check of the reply's shape against its schema type.

use serde_json::{json, Value};

use super::pretty;
use crate::note::Note;
use crate::protocol::jsonrpc::{ErrorCode, RequestId};
use crate::protocol::ResultType;
use crate::rules::RuleId;
use crate::sim::EventKind;

/// How a reply is summed up in one badge.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Badge {
    /// A complete result.
    Result,
    /// An MRTR `input_required` result.
    InputRequired,
    /// A tool result with `isError`.
    ToolError,
    /// A JSON-RPC error with this code.
    Error(i64),
    /// No reply (a notification, or a silent server).
    NoReply,
    /// An HTTP response without a JSON-RPC body.
    HttpOnly(u16),
}

impl Badge {
    /// Short text for the badge.
    pub fn label(&self) -> String {
        match self {
            Badge::Result => "result".into(),
            Badge::InputRequired => "input_required".into(),
            Badge::ToolError => "tool error (isError)".into(),
            Badge::Error(code) => format!("error {code}"),
            Badge::NoReply => "no reply".into(),
            Badge::HttpOnly(status) => format!("HTTP {status}, no body"),
        }
    }
}

/// A message the server sent on its own while handling the request (e.g. a
/// legacy elicitation/create).
#[derive(Debug, Clone, PartialEq)]
pub struct ServerMessage {
    /// Pretty JSON (or a description of a lock or drop).
    pub text: String,
    /// The message, when the server sent one.
    pub message: Option<Value>,
    /// The timeline event, when it is a lock or a drop.
    pub event: Option<EventKind>,
    /// Rules behind it.
    pub rules: Vec<RuleId>,
    /// Why.
    pub note: Note,
}

/// Everything the editor shows about one sent request.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    /// The text as sent on the wire.
    pub sent: String,
    /// HTTP request headers, on HTTP.
    pub request_headers: Vec<(String, String)>,
    /// The reply, pretty-printed (empty when there is none).
    pub reply: String,
    /// The reply as JSON.
    pub reply_json: Option<Value>,
    /// HTTP status, on HTTP.
    pub status: Option<u16>,
    /// HTTP response headers, on HTTP.
    pub response_headers: Vec<(String, String)>,
    /// One-word summary.
    pub badge: Badge,
    /// The rules that produced the reply.
    pub rules: Vec<RuleId>,
    /// One sentence on why.
    pub note: Note,
    /// Messages the server sent on its own, and locks it took or released.
    pub side_effects: Vec<ServerMessage>,
    /// Problems of the reply's shape (empty = it matches its schema type).
    pub reply_problems: Vec<String>,
    /// The revision the reply speaks.
    pub revision: String,
    /// The protocol version the request asked for (empty when it named
    /// none): lesson 07's difference between what the client asks for and
    /// what the server speaks.
    pub asked: String,
    /// The request reused an id already sent on its connection (RPC-ID).
    pub reused_id: bool,
    /// The protocol versions the reply names as the server's: a -32022's
    /// `data.supported`, or a discover result's `supportedVersions` (empty
    /// when it names none).
    pub offered: Vec<String>,
    /// What the reply's error code, `data` and HTTP status say against the
    /// spec (empty when they fit), each naming its rules.
    pub lint: Vec<(Note, Vec<RuleId>)>,
    /// Where the server's parse error points, when the wire text is laid
    /// out differently from the text as typed (stdio sends one line).
    pub wire_error: Option<WireError>,
}

/// A parse error the server met, at its place in the wire text and at the
/// same place in the text as typed (1-based lines and columns, as the
/// editor's lint reports them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireError {
    /// (line, column) in the text sent.
    pub sent: (usize, usize),
    /// (line, column) in the text as typed.
    pub typed: (usize, usize),
}

/// Where the parse error of `sent` lies in `typed`, when `sent` is `typed`
/// laid out on one line with each line break as a space (what the editor
/// sends on stdio): both have the same bytes at the same offsets, so the
/// offset the parser stopped at is found in `typed` and counted there as
/// the lint counts it. `None` when `sent` parses, equals `typed` or is not
/// laid out so.
pub fn wire_error(typed: &str, sent: &str) -> Option<WireError> {
    if typed == sent || typed.len() != sent.len() || sent.contains('\n') {
        return None;
    }
    let err = serde_json::from_str::<serde::de::IgnoredAny>(sent).err()?;
    if err.line() != 1 {
        return None;
    }
    let offset = err.column().min(typed.len());
    let bytes = typed.as_bytes();
    let start = bytes[..offset]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |p| p + 1);
    let line = 1 + bytes[..start].iter().filter(|b| **b == b'\n').count();
    Some(WireError {
        sent: (1, err.column().max(1)),
        typed: (line, (offset - start).max(1)),
    })
}

/// One request sent and what came back, before [`describe`] sums it up.
pub(super) struct Exchanged {
    /// The text as sent on the wire.
    pub sent: String,
    /// HTTP request headers, on HTTP.
    pub request_headers: Vec<(String, String)>,
    /// The reply, when there is one and it is JSON.
    pub reply: Option<Value>,
    /// HTTP status, on HTTP.
    pub status: Option<u16>,
    /// HTTP response headers, on HTTP.
    pub response_headers: Vec<(String, String)>,
    /// The rules behind the reply.
    pub rules: Vec<RuleId>,
    /// One sentence on why.
    pub note: Note,
    /// What the server did on its own meanwhile.
    pub side_effects: Vec<ServerMessage>,
    /// The revision the reply speaks (empty when there is no reply).
    pub revision: String,
}

/// Sums up an exchange for the reply pane: badge, pretty reply, shape check.
pub(super) fn describe(exchanged: Exchanged) -> Exchange {
    let Exchanged {
        sent,
        request_headers,
        reply,
        status,
        response_headers,
        rules,
        note,
        side_effects,
        revision,
    } = exchanged;
    let badge = match (&reply, status) {
        (Some(r), _) if r.get("error").is_some() => {
            Badge::Error(r["error"]["code"].as_i64().unwrap_or(0))
        }
        (Some(r), _) if ResultType::INPUT_REQUIRED.is_of(&r["result"]) => Badge::InputRequired,
        (Some(r), _) if r["result"]["isError"] == true => Badge::ToolError,
        (Some(_), _) => Badge::Result,
        (None, Some(status)) if status != 202 => Badge::HttpOnly(status),
        (None, _) => Badge::NoReply,
    };
    let reply_problems = reply.as_ref().map(check_reply).unwrap_or_default();
    Exchange {
        sent,
        request_headers,
        reply: reply.as_ref().map(pretty).unwrap_or_default(),
        reply_json: reply,
        status,
        response_headers,
        badge,
        rules,
        note,
        side_effects,
        reply_problems,
        revision,
        asked: String::new(),
        reused_id: false,
        wire_error: None,
        offered: Vec::new(),
        lint: Vec::new(),
    }
}

/// The versions a reply names as the server's (see [`Exchange::offered`]).
fn offered(reply: &Value) -> Vec<String> {
    let list = reply
        .pointer("/error/data/supported")
        .or_else(|| reply.pointer("/result/supportedVersions"));
    list.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Lints a reply as the simulated ones are explained, once the version the
/// request asked for is known: the versions each side named, what the
/// error code's `data` says against the request, and an HTTP status the
/// spec fixes for the code. A real server's reply gets the rules its error
/// code is governed by.
pub(super) fn lint_reply(ex: &mut Exchange, remote: bool) {
    let Some(reply) = &ex.reply_json else {
        return;
    };
    ex.offered = offered(reply);
    let code = reply.pointer("/error/code").and_then(Value::as_i64);
    if remote {
        if let Some(field) = code.and_then(crate::explain::code) {
            for id in field.rules {
                if !ex.rules.contains(id) {
                    ex.rules.push(id);
                }
            }
        }
        if !ex.asked.is_empty() && code.is_some() {
            // An error is not written in the version asked for: the
            // server speaks what it names, if anything.
            ex.revision = String::new();
        }
    }
    let mut lint = Vec::new();
    if code == Some(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.0) {
        let requested = reply
            .pointer("/error/data/requested")
            .and_then(Value::as_str);
        if let Some(requested) = requested {
            if !ex.asked.is_empty() && requested != ex.asked {
                lint.push((
                    crate::note!(
                        "editor.lint_requested_differs",
                        "data.requested says {requested}, but the request asked for {asked}.",
                        requested = requested,
                        asked = ex.asked.clone()
                    ),
                    vec![crate::rules::M_VERSION],
                ));
            }
        }
        if !ex.asked.is_empty() && ex.offered.contains(&ex.asked) {
            lint.push((
                crate::note!(
                    "editor.lint_supported_has_asked",
                    "data.supported lists {asked}, the version the request asked for: the refusal contradicts itself.",
                    asked = ex.asked.clone()
                ),
                vec![crate::rules::M_VERSION],
            ));
        }
    }
    let fixed = match code.map(ErrorCode) {
        Some(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION) => Some((400, crate::rules::M_VERSION)),
        Some(ErrorCode::HEADER_MISMATCH) => Some((400, crate::rules::H_HEADERS)),
        Some(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY) => Some((400, crate::rules::H_STATUS)),
        _ => None,
    };
    if let (Some((want, rule)), Some(status)) = (fixed, ex.status) {
        if status != want {
            lint.push((
                crate::note!(
                    "editor.lint_status",
                    "HTTP {status} for error {code}, where the spec says HTTP {want}.",
                    status = status,
                    code = code.unwrap_or_default(),
                    want = want
                ),
                vec![rule],
            ));
        }
    }
    ex.lint = lint;
}

/// Checks a reply's shape against what its schema type requires (the typed
/// counterpart of schema validation, usable in the browser).
pub fn check_reply(reply: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    if reply.get("jsonrpc") != Some(&json!("2.0")) {
        problems.push("jsonrpc must be \"2.0\"".into());
    }
    match (reply.get("result"), reply.get("error")) {
        (Some(_), Some(_)) | (None, None) => {
            problems.push("exactly one of result and error".into())
        }
        (Some(result), None) => {
            if reply.get("id").and_then(RequestId::from_json).is_none() {
                problems.push("a result needs a string or integer id".into());
            }
            if !result.is_object() {
                problems.push("result must be an object".into());
            }
        }
        (None, Some(error)) => {
            if !error.get("code").is_some_and(Value::is_i64) {
                problems.push("error.code must be an integer".into());
            }
            if !error.get("message").is_some_and(Value::is_string) {
                problems.push("error.message must be a string".into());
            }
            if let Some(id) = reply.get("id") {
                if RequestId::from_json(id).is_none() {
                    problems.push("id, when present, must be a string or integer".into());
                }
            }
            match error.get("code").and_then(Value::as_i64).map(ErrorCode) {
                Some(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION) => {
                    let d = error.get("data");
                    if !d.and_then(|d| d.get("supported")).is_some_and(|s| {
                        s.as_array().is_some_and(|a| a.iter().all(Value::is_string))
                    }) {
                        problems.push("error.data.supported must be an array of strings".into());
                    }
                    if !d
                        .and_then(|d| d.get("requested"))
                        .is_some_and(Value::is_string)
                    {
                        problems.push("error.data.requested must be a string".into());
                    }
                }
                Some(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY)
                    if !error
                        .get("data")
                        .and_then(|d| d.get("requiredCapabilities"))
                        .is_some_and(Value::is_object) =>
                {
                    problems.push(
                        "error.data.requiredCapabilities must be a ClientCapabilities object"
                            .into(),
                    );
                }
                _ => {}
            }
        }
    }
    problems
}
