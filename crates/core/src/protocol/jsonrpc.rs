//! JSON-RPC 2.0 envelopes and error codes.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// A JSON-RPC error code (RPC-CODES). Open set, after rmcp's `ErrorCode`:
/// the codes this simulator knows are named constants, and any other
/// integer a peer sends is kept as it is. Serialises as the plain number;
/// displays as it (`-32602`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ErrorCode(pub i64);

impl ErrorCode {
    /// Text that is not JSON (RPC-PARSE).
    pub const PARSE_ERROR: ErrorCode = ErrorCode(-32700);
    /// JSON that is not a valid request object (RPC-INVALID).
    pub const INVALID_REQUEST: ErrorCode = ErrorCode(-32600);
    /// Unknown method (M-UNKNOWN-METHOD).
    pub const METHOD_NOT_FOUND: ErrorCode = ErrorCode(-32601);
    /// Invalid params, including malformed `_meta` and unknown tools.
    pub const INVALID_PARAMS: ErrorCode = ErrorCode(-32602);
    /// Internal error.
    pub const INTERNAL_ERROR: ErrorCode = ErrorCode(-32603);
    /// Resource not found in a legacy session (L-RESOURCE-NOT-FOUND);
    /// 2026-07-28 answers -32602 instead (RPC-CODES).
    pub const RESOURCE_NOT_FOUND: ErrorCode = ErrorCode(-32002);
    /// HTTP headers disagree with the body (H-HEADERS).
    pub const HEADER_MISMATCH: ErrorCode = ErrorCode(-32020);
    /// A capability the request needs was not declared (M-CAP-REQUIRED).
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: ErrorCode = ErrorCode(-32021);
    /// The requested protocol version is not implemented (M-VERSION).
    pub const UNSUPPORTED_PROTOCOL_VERSION: ErrorCode = ErrorCode(-32022);
    /// A generic server error of the legacy SDKs' range (-32000..-32019).
    pub const LEGACY_SERVER_ERROR: ErrorCode = ErrorCode(-32000);

    /// Errors only a modern server sends; they identify a modern peer
    /// (E-PROBE-STDIO, E-PROBE-HTTP).
    pub const RECOGNIZED_MODERN: &'static [ErrorCode] = &[
        Self::HEADER_MISMATCH,
        Self::MISSING_REQUIRED_CLIENT_CAPABILITY,
        Self::UNSUPPORTED_PROTOCOL_VERSION,
    ];

    /// Whether only a modern server sends this code (see [`Self::RECOGNIZED_MODERN`]).
    pub fn is_recognized_modern(self) -> bool {
        Self::RECOGNIZED_MODERN.contains(&self)
    }

    /// Human name of the code.
    pub fn name(self) -> &'static str {
        match self {
            Self::PARSE_ERROR => "Parse error",
            Self::INVALID_REQUEST => "Invalid Request",
            Self::METHOD_NOT_FOUND => "Method not found",
            Self::INVALID_PARAMS => "Invalid params",
            Self::INTERNAL_ERROR => "Internal error",
            Self::HEADER_MISMATCH => "HeaderMismatch",
            Self::MISSING_REQUIRED_CLIENT_CAPABILITY => "MissingRequiredClientCapability",
            Self::UNSUPPORTED_PROTOCOL_VERSION => "UnsupportedProtocolVersion",
            ErrorCode(-32019..=-32000) => "Server error (legacy range)",
            _ => "Error",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A request id: a string or an integer, never null (RPC-ID).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RequestId {
    /// Integer id.
    Number(i64),
    /// String id.
    Text(String),
}

impl RequestId {
    /// Reads an id from JSON; `None` for null, floats, objects and the like.
    pub fn from_json(value: &Value) -> Option<RequestId> {
        match value {
            Value::String(s) => Some(RequestId::Text(s.clone())),
            Value::Number(n) => n.as_i64().map(RequestId::Number),
            _ => None,
        }
    }
    /// This id as JSON.
    pub fn to_json(&self) -> Value {
        match self {
            RequestId::Number(n) => json!(n),
            RequestId::Text(s) => json!(s),
        }
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::Text(s) => write!(f, "\"{s}\""),
        }
    }
}

/// The error member of an error response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// Error code.
    pub code: ErrorCode,
    /// One-sentence message.
    pub message: String,
    /// Structured details.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// An error without data.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }
    /// Adds `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// What kind of JSON-RPC message a JSON value is.
#[derive(Debug, Clone, PartialEq)]
pub enum Envelope {
    /// Has `method` and `id`.
    Request {
        /// The id.
        id: RequestId,
        /// The method.
        method: String,
        /// The params (`Value::Null` when absent).
        params: Value,
    },
    /// Has `method` and no `id`.
    Notification {
        /// The method.
        method: String,
        /// The params (`Value::Null` when absent).
        params: Value,
    },
    /// Has `id` and `result`.
    Result {
        /// The id.
        id: RequestId,
        /// The result object.
        result: Value,
    },
    /// Has `error` (id may be null).
    Error {
        /// The id, if any.
        id: Option<RequestId>,
        /// The error.
        error: ErrorObject,
    },
}

