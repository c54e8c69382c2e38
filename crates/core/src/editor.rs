//! The request editor's engine: check a hand-written request before it is
//! sent (path-aware, typed, no JSON Schema engine needed in the browser),
//! send it to a simulated server over stdio or HTTP keeping legacy session
//! state per connection, and describe the reply. Templates, capability and
//! version toggles and the MRTR "answer and retry" builder live here too, so
//! the UI never has to know protocol rules.

use serde_json::{json, Map, Value};

use crate::protocol::jsonrpc::{Envelope, ErrorCode, RequestId};
use crate::protocol::shape;
use crate::protocol::{
    elicitation, meta, methods, ClientCapabilities, ProtocolVersion, ResultType,
};
use crate::rules::{self, RuleId};
use crate::server::{ConnId, HttpReply, OutputKind, Server, ServerConfig};
use crate::settings::Capability;
use crate::sim::engine::message_event;
use crate::sim::{Event, EventKind, HttpInfo, Side, SimTime, Timeline};
use crate::transport::http::{self, HttpRequest};
use crate::transport::TransportKind;

/// Largest request the editor sends; larger text gets a clear message.
pub const MAX_REQUEST_BYTES: usize = 1024 * 1024;

/// Deepest nesting of arrays and objects the editor sends: the JSON
/// parser's own limit, so deeper text could never be read by a server.
pub const MAX_DEPTH: usize = 128;

/// Where the JSON text stops parsing (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseProblem {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What the parser says.
    pub message: String,
}

/// One schema warning: where, and what the revision expects there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// JSON path, e.g. `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    pub path: String,
    /// What is expected there.
    pub message: String,
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
    pub fn refusal(&self) -> Option<String> {
        if let Some(bytes) = self.too_large {
            return Some(format!(
                "Not sent: the request is {bytes} bytes and the editor sends at most {MAX_REQUEST_BYTES} bytes (1 MiB). Shorten it."
            ));
        }
        self.too_deep.map(|depth| {
            format!(
                "Not sent: the request nests arrays and objects {depth} levels deep; a JSON parser reads at most {MAX_DEPTH}."
            )
        })
    }
}

/// How deeply arrays and objects nest in `text` (brackets inside strings do
/// not count). One pass over the bytes, no parsing.
fn nesting_depth(text: &str) -> usize {
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

fn warn(path: &str, message: impl Into<String>, rule: Option<RuleId>) -> Warning {
    Warning {
        path: path.to_string(),
        message: message.into(),
        rule,
    }
}

/// Checks a request the way the official schema of its revision would, with
/// the JSON path of every problem.
pub fn lint(text: &str) -> Lint {
    lint_request(text).0
}

/// [`lint`], and whether the text is a request (it has an id).
fn lint_request(text: &str) -> (Lint, bool) {
    let mut out = Lint::default();
    let is_request = lint_into(text, &mut out);
    (out, is_request)
}

fn lint_into(text: &str, out: &mut Lint) -> bool {
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
            let message = message
                .split(" at line")
                .next()
                .unwrap_or(&message)
                .to_string();
            out.parse = Some(ParseProblem {
                line: err.line().max(1),
                column: err.column().max(1),
                message,
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
                format!("not a JSON-RPC request: {}", invalid.reason),
                Some(rules::RPC_INVALID),
            ));
            return false;
        }
    };
    let (method, params, is_request) = match &envelope {
        Envelope::Request { method, params, .. } => (method.clone(), params.clone(), true),
        Envelope::Notification { method, params } => (method.clone(), params.clone(), false),
        _ => {
            out.warnings.push(warn("$", "this is a response; the editor sends it to the server as a reply to a server request", None));
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
            "missing: this server speaks only 2026-07-28, where every request carries _meta with protocolVersion and clientCapabilities",
            Some(rules::M_META_REQUIRED),
        )),
        EraMode::ModernOnly if method == methods::INITIALIZE => out.warnings.push(warn(
            "method",
            "this server is modern-only: initialize does not exist there (it answers naming its versions)",
            Some(rules::M_INIT_ON_MODERN),
        )),
        EraMode::LegacyOnly if modern => out.warnings.push(warn(
            "params._meta",
            "this server is legacy-only: it ignores _meta and expects initialize first",
            Some(rules::E_MATRIX),
        )),
        _ => {}
    }
    out
}

