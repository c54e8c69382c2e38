//! Reading the official schemas' definitions (`spec/<revision>/schema.json`)
//! where the S-SCHEMA check and the tests' schema helper need the same
//! answer.

use serde_json::{json, Map, Value};

/// The definition a revision's schema gives for a JSON-RPC error code, as
/// `(name, whole_response)`: `whole_response` when the definition is the
/// whole error response (its `error` fixes the code), false when it is the
/// error object itself. `defs`: the schema's `$defs` (or `definitions`).
pub fn error_code_definition(defs: &Map<String, Value>, code: i64) -> Option<(String, bool)> {
    let fixes = |v: Option<&Value>| v == Some(&json!(code));
    for (name, def) in defs {
        if fixes(def.pointer("/properties/code/const")) {
            return Some((name.clone(), false));
        }
        let whole = def
            .pointer("/properties/error/allOf")
            .and_then(Value::as_array)
            .is_some_and(|parts| {
                parts
                    .iter()
                    .any(|p| fixes(p.pointer("/properties/code/const")))
            });
        if whole {
            return Some((name.clone(), true));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_an_error_object_and_a_whole_response() {
        let defs = json!({
            "ParseError": {"properties": {"code": {"const": -32700}}},
            "MissingCapabilities": {"properties": {"error": {"allOf": [
                {"$ref": "#/$defs/Error"},
                {"properties": {"code": {"const": -32021}}}
            ]}}}
        });
        let defs = defs.as_object().unwrap();
        assert_eq!(
            error_code_definition(defs, -32700),
            Some(("ParseError".into(), false))
        );
        assert_eq!(
            error_code_definition(defs, -32021),
            Some(("MissingCapabilities".into(), true))
        );
        assert_eq!(error_code_definition(defs, -1), None);
    }
}
