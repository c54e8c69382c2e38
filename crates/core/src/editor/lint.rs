//! Checking a request before it is sent: path-aware, typed warnings for the
//! revision it speaks (no JSON Schema engine in the browser), and what follows
//! from the target server's era.

use serde_json::Value;

use super::edits::{declared_in, version_in};
use super::{MAX_DEPTH, MAX_REQUEST_BYTES};
use crate::note;
use crate::note::Note;
use crate::protocol::jsonrpc::Envelope;
use crate::protocol::shape;
use crate::protocol::{meta, methods, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::settings::Capability;

/// Where the JSON text stops parsing (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseProblem {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What the parser says (English text; its message says it in any
    /// language).
    pub message: Note,
}

/// One schema warning: where, and what the revision expects there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// JSON path, e.g. `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    pub path: String,
    /// What is expected there (English text; its message says it in any
    /// language).
    pub message: Note,
    /// The rule the expectation comes from, if one applies.
    pub rule: Option<RuleId>,
}

/// Result of checking a request before sending it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lint {
    /// The text is too large to send (bytes).
    pub too_large: Option<usize>,
    /// The text nests arrays and objects deeper than [`MAX_DEPTH`] (its depth).
    pub too_deep: Option<usize>,
    /// The text is not JSON.
    pub parse: Option<ParseProblem>,
    /// Schema warnings for the revision the request speaks.
    pub warnings: Vec<Warning>,
    /// The revision the request speaks, when it can be told.
    pub revision: Option<String>,
    /// The method, when there is one.
    pub method: Option<String>,
    /// The protocol version the request names (`_meta` on a modern request,
    /// `params.protocolVersion` on initialize).
    pub version: Option<String>,
    /// The capabilities the request declares (see [`declared`]).
    pub declared: Vec<Capability>,
}

impl Lint {
    /// Nothing to warn about.
    pub fn is_clean(&self) -> bool {
        self.too_large.is_none()
            && self.too_deep.is_none()
            && self.parse.is_none()
            && self.warnings.is_empty()
    }

    /// Why the editor does not send this text at all, in a sentence: too
    /// large, or nested too deep. `None` when it can be sent; text that is
    /// not JSON or breaks the schema is sent, since the server's answer is
    /// the lesson.
    pub fn refusal(&self) -> Option<Note> {
        if let Some(bytes) = self.too_large {
            return Some(note!(
                "lint.too_large",
                "Not sent: the request is {bytes} bytes and the editor sends at most {max} bytes (1 MiB). Shorten it.",
                bytes = bytes,
                max = MAX_REQUEST_BYTES
            ));
        }
        self.too_deep.map(|depth| {
            note!(
                "lint.too_deep",
                "Not sent: the request nests arrays and objects {depth} levels deep; a JSON parser reads at most {max}.",
                depth = depth,
                max = MAX_DEPTH
            )
        })
    }
}

/// What serde_json's parser says, as a note: its fixed messages keyed (a
/// catalog translates them), anything else said as it is.
fn parser_says(message: &str) -> Note {
    match message {
        "EOF while parsing a value" => note!("lint.json.eof_value", "EOF while parsing a value"),
        "EOF while parsing a string" => note!("lint.json.eof_string", "EOF while parsing a string"),
        "EOF while parsing an object" => {
            note!("lint.json.eof_object", "EOF while parsing an object")
        }
        "EOF while parsing a list" => note!("lint.json.eof_list", "EOF while parsing a list"),
        "expected value" => note!("lint.json.expected_value", "expected value"),
        "expected `:`" => note!("lint.json.expected_colon", "expected `:`"),
        "expected `,` or `]`" => note!("lint.json.expected_comma_bracket", "expected `,` or `]`"),
        "expected `,` or `}`" => note!("lint.json.expected_comma_brace", "expected `,` or `}}`"),
        "expected ident" => note!("lint.json.expected_ident", "expected ident"),
        "key must be a string" => note!("lint.json.key_not_string", "key must be a string"),
        "trailing comma" => note!("lint.json.trailing_comma", "trailing comma"),
        "trailing characters" => note!("lint.json.trailing_characters", "trailing characters"),
        "invalid escape" => note!("lint.json.invalid_escape", "invalid escape"),
        "invalid number" => note!("lint.json.invalid_number", "invalid number"),
        "number out of range" => note!("lint.json.number_out_of_range", "number out of range"),
        "invalid unicode code point" => {
            note!("lint.json.invalid_unicode", "invalid unicode code point")
        }
        "control character (\\u0000-\\u001F) found while parsing a string" => note!(
            "lint.json.control_character",
            "control character (\\u0000-\\u001F) found while parsing a string"
        ),
        "recursion limit exceeded" => {
            note!("lint.json.recursion_limit", "recursion limit exceeded")
        }
        other => Note::from(other),
    }
}