/// Client-to-server methods of 2026-07-28.
pub const MODERN_METHODS: &[&str] = &[
    methods::DISCOVER,
    methods::TOOLS_LIST,
    methods::TOOLS_CALL,
    methods::PROMPTS_LIST,
    methods::PROMPTS_GET,
    methods::RESOURCES_LIST,
    methods::RESOURCES_TEMPLATES_LIST,
    methods::RESOURCES_READ,
    "completion/complete",
    "subscriptions/listen",
    methods::CANCELLED,
];

/// Client-to-server methods of the legacy revisions (2025-11-25 and earlier).
pub const LEGACY_METHODS: &[&str] = &[
    methods::INITIALIZE,
    methods::INITIALIZED,
    methods::PING,
    methods::TOOLS_LIST,
    methods::TOOLS_CALL,
    methods::PROMPTS_LIST,
    methods::PROMPTS_GET,
    methods::RESOURCES_LIST,
    methods::RESOURCES_TEMPLATES_LIST,
    methods::RESOURCES_READ,
    methods::RESOURCES_SUBSCRIBE,
    methods::RESOURCES_UNSUBSCRIBE,
    methods::LOGGING_SET_LEVEL,
    "completion/complete",
    methods::CANCELLED,
    "notifications/roots/list_changed",
];

/// Checks `value` against a schema shape; on failure, a warning at the
/// failing path naming the schema type.
fn typed(
    value: &Value,
    base: &str,
    kind: shape::Kind,
    what: &str,
    rule: Option<RuleId>,
) -> Option<Warning> {
    shape::check(value, base, kind)
        .err()
        .map(|e| warn(&e.path, format!("{what}: {}", e.message), rule))
}

fn lint_modern(method: &str, params: &Value, is_request: bool, out: &mut Lint) {
    if !MODERN_METHODS.contains(&method) {
        let rule = if methods::REMOVED_IN_MODERN.contains(&method) {
            "was removed in 2026-07-28"
        } else {
            "is not a client method of 2026-07-28"
        };
        out.warnings.push(warn(
            "method",
            format!("\"{method}\" {rule}; a server answers -32601"),
            Some(rules::M_UNKNOWN_METHOD),
        ));
    }
    if params.is_null() && (is_request || method == methods::CANCELLED) {
        out.warnings.push(warn(
            "params",
            "params is required (it carries _meta)",
            Some(rules::M_META_REQUIRED),
        ));
        return;
    }
    if is_request {
        match params.get("_meta") {
            None => out.warnings.push(warn("params._meta", "missing: every modern request carries _meta with protocolVersion and clientCapabilities", Some(rules::M_META_REQUIRED))),
            Some(m) => out.warnings.extend(typed(m, "params._meta", shape::REQUEST_META, "RequestMetaObject", Some(rules::M_META_REQUIRED))),
        }
        if let Some(pv) = params
            .get("_meta")
            .and_then(|m| m.get(meta::PROTOCOL_VERSION))
            .and_then(Value::as_str)
        {
            if pv != ProtocolVersion::MODERN {
                out.warnings.push(warn(&format!("params._meta[\"{}\"]", meta::PROTOCOL_VERSION),
                    format!("{pv} is not a modern revision: a modern-only server answers -32022 (still a modern request, E-TERMS)"), Some(rules::M_VERSION)));
            }
        }
    }
    out.warnings.extend(params_warning(method, params, false));
}