/// Why a JSON value is not a valid JSON-RPC message (RPC-INVALID).
#[derive(Debug, Clone, PartialEq)]
pub struct InvalidEnvelope {
    /// The id, when one could be read, so the error can echo it.
    pub id: Option<RequestId>,
    /// What is wrong, for the error message.
    pub reason: String,
}

impl Envelope {
    /// Classifies a JSON value. Unknown members are ignored (RPC-UNKNOWN-FIELD).
    pub fn classify(value: &Value) -> Result<Envelope, InvalidEnvelope> {
        let obj = match value {
            Value::Object(obj) => obj,
            Value::Array(_) => {
                return Err(InvalidEnvelope {
                    id: None,
                    reason: "batches (JSON arrays) are not supported".into(),
                })
            }
            _ => {
                return Err(InvalidEnvelope {
                    id: None,
                    reason: "a message must be a JSON object".into(),
                })
            }
        };
        let raw_id = obj.get("id");
        let id = raw_id.and_then(RequestId::from_json);
        let fail = |reason: &str| {
            Err(InvalidEnvelope {
                id: id.clone(),
                reason: reason.into(),
            })
        };
        if obj.get("jsonrpc") != Some(&Value::String("2.0".into())) {
            return fail("\"jsonrpc\" must be exactly \"2.0\"");
        }
        if let Some(raw) = raw_id {
            if id.is_none() && !(raw.is_null() && obj.contains_key("error")) {
                return fail("\"id\" must be a string or an integer");
            }
        }
        let params = obj.get("params").cloned().unwrap_or(Value::Null);
        if let Some(method) = obj.get("method") {
            let Some(method) = method.as_str() else {
                return fail("\"method\" must be a string");
            };
            if !(params.is_null() || params.is_object()) {
                return fail("\"params\" must be an object");
            }
            if obj.contains_key("params") && params.is_null() {
                return fail("\"params\" must be an object");
            }
            return Ok(match id {
                Some(id) => Envelope::Request {
                    id,
                    method: method.to_string(),
                    params,
                },
                None => Envelope::Notification {
                    method: method.to_string(),
                    params,
                },
            });
        }
        if let Some(result) = obj.get("result") {
            let Some(id) = id else {
                return fail("a result needs an \"id\"");
            };
            return Ok(Envelope::Result {
                id,
                result: result.clone(),
            });
        }
        if let Some(error) = obj.get("error") {
            let code = error.get("code").and_then(Value::as_i64);
            let message = error.get("message").and_then(Value::as_str);
            return match (code, message) {
                (Some(code), Some(message)) => Ok(Envelope::Error {
                    id,
                    error: ErrorObject {
                        code: ErrorCode(code),
                        message: message.to_string(),
                        data: error.get("data").cloned(),
                    },
                }),
                _ => fail("\"error\" must have an integer \"code\" and a string \"message\""),
            };
        }
        fail("a message needs \"method\", \"result\" or \"error\"")
    }

    /// The method, for requests and notifications.
    pub fn method(&self) -> Option<&str> {
        match self {
            Envelope::Request { method, .. } | Envelope::Notification { method, .. } => {
                Some(method)
            }
            _ => None,
        }
    }
}

/// Builds a request message.
pub fn request(id: &RequestId, method: &str, params: Value) -> Value {
    let mut obj = Map::new();
    obj.insert("jsonrpc".into(), json!("2.0"));
    obj.insert("id".into(), id.to_json());
    obj.insert("method".into(), json!(method));
    if !params.is_null() {
        obj.insert("params".into(), params);
    }
    Value::Object(obj)
}

/// Builds a notification message.
pub fn notification(method: &str, params: Value) -> Value {
    let mut obj = Map::new();
    obj.insert("jsonrpc".into(), json!("2.0"));
    obj.insert("method".into(), json!(method));
    if !params.is_null() {
        obj.insert("params".into(), params);
    }
    Value::Object(obj)
}

/// Builds a result response.
pub fn result(id: &RequestId, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.to_json(), "result": result})
}

/// Builds an error response. When the request's id could not be read (e.g.
/// a parse error) the id is left out: JSON-RPC 2.0 writes `null` there, but
/// 2026-07-28 types it `id?: string | number`, so absent is the form that
/// validates against the official schema.
pub fn error(id: Option<&RequestId>, error: &ErrorObject) -> Value {
    let mut err = Map::new();
    err.insert("code".into(), json!(error.code));
    err.insert("message".into(), json!(error.message));
    if let Some(data) = &error.data {
        err.insert("data".into(), data.clone());
    }
    let mut obj = Map::new();
    obj.insert("jsonrpc".into(), json!("2.0"));
    if let Some(id) = id {
        obj.insert("id".into(), id.to_json());
    }
    obj.insert("error".into(), Value::Object(err));
    Value::Object(obj)
}
