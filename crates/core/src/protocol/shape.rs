//! Path-aware shape checks of incoming JSON: the few request shapes the
//! server and the editor need, described as data and checked by one small
//! interpreter (much lighter in WebAssembly than a deserializer per type).
//! A failure names the JSON path and what the schema expects there.

use serde_json::Value;

use super::meta;
use crate::note;
use crate::note::Note;

/// What a value must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A JSON string.
    String,
    /// A JSON integer.
    Integer,
    /// A string or an integer (a request id).
    Id,
    /// Any JSON object.
    Object,
    /// A JSON object whose fields have these shapes.
    Fields(&'static [Field]),
    /// A JSON object whose every value is an object.
    MapOfObjects,
    /// Anything.
    Any,
}

impl Kind {
    fn expected(self) -> Note {
        match self {
            Kind::String => note!("shape.a_string", "a string"),
            Kind::Integer => note!("shape.an_integer", "an integer"),
            Kind::Id => note!("shape.a_string_or_an_integer", "a string or an integer"),
            Kind::Object | Kind::Fields(_) => note!("shape.an_object", "an object"),
            Kind::MapOfObjects => note!("shape.an_object_of_objects", "an object of objects"),
            Kind::Any => note!("shape.any_value", "any value"),
        }
    }
}

/// One member of an object shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Member name.
    pub name: &'static str,
    /// Its shape.
    pub kind: Kind,
    /// Whether it must be present.
    pub required: bool,
}

const fn req(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        required: true,
    }
}

const fn opt(name: &'static str, kind: Kind) -> Field {
    Field {
        name,
        kind,
        required: false,
    }
}

/// A shape violation: where, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError {
    /// JSON path such as `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    pub path: String,
    /// What the schema expects there, and what was found (English text;
    /// its message says it in any language).
    pub message: Note,
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message.text())
    }
}

impl std::error::Error for ShapeError {}

fn found(value: &Value) -> Note {
    match value {
        Value::Null => Note::from("null"),
        Value::Bool(_) => note!("shape.a_boolean", "a boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Kind::Integer.expected(),
        Value::Number(_) => note!("shape.a_number", "a number"),
        Value::String(_) => Kind::String.expected(),
        Value::Array(_) => note!("shape.an_array", "an array"),
        Value::Object(_) => Kind::Object.expected(),
    }
}

fn member_path(base: &str, name: &str) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("{base}.{name}")
    } else {
        format!("{base}[\"{name}\"]")
    }
}

/// Checks `value` (found at `path`) against `kind`.
pub fn check(value: &Value, path: &str, kind: Kind) -> Result<(), ShapeError> {
    let wrong = || {
        Err(ShapeError {
            path: path.to_string(),
            message: note!(
                "shape.expected_found",
                "expected {expected}, found {found}",
                expected = kind.expected(),
                found = found(value)
            ),
        })
    };
    match kind {
        Kind::Any => Ok(()),
        Kind::String if value.is_string() => Ok(()),
        Kind::Integer if value.is_i64() || value.is_u64() => Ok(()),
        Kind::Id if value.is_string() || value.is_i64() || value.is_u64() => Ok(()),
        Kind::Object if value.is_object() => Ok(()),
        Kind::MapOfObjects => match value.as_object() {
            Some(map) => {
                for (name, member) in map {
                    check(member, &member_path(path, name), Kind::Object)?;
                }
                Ok(())
            }
            None => wrong(),
        },
        Kind::Fields(fields) => match value.as_object() {
            Some(map) => {
                for field in fields {
                    let at = member_path(path, field.name);
                    match map.get(field.name) {
                        Some(member) => check(member, &at, field.kind)?,
                        None if field.required => {
                            return Err(ShapeError {
                                path: at,
                                message: note!(
                                    "shape.missing_required",
                                    "missing: {expected} is required",
                                    expected = field.kind.expected()
                                ),
                            })
                        }
                        None => {}
                    }
                }
                Ok(())
            }
            None => wrong(),
        },
        _ => wrong(),
    }
}

/// ClientCapabilities (2026-07-28 and the legacy revisions).
pub const CLIENT_CAPABILITIES: Kind = Kind::Fields(&[
    opt(
        "elicitation",
        Kind::Fields(&[opt("form", Kind::Object), opt("url", Kind::Object)]),
    ),
    opt("sampling", Kind::Object),
    opt("roots", Kind::Object),
    opt("extensions", Kind::MapOfObjects),
    opt("experimental", Kind::MapOfObjects),
]);

/// Implementation (clientInfo / serverInfo).
pub const IMPLEMENTATION: Kind =
    Kind::Fields(&[req("name", Kind::String), req("version", Kind::String)]);

/// RequestMetaObject: the `_meta` of a modern request.
pub const REQUEST_META: Kind = Kind::Fields(&[
    req(meta::PROTOCOL_VERSION, Kind::String),
    req(meta::CLIENT_CAPABILITIES, CLIENT_CAPABILITIES),
    opt(meta::CLIENT_INFO, IMPLEMENTATION),
]);

/// CallToolRequestParams / GetPromptRequestParams (without `_meta`).
pub const NAMED_PARAMS: Kind = Kind::Fields(&[
    req("name", Kind::String),
    opt("arguments", Kind::Object),
    opt("inputResponses", Kind::MapOfObjects),
    opt("requestState", Kind::String),
]);

/// ReadResourceRequestParams and the legacy subscribe params.
pub const URI_PARAMS: Kind = Kind::Fields(&[req("uri", Kind::String)]);

/// CancelledNotificationParams.
pub const CANCELLED_PARAMS: Kind =
    Kind::Fields(&[req("requestId", Kind::Id), opt("reason", Kind::String)]);

/// InitializeRequestParams (legacy).
pub const INITIALIZE_PARAMS: Kind = Kind::Fields(&[
    req("protocolVersion", Kind::String),
    req("capabilities", CLIENT_CAPABILITIES),
    req("clientInfo", IMPLEMENTATION),
]);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_name_the_first_problem() {
        let e = check(&json!({"name": 3}), "params", NAMED_PARAMS).unwrap_err();
        assert_eq!(
            e.to_string(),
            "params.name: expected a string, found an integer"
        );
        let e = check(&json!({}), "params", URI_PARAMS).unwrap_err();
        assert_eq!(e.to_string(), "params.uri: missing: a string is required");
        let e = check(&json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {"elicitation": []}}), "params._meta", REQUEST_META).unwrap_err();
        assert_eq!(
            e.path,
            "params._meta[\"io.modelcontextprotocol/clientCapabilities\"].elicitation"
        );
        assert!(check(&json!({"requestId": "a"}), "params", CANCELLED_PARAMS).is_ok());
        assert!(
            check(&json!({"extra": true, "name": "x"}), "params", NAMED_PARAMS).is_ok(),
            "unknown fields are ignored"
        );
    }
}