fn lint_legacy(method: &str, params: &Value, out: &mut Lint) {
    if !LEGACY_METHODS.contains(&method) {
        let hint = if method == methods::DISCOVER {
            " (server/discover is modern: add params._meta)"
        } else {
            ""
        };
        out.warnings.push(warn(
            "method",
            format!("\"{method}\" is not a client method of the legacy revisions{hint}"),
            Some(rules::M_UNKNOWN_METHOD),
        ));
    }
    out.warnings.extend(params_warning(method, params, true));
}

/// The schema type of a method's params (one table for both eras) and the
/// first problem of `params` against it.
fn params_warning(method: &str, params: &Value, legacy: bool) -> Option<Warning> {
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

/// A starting point for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The method.
    pub method: &'static str,
    /// Pretty-printed JSON text.
    pub text: String,
}

/// The editor's clientInfo, as JSON text.
const EDITOR_INFO: &str = r#"{"name":"mcp-lanes-editor","version":"1.0.0"}"#;

/// JSON text to a value (templates are kept as text: smaller in
/// WebAssembly than `json!` literals).
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_default()
}

fn modern_meta() -> Value {
    parse(&format!(
        r#"{{"{}":"{}","{}":{{}},"{}":{EDITOR_INFO}}}"#,
        meta::PROTOCOL_VERSION,
        ProtocolVersion::MODERN,
        meta::CLIENT_CAPABILITIES,
        meta::CLIENT_INFO
    ))
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Templates for every client method of a revision, `_meta` prefilled for
/// the modern one.
pub fn templates(revision: &str) -> Vec<Template> {
    let modern = ProtocolVersion::era_of(revision) == crate::protocol::Era::Modern;
    methods(revision)
        .iter()
        .map(|&method| Template {
            method,
            text: pretty(&template_value(method, modern, revision)),
        })
        .collect()
}

/// The client methods of a revision ([`MODERN_METHODS`] or
/// [`LEGACY_METHODS`]), in the order [`templates`] gives them.
pub fn methods(revision: &str) -> &'static [&'static str] {
    if ProtocolVersion::era_of(revision) == crate::protocol::Era::Modern {
        MODERN_METHODS
    } else {
        LEGACY_METHODS
    }
}

/// The template of one method of a revision, if it has one.
pub fn template_for(revision: &str, method: &str) -> Option<String> {
    let modern = ProtocolVersion::era_of(revision) == crate::protocol::Era::Modern;
    methods(revision)
        .contains(&method)
        .then(|| pretty(&template_value(method, modern, revision)))
}

fn template_value(method: &str, modern: bool, revision: &str) -> Value {
    let mut params = parse(match method {
        methods::TOOLS_CALL => r#"{"name":"list_incidents","arguments":{}}"#,
        methods::PROMPTS_GET => r#"{"name":"summarize_notes","arguments":{}}"#,
        methods::RESOURCES_READ | methods::RESOURCES_SUBSCRIBE | methods::RESOURCES_UNSUBSCRIBE => {
            r#"{"uri":"note://standup"}"#
        }
        methods::INITIALIZE => r#"{"protocolVersion":"","capabilities":{}}"#,
        methods::LOGGING_SET_LEVEL => r#"{"level":"info"}"#,
        "completion/complete" => {
            r#"{"ref":{"type":"ref/prompt","name":"summarize_notes"},"argument":{"name":"topic","value":"st"}}"#
        }
        "subscriptions/listen" => r#"{"notifications":{"toolsListChanged":true}}"#,
        methods::CANCELLED => r#"{"requestId":1,"reason":"no longer needed"}"#,
        _ => "{}",
    });
    if method == methods::INITIALIZE {
        params["protocolVersion"] = Value::from(revision);
        params["clientInfo"] = parse(EDITOR_INFO);
    }
    let notification = method.starts_with("notifications/");
    if modern && method != methods::CANCELLED {
        params["_meta"] = modern_meta();
    }
    let mut obj = Map::new();
    obj.insert("jsonrpc".into(), Value::from("2.0"));
    if !notification {
        obj.insert("id".into(), Value::from(1));
    }
    obj.insert("method".into(), Value::from(method));
    if params.as_object().is_some_and(|p| !p.is_empty()) {
        obj.insert("params".into(), params);
    }
    Value::Object(obj)
}