/// How deeply arrays and objects nest in `text` (brackets inside strings do
/// not count). One pass over the bytes, no parsing.
pub(super) fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

pub(super) fn warn(path: &str, message: Note, rule: Option<RuleId>) -> Warning {
    Warning {
        path: path.to_string(),
        message,
        rule,
    }
}

/// Checks a request the way the official schema of its revision would, with
/// the JSON path of every problem.
pub fn lint(text: &str) -> Lint {
    lint_request(text).0
}

/// [`lint`], and whether the text is a request (it has an id).
pub(super) fn lint_request(text: &str) -> (Lint, bool) {
    let mut out = Lint::default();
    let is_request = lint_into(text, &mut out);
    (out, is_request)
}

pub(super) fn lint_into(text: &str, out: &mut Lint) -> bool {
    if text.len() > MAX_REQUEST_BYTES {
        out.too_large = Some(text.len());
        return false;
    }
    let depth = nesting_depth(text);
    if depth > MAX_DEPTH {
        out.too_deep = Some(depth);
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(err) => {
            let message = err.to_string();
            let message = message.split(" at line").next().unwrap_or(&message);
            out.parse = Some(ParseProblem {
                line: err.line().max(1),
                column: err.column().max(1),
                message: parser_says(message),
            });
            return false;
        }
    };
    out.version = version_in(&value);
    out.declared = declared_in(&value);
    let envelope = match Envelope::classify(&value) {
        Ok(e) => e,
        Err(invalid) => {
            out.warnings.push(warn(
                "$",
                note!(
                    "lint.not_jsonrpc",
                    "not a JSON-RPC request: {reason}",
                    reason = invalid.reason
                ),
                Some(rules::RPC_INVALID),
            ));
            return false;
        }
    };
    let (method, params, is_request) = match &envelope {
        Envelope::Request { method, params, .. } => (method.clone(), params.clone(), true),
        Envelope::Notification { method, params } => (method.clone(), params.clone(), false),
        _ => {
            out.warnings.push(warn(
                "$",
                note!(
                    "lint.a_response",
                    "this is a response; the editor sends it to the server as a reply to a server request"
                ),
                None,
            ));
            return false;
        }
    };
    out.method = Some(method.clone());
    let modern = method != methods::INITIALIZE
        && params
            .get("_meta")
            .is_some_and(|m| m.get(meta::PROTOCOL_VERSION).is_some());
    let legacy_shaped = method == methods::INITIALIZE || params.get("_meta").is_none();
    if modern || (!legacy_shaped && method != methods::INITIALIZE) {
        out.revision = Some(ProtocolVersion::MODERN.into());
        lint_modern(&method, &params, is_request, out);
    } else {
        let version = params
            .get("protocolVersion")
            .and_then(Value::as_str)
            .unwrap_or(ProtocolVersion::NEWEST_LEGACY)
            .to_string();
        out.revision = Some(if ProtocolVersion::LEGACY.contains(&version.as_str()) {
            version
        } else {
            ProtocolVersion::NEWEST_LEGACY.into()
        });
        lint_legacy(&method, &params, out);
    }
    is_request
}

/// [`lint`], plus what follows from the target server's era: a
/// legacy-shaped request to a modern-only server lacks `_meta`, and a modern
/// request to a legacy-only server is one it does not understand.
pub fn lint_for(text: &str, server_era: crate::protocol::version::EraMode) -> Lint {
    use crate::protocol::version::EraMode;
    let (mut out, is_request) = lint_request(text);
    let Some(method) = out.method.clone() else {
        return out;
    };
    let modern = out.revision.as_deref() == Some(ProtocolVersion::MODERN);
    match server_era {
        EraMode::ModernOnly if !modern && is_request && method != methods::INITIALIZE => out.warnings.push(warn(
            "params._meta",
            note!(
                "lint.meta_missing_modern_only",
                "missing: this server speaks only 2026-07-28, where every request carries _meta with protocolVersion and clientCapabilities"
            ),
            Some(rules::M_META_REQUIRED),
        )),
        EraMode::ModernOnly if method == methods::INITIALIZE => out.warnings.push(warn(
            "method",
            note!(
                "lint.initialize_on_modern_only",
                "this server is modern-only: initialize does not exist there (it answers naming its versions)"
            ),
            Some(rules::M_INIT_ON_MODERN),
        )),
        EraMode::LegacyOnly if modern => out.warnings.push(warn(
            "params._meta",
            note!(
                "lint.meta_on_legacy_only",
                "this server is legacy-only: it ignores _meta and expects initialize first"
            ),
            Some(rules::E_MATRIX),
        )),
        _ => {}
    }
    out
}