/// Turns a declared client capability on or off in a request's `_meta`
/// (modern) or `params.capabilities` (legacy initialize).
pub fn set_capability(text: &str, cap: Capability, on: bool) -> Result<String, String> {
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| format!("fix the JSON first: {e}"))?;
    let target = caps_slot(&mut value).ok_or(
        "this request has no _meta clientCapabilities (nor initialize capabilities) to change",
    )?;
    let mut caps = ClientCapabilities::from_json(target);
    crate::settings::set_capability_in(&mut caps, cap, on);
    *target = caps.to_json();
    Ok(pretty(&value))
}

/// Which capabilities the request currently declares.
pub fn declared(text: &str) -> Vec<Capability> {
    serde_json::from_str::<Value>(text)
        .map(|v| declared_in(&v))
        .unwrap_or_default()
}

fn is_initialize(value: &Value) -> bool {
    value.get("method").and_then(Value::as_str) == Some(methods::INITIALIZE)
}

fn declared_in(value: &Value) -> Vec<Capability> {
    let params = value.get("params");
    let slot = if is_initialize(value) {
        params.and_then(|p| p.get("capabilities"))
    } else {
        params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta::CLIENT_CAPABILITIES))
    };
    let Some(slot) = slot else {
        return Vec::new();
    };
    let caps = ClientCapabilities::from_json(slot);
    Capability::ALL
        .into_iter()
        .filter(|c| crate::settings::has_capability(&caps, *c))
        .collect()
}

/// The version a request names, where [`set_version`] puts it.
fn version_in(value: &Value) -> Option<String> {
    let params = value.get("params")?;
    let version = if is_initialize(value) {
        params.get("protocolVersion")
    } else {
        params.get("_meta")?.get(meta::PROTOCOL_VERSION)
    };
    version.and_then(Value::as_str).map(str::to_string)
}

fn caps_slot(value: &mut Value) -> Option<&mut Value> {
    let is_init = is_initialize(value);
    let params = value.get_mut("params")?.as_object_mut()?;
    if is_init {
        return Some(params.entry("capabilities").or_insert_with(|| json!({})));
    }
    let meta = params.get_mut("_meta")?.as_object_mut()?;
    Some(
        meta.entry(meta::CLIENT_CAPABILITIES)
            .or_insert_with(|| json!({})),
    )
}

/// Switches the protocol version a request names (modern `_meta` or legacy
/// initialize params), without retyping.
pub fn set_version(text: &str, version: &str) -> Result<String, String> {
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| format!("fix the JSON first: {e}"))?;
    let is_init = is_initialize(&value);
    let params = value
        .get_mut("params")
        .and_then(Value::as_object_mut)
        .ok_or("this request has no params object")?;
    if is_init {
        params.insert("protocolVersion".into(), json!(version));
    } else {
        let meta_obj = params.entry("_meta").or_insert_with(|| json!({}));
        let meta_obj = meta_obj
            .as_object_mut()
            .ok_or("params._meta is not an object")?;
        meta_obj.insert(meta::PROTOCOL_VERSION.into(), json!(version));
    }
    Ok(pretty(&value))
}

/// The HTTP headers a conforming client would send with this body.
pub fn headers_for(text: &str) -> Vec<(String, String)> {
    match serde_json::from_str::<Value>(text) {
        Ok(value) if value.get("params").and_then(|p| p.get("_meta")).is_some() => {
            http::modern_headers(&value)
        }
        Ok(value) => {
            let mut headers = http::legacy_headers(None, None);
            if let Some(m) = value.get("method").and_then(Value::as_str) {
                headers.push((http::METHOD_HEADER.into(), m.into()));
            }
            headers
        }
        Err(_) => http::legacy_headers(None, None),
    }
}

/// Builds the MRTR retry for an `input_required` reply: same request, a new
/// id, `inputResponses` answering every input request (as an accepting
/// user would) and `requestState` echoed unchanged (M-MRTR).
pub fn answer_and_retry(request_text: &str, reply: &Value, new_id: i64) -> Result<String, String> {
    let mut request: Value =
        serde_json::from_str(request_text).map_err(|e| format!("the request is not JSON: {e}"))?;
    let result = reply.get("result").ok_or("the reply is not a result")?;
    if !ResultType::INPUT_REQUIRED.is_of(result) {
        return Err("the reply is not input_required".into());
    }
    let requests = result
        .get("inputRequests")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut responses = Map::new();
    for (key, input) in &requests {
        let schema = input.get("params").and_then(|p| p.get("requestedSchema"));
        responses.insert(key.clone(), elicitation::accept_with_defaults(schema));
    }
    let params = request
        .get_mut("params")
        .and_then(Value::as_object_mut)
        .ok_or("the request has no params")?;
    params.insert("inputResponses".into(), Value::Object(responses));
    match result.get("requestState") {
        Some(state) => params.insert("requestState".into(), state.clone()),
        None => params.remove("requestState"),
    };
    request["id"] = json!(new_id);
    Ok(pretty(&request))
}

/// The JSON-RPC response a person sends back to a request the server sent
/// on its own while handling theirs (a legacy `elicitation/create`), ready
/// to edit: the same id and an accepting answer with a value for every
/// requested field. Any other server request gets the -32601 a client that
/// does not implement it answers (L-UNDECLARED). `None` when `message` is
/// not a request.
pub fn answer_server_request(message: &Value) -> Option<String> {
    let id = message.get("id").filter(|id| !id.is_null())?;
    let method = message.get("method").and_then(Value::as_str)?;
    let mut reply = Map::new();
    reply.insert("jsonrpc".into(), Value::from("2.0"));
    reply.insert("id".into(), id.clone());
    if method == methods::ELICITATION_CREATE {
        let schema = message.get("params").and_then(|p| p.get("requestedSchema"));
        reply.insert("result".into(), elicitation::accept_with_defaults(schema));
    } else {
        reply.insert(
            "error".into(),
            parse(r#"{"code":-32601,"message":"Method not found"}"#),
        );
    }
    Some(pretty(&Value::Object(reply)))
}

/// How a reply is summed up in one badge.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    pub note: String,
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
    pub note: String,
    /// Messages the server sent on its own, and locks it took or released.
    pub side_effects: Vec<ServerMessage>,
    /// Problems of the reply's shape (empty = it matches its schema type).
    pub reply_problems: Vec<String>,
    /// The revision the reply speaks.
    pub revision: String,
}

/// A simulated server the editor talks to, with its connection state.
#[derive(Debug, Clone)]
pub struct EditorSession {
    server: Server,
    transport: TransportKind,
    http_session: Option<String>,
    clock: SimTime,
    history: Vec<Exchange>,
}

impl EditorSession {
    /// A fresh server of this configuration on this transport.
    pub fn new(config: ServerConfig, transport: TransportKind) -> Self {
        Self {
            server: Server::new(config),
            transport,
            http_session: None,
            clock: SimTime::ZERO,
            history: Vec::new(),
        }
    }

    /// The server's configuration.
    pub fn config(&self) -> &ServerConfig {
        self.server.config()
    }

    /// The transport.
    pub fn transport(&self) -> TransportKind {
        self.transport
    }

    /// The legacy HTTP session id the editor adds to later requests.
    pub fn http_session(&self) -> Option<&str> {
        self.http_session.as_deref()
    }

    /// Drops the connection: a legacy session ends, a new one needs initialize.
    pub fn new_connection(&mut self) {
        self.clock = self.clock.plus_millis(1);
        let conn = match self.transport {
            TransportKind::Http => ConnId::for_http(self.http_session.as_deref()),
            TransportKind::Stdio => ConnId::stdio(),
        };
        self.server.handle_disconnect(self.clock, &conn);
        while self.server.poll_output().is_some() {}
        self.http_session = None;
    }