/// Checks `value` against a schema shape; on failure, a warning at the
/// failing path naming the schema type.
pub(super) fn typed(
    value: &Value,
    base: &str,
    kind: shape::Kind,
    what: &str,
    rule: Option<RuleId>,
) -> Option<Warning> {
    shape::check(value, base, kind).err().map(|e| {
        let message = note!(
            "lint.typed",
            "{what}: {problem}",
            what = what,
            problem = e.message
        );
        warn(&e.path, message, rule)
    })
}

pub(super) fn lint_modern(method: &str, params: &Value, is_request: bool, out: &mut Lint) {
    if !methods::client_methods(crate::protocol::Era::Modern).contains(&method) {
        let message = if methods::removed_in_modern(method) {
            note!(
                "lint.removed_in_modern",
                "\"{method}\" was removed in 2026-07-28; a server answers -32601",
                method = method
            )
        } else {
            note!(
                "lint.not_a_modern_method",
                "\"{method}\" is not a client method of 2026-07-28; a server answers -32601",
                method = method
            )
        };
        out.warnings
            .push(warn("method", message, Some(rules::M_UNKNOWN_METHOD)));
    }
    if params.is_null() && (is_request || method == methods::CANCELLED) {
        out.warnings.push(warn(
            "params",
            note!(
                "lint.params_required",
                "params is required (it carries _meta)"
            ),
            Some(rules::M_META_REQUIRED),
        ));
        return;
    }
    if is_request {
        match params.get("_meta") {
            None => out.warnings.push(warn(
                "params._meta",
                note!(
                    "lint.meta_missing",
                    "missing: every modern request carries _meta with protocolVersion and clientCapabilities"
                ),
                Some(rules::M_META_REQUIRED),
            )),
            Some(m) => out.warnings.extend(typed(m, "params._meta", shape::REQUEST_META, "RequestMetaObject", Some(rules::M_META_REQUIRED))),
        }
        if let Some(pv) = params
            .get("_meta")
            .and_then(|m| m.get(meta::PROTOCOL_VERSION))
            .and_then(Value::as_str)
        {
            if pv != ProtocolVersion::MODERN {
                out.warnings.push(warn(&format!("params._meta[\"{}\"]", meta::PROTOCOL_VERSION),
                    note!(
                        "lint.not_a_modern_revision",
                        "{version} is not a modern revision: a modern-only server answers -32022 (still a modern request, E-TERMS)",
                        version = pv
                    ),
                    Some(rules::M_VERSION)));
            }
        }
    }
    out.warnings.extend(params_warning(method, params, false));
}

pub(super) fn lint_legacy(method: &str, params: &Value, out: &mut Lint) {
    if !methods::client_methods(crate::protocol::Era::Legacy).contains(&method) {
        let message = if method == methods::DISCOVER {
            note!(
                "lint.discover_on_legacy",
                "\"{method}\" is not a client method of the legacy revisions (server/discover is modern: add params._meta)",
                method = method
            )
        } else {
            note!(
                "lint.not_a_legacy_method",
                "\"{method}\" is not a client method of the legacy revisions",
                method = method
            )
        };
        out.warnings
            .push(warn("method", message, Some(rules::M_UNKNOWN_METHOD)));
    }
    out.warnings.extend(params_warning(method, params, true));
}

/// The schema type of a method's params (one table for both eras) and the
/// first problem of `params` against it.
pub(super) fn params_warning(method: &str, params: &Value, legacy: bool) -> Option<Warning> {
    let (kind, what, rule) = match method {
        methods::INITIALIZE if legacy => (
            shape::INITIALIZE_PARAMS,
            "InitializeRequestParams",
            Some(rules::L_INIT),
        ),
        methods::TOOLS_CALL | methods::PROMPTS_GET => {
            (shape::NAMED_PARAMS, "CallToolRequestParams", None)
        }
        methods::RESOURCES_READ => (shape::URI_PARAMS, "ReadResourceRequestParams", None),
        methods::RESOURCES_SUBSCRIBE | methods::RESOURCES_UNSUBSCRIBE if legacy => {
            (shape::URI_PARAMS, "ResourceRequestParams", None)
        }
        methods::CANCELLED => (shape::CANCELLED_PARAMS, "CancelledNotificationParams", None),
        _ => return None,
    };
    typed(params, "params", kind, what, rule)
}