    /// Sends `text` (with `headers` on HTTP; `None` = what a conforming
    /// client would send) and describes the reply.
    pub fn send(&mut self, text: &str, headers: Option<Vec<(String, String)>>) -> Exchange {
        let exchange = self.exchange(text, headers);
        self.history.push(exchange.clone());
        exchange
    }

    /// Every exchange sent so far, oldest first.
    pub fn history(&self) -> &[Exchange] {
        &self.history
    }

    /// The exchanges as a timeline (one virtual second apart), so the page
    /// can draw them as a lane like any run.
    pub fn timeline(&self) -> Timeline {
        self.timeline_from(0, 0)
    }

    /// The exchanges from position `first` on as a timeline, their events
    /// numbered from `first_index` and timed as in [`Self::timeline`], with
    /// the session's leaked locks in the summary: a view that already shows the
    /// earlier exchanges appends these events instead of rebuilding (and
    /// re-reading every earlier message of) the whole lane after each send.
    pub fn timeline_from(&self, first: usize, first_index: usize) -> Timeline {
        let mut events: Vec<Event> = Vec::new();
        let revision = |r: &str| {
            if r.is_empty() {
                ProtocolVersion::modern()
            } else {
                ProtocolVersion::new(r)
            }
        };
        let push = |events: &mut Vec<Event>,
                    at_ms: u64,
                    kind: EventKind,
                    rules: Vec<RuleId>,
                    note: String| {
            let index = first_index + events.len();
            events.push(Event {
                index,
                at_ms,
                kind,
                rules,
                note,
            });
        };
        for (i, ex) in self.history.iter().enumerate().skip(first) {
            let at = i as u64 * 1000;
            let http = (self.transport == TransportKind::Http).then(|| HttpInfo {
                method: Some("POST".into()),
                status: None,
                headers: ex.request_headers.clone(),
            });
            let mut sent =
                message_event(Side::Client, &ex.sent, revision(&ex.revision), None, http);
            sent.delivered_at_ms = Some(at + 20);
            push(
                &mut events,
                at,
                EventKind::Message(sent),
                Vec::new(),
                "Sent from the editor.".into(),
            );
            // What the server sent arrives 20 ms later; locks and drops are markers.
            let server_says = |events: &mut Vec<Event>,
                               message: &Value,
                               http: Option<HttpInfo>,
                               rules: Vec<RuleId>,
                               note: String| {
                let mut msg = message_event(
                    Side::Server,
                    &message.to_string(),
                    revision(&ex.revision),
                    None,
                    http,
                );
                msg.delivered_at_ms = Some(at + 40);
                push(events, at + 20, EventKind::Message(msg), rules, note);
            };
            for effect in &ex.side_effects {
                match (&effect.message, &effect.event) {
                    (Some(m), _) => server_says(
                        &mut events,
                        m,
                        None,
                        effect.rules.clone(),
                        effect.note.clone(),
                    ),
                    (None, Some(kind)) => push(
                        &mut events,
                        at + 20,
                        kind.clone(),
                        effect.rules.clone(),
                        effect.note.clone(),
                    ),
                    (None, None) => {}
                }
            }
            if let Some(reply) = &ex.reply_json {
                let http = ex.status.map(|s| HttpInfo {
                    method: None,
                    status: Some(s),
                    headers: ex.response_headers.clone(),
                });
                server_says(&mut events, reply, http, ex.rules.clone(), ex.note.clone());
            }
        }
        Timeline {
            label: "editor".into(),
            transport: self.transport,
            client_label: "you (the editor)".into(),
            server_label: self.server.config().label(),
            summary: crate::sim::Summary {
                leaked_locks: self.server.locks_held().len() as u32,
                ended_at_ms: events.last().map(|e| e.at_ms).unwrap_or(0),
                outcome: String::new(),
            },
            events,
        }
    }

    fn exchange(&mut self, text: &str, headers: Option<Vec<(String, String)>>) -> Exchange {
        self.clock = self.clock.plus_millis(1);
        let now = self.clock;
        match self.transport {
            TransportKind::Stdio => {
                // stdio frames one message per line: valid JSON is sent with
                // the whitespace between its tokens taken out (as written
                // otherwise), anything else with its line breaks as spaces.
                let sent = if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
                    compact(text)
                } else {
                    text.replace(['\n', '\r'], " ")
                };
                let reply = self.server.handle_text(now, &ConnId::stdio(), &sent);
                let side_effects = self.drain();
                match reply {
                    Some(reply) => describe(
                        sent,
                        Vec::new(),
                        Some(reply.message),
                        None,
                        Vec::new(),
                        reply.rules,
                        reply.note,
                        side_effects,
                        reply.revision.into_string(),
                    ),
                    None => {
                        let note =
                            side_effects
                                .last()
                                .map(|m| m.note.clone())
                                .unwrap_or_else(|| {
                                    "No reply: a notification never gets a response.".into()
                                });
                        let rules = if side_effects.is_empty() {
                            vec![rules::RPC_NOTIFY]
                        } else {
                            Vec::new()
                        };
                        describe(
                            sent,
                            Vec::new(),
                            None,
                            None,
                            Vec::new(),
                            rules,
                            note,
                            side_effects,
                            String::new(),
                        )
                    }
                }
            }
            TransportKind::Http => {
                let mut headers = headers.unwrap_or_else(|| headers_for(text));
                if let Some(session) = &self.http_session {
                    if http::header(&headers, http::SESSION_HEADER).is_none() {
                        headers.push((http::SESSION_HEADER.into(), session.clone()));
                    }
                }
                let request = HttpRequest::post(headers.clone(), text.to_string());
                let HttpReply {
                    response,
                    rules,
                    note,
                    revision,
                } = self.server.handle_http(now, &request);
                if let Some(session) = response.header(http::SESSION_HEADER) {
                    self.http_session = Some(session.to_string());
                }
                let side_effects = self.drain();
                let json = serde_json::from_str::<Value>(&response.body).ok();
                describe(
                    text.to_string(),
                    headers,
                    json,
                    Some(response.status),
                    response.headers.clone(),
                    rules,
                    note,
                    side_effects,
                    revision.into_string(),
                )
            }
        }
    }

    fn drain(&mut self) -> Vec<ServerMessage> {
        let mut out = Vec::new();
        while let Some(o) = self.server.poll_output() {
            let (text, message, event) = match o.kind {
                OutputKind::Send { message, .. } => (pretty(&message), Some(message), None),
                OutputKind::LockTaken(name) => (
                    format!("lock taken: {name}"),
                    None,
                    Some(EventKind::LockTaken { name }),
                ),
                OutputKind::LockReleased(name) => (
                    format!("lock released: {name}"),
                    None,
                    Some(EventKind::LockReleased { name }),
                ),
                OutputKind::Dropped(what) => (
                    format!("dropped: {what}"),
                    None,
                    Some(EventKind::Dropped {
                        side: Side::Server,
                        what,
                    }),
                ),
                OutputKind::Decision => continue,
            };
            out.push(ServerMessage {
                text,
                message,
                event,
                rules: o.rules,
                note: o.note,
            });
        }
        out
    }
}

/// Valid JSON text without the whitespace between its tokens: one line, as
/// a client writes a message on stdio, without re-serialising it.
fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c.is_ascii_whitespace() {
            continue;
        }
        out.push(c);
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn describe(
    sent: String,
    request_headers: Vec<(String, String)>,
    reply: Option<Value>,
    status: Option<u16>,
    response_headers: Vec<(String, String)>,
    rules: Vec<RuleId>,
    note: String,
    side_effects: Vec<ServerMessage>,
    revision: String,
) -> Exchange {
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
    }
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

#[cfg(test)]
mod tests;
