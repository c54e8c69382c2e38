//! Checks a tool's arguments against its `inputSchema`: the small subset of
//! JSON Schema that tool schemas use (`type`, `required`, `properties`,
//! `enum`, `const`, `items`, `minimum`/`maximum`, `minLength`/`maxLength`,
//! `additionalProperties: false`). Keywords outside the subset are ignored,
//! never refused: a schema may say more than this checker understands.
//!
//! The server runs it before a tool works (M-TOOL-INPUT, L-TOOL-INPUT); the
//! page's request editor runs it to lint the arguments a person types and
//! to mark each problem in the text by its [`InputError::path`]. It never
//! panics and never recurses deeper than [`MAX_DEPTH`].

use serde_json::Value;

/// How deep into nested objects and arrays the checker goes.
pub const MAX_DEPTH: usize = 32;

/// Most problems one check reports (the first ones, in document order).
pub const MAX_ERRORS: usize = 32;

/// What is wrong at a place, as data (a view says it in its language
/// with [`InputError::note`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The schema there is `false`: no value is allowed.
    NothingAllowed,
    /// Another type was expected.
    WrongType {
        /// The type names the schema allows, e.g. `["integer"]`.
        types: Vec<String>,
        /// The value found, cut short.
        got: String,
    },
    /// Not one of the schema's `enum` values.
    NotInEnum {
        /// The allowed values, as JSON.
        allowed: String,
        /// The value found, cut short.
        got: String,
    },
    /// Not the schema's `const`.
    NotConst {
        /// The one allowed value, as JSON.
        expected: String,
        /// The value found, cut short.
        got: String,
    },
    /// A number below `minimum` (`inclusive`), or not above
    /// `exclusiveMinimum`.
    BelowMinimum {
        /// The limit.
        limit: String,
        /// Whether the limit itself is allowed.
        inclusive: bool,
    },
    /// A number above `maximum` (`inclusive`), or not below
    /// `exclusiveMaximum`.
    AboveMaximum {
        /// The limit.
        limit: String,
        /// Whether the limit itself is allowed.
        inclusive: bool,
    },
    /// A string shorter than `minLength` characters.
    TooShort {
        /// The limit.
        min: u64,
    },
    /// A string longer than `maxLength` characters.
    TooLong {
        /// The limit.
        max: u64,
    },
    /// A `required` property is missing.
    Missing,
    /// A property the schema does not have, where `additionalProperties`
    /// is false.
    NotAllowed,
}

/// One way the arguments break the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// Where, as a JSON path from the arguments object: `$` is the object
    /// itself, `$.city`, `$.stops[2].name`.
    pub path: String,
    /// The field's own name when it is a property (`city` for `$.city`),
    /// for messages that name the field; empty for the root or an item.
    pub field: String,
    /// What is wrong, in English, e.g. `expected an integer, got "two"`
    /// (the server's own words in a tool error).
    pub message: String,
    /// What is wrong, as data.
    pub problem: Problem,
}

impl InputError {
    /// What is wrong as a keyed note, said in any language of the
    /// catalogs (the values in it are data).
    pub fn note(&self) -> crate::note::Note {
        match &self.problem {
            Problem::NothingAllowed => {
                crate::note!("input.nothing_allowed", "no value is allowed here")
            }
            Problem::WrongType { types, got } => crate::note!(
                "input.wrong_type",
                "expected type {types}, got {got}",
                types = types.join(" | "),
                got = got
            ),
            Problem::NotConst { expected, got } => crate::note!(
                "input.not_const",
                "expected {expected}, got {got}",
                expected = expected,
                got = got
            ),
            Problem::NotInEnum { allowed, got } => crate::note!(
                "input.not_in_enum",
                "expected one of {allowed}, got {got}",
                allowed = allowed,
                got = got
            ),
            Problem::BelowMinimum {
                limit,
                inclusive: true,
            } => crate::note!("input.minimum", "must be at least {limit}", limit = limit),
            Problem::BelowMinimum {
                limit,
                inclusive: false,
            } => crate::note!(
                "input.exclusive_minimum",
                "must be more than {limit}",
                limit = limit
            ),
            Problem::AboveMaximum {
                limit,
                inclusive: true,
            } => crate::note!("input.maximum", "must be at most {limit}", limit = limit),
            Problem::AboveMaximum {
                limit,
                inclusive: false,
            } => crate::note!(
                "input.exclusive_maximum",
                "must be less than {limit}",
                limit = limit
            ),
            Problem::TooShort { min } => crate::note!(
                "input.min_length",
                "must be at least {min} characters long",
                min = min
            ),
            Problem::TooLong { max } => crate::note!(
                "input.max_length",
                "must be at most {max} characters long",
                max = max
            ),
            Problem::Missing => crate::note!("input.missing", "required, but missing"),
            Problem::NotAllowed => crate::note!(
                "input.not_allowed",
                "not a property of this tool (additionalProperties is false)"
            ),
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Every way `arguments` breaks `schema` (at most [`MAX_ERRORS`]), in
/// document order; empty when they fit. A schema that is not an object
/// (or is `true`) accepts anything; `false` accepts nothing.
pub fn validate(schema: &Value, arguments: &Value) -> Vec<InputError> {
    let mut errors = Vec::new();
    check(schema, arguments, "$", "", 0, &mut errors);
    errors.truncate(MAX_ERRORS);
    errors
}

/// The first problem's sentence, naming its field: what a tool error says
/// (`"count: expected an integer, got \"two\""`).
pub fn describe(errors: &[InputError]) -> Option<String> {
    let first = errors.first()?;
    let place = if first.path == "$" {
        "arguments".to_string()
    } else {
        first.path.trim_start_matches("$.").to_string()
    };
    Some(format!("{place}: {}", first.message))
}

fn push(errors: &mut Vec<InputError>, path: &str, field: &str, problem: Problem) {
    if errors.len() < MAX_ERRORS {
        errors.push(InputError {
            path: path.to_string(),
            field: field.to_string(),
            message: problem_text(&problem),
            problem,
        });
    }
}

/// A problem in English: the server's words in a tool error.
fn problem_text(problem: &Problem) -> String {
    match problem {
        Problem::NothingAllowed => "no value is allowed here".into(),
        Problem::WrongType { types, got } => format!("expected {}, got {got}", type_words(types)),
        Problem::NotConst { expected, got } => format!("expected {expected}, got {got}"),
        Problem::NotInEnum { allowed, got } => format!("expected one of {allowed}, got {got}"),
        Problem::BelowMinimum {
            limit,
            inclusive: true,
        } => format!("must be at least {limit}"),
        Problem::BelowMinimum {
            limit,
            inclusive: false,
        } => format!("must be more than {limit}"),
        Problem::AboveMaximum {
            limit,
            inclusive: true,
        } => format!("must be at most {limit}"),
        Problem::AboveMaximum {
            limit,
            inclusive: false,
        } => format!("must be less than {limit}"),
        Problem::TooShort { min } => format!("must be at least {min} characters long"),
        Problem::TooLong { max } => format!("must be at most {max} characters long"),
        Problem::Missing => "required, but missing".into(),
        Problem::NotAllowed => "not a property of this tool (additionalProperties is false)".into(),
    }
}

fn check(
    schema: &Value,
    value: &Value,
    path: &str,
    field: &str,
    depth: usize,
    errors: &mut Vec<InputError>,
) {
    if depth > MAX_DEPTH || errors.len() >= MAX_ERRORS {
        return;
    }
    let schema = match schema {
        Value::Bool(false) => {
            push(errors, path, field, Problem::NothingAllowed);
            return;
        }
        Value::Object(schema) => schema,
        _ => return,
    };
    if let Some(expected) = schema.get("type") {
        if !type_matches(expected, value) {
            push(
                errors,
                path,
                field,
                Problem::WrongType {
                    types: type_names(expected),
                    got: shown(value),
                },
            );
            return;
        }
    }
    if let Some(Value::Array(allowed)) = schema.get("enum") {
        if !allowed.iter().any(|a| same(a, value)) {
            let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
            push(
                errors,
                path,
                field,
                Problem::NotInEnum {
                    allowed: list.join(", "),
                    got: shown(value),
                },
            );
        }
    }
    if let Some(constant) = schema.get("const") {
        if !same(constant, value) {
            push(
                errors,
                path,
                field,
                Problem::NotConst {
                    expected: constant.to_string(),
                    got: shown(value),
                },
            );
        }
    }
    match value {
        Value::Number(n) => bounds(schema, n.as_f64().unwrap_or(0.0), path, field, errors),
        Value::String(s) => lengths(schema, s.chars().count(), path, field, errors),
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    let at = format!("{path}[{i}]");
                    check(item_schema, item, &at, "", depth + 1, errors);
                }
            }
        }
        Value::Object(map) => {
            if let Some(Value::Array(required)) = schema.get("required") {
                for name in required.iter().filter_map(Value::as_str) {
                    if !map.contains_key(name) {
                        push(errors, &child(path, name), name, Problem::Missing);
                    }
                }
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
            for (name, item) in map {
                let at = child(path, name);
                match properties.and_then(|p| p.get(name)) {
                    Some(item_schema) => check(item_schema, item, &at, name, depth + 1, errors),
                    None if closed => push(errors, &at, name, Problem::NotAllowed),
                    None => {
                        if let Some(extra @ Value::Object(_)) = schema.get("additionalProperties") {
                            check(extra, item, &at, name, depth + 1, errors);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// `$.name`, or `$["odd name"]` for a name that is not a plain word.
fn child(path: &str, name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        format!("{path}.{name}")
    } else {
        format!("{path}[{}]", Value::from(name))
    }
}

fn bounds(
    schema: &serde_json::Map<String, Value>,
    n: f64,
    path: &str,
    field: &str,
    errors: &mut Vec<InputError>,
) {
    let limit = |key: &str| schema.get(key).and_then(Value::as_f64);
    if let Some(min) = limit("minimum") {
        if n < min {
            push(
                errors,
                path,
                field,
                Problem::BelowMinimum {
                    limit: num(min),
                    inclusive: true,
                },
            );
        }
    }
    if let Some(max) = limit("maximum") {
        if n > max {
            push(
                errors,
                path,
                field,
                Problem::AboveMaximum {
                    limit: num(max),
                    inclusive: true,
                },
            );
        }
    }
    if let Some(min) = limit("exclusiveMinimum") {
        if n <= min {
            push(
                errors,
                path,
                field,
                Problem::BelowMinimum {
                    limit: num(min),
                    inclusive: false,
                },
            );
        }
    }
    if let Some(max) = limit("exclusiveMaximum") {
        if n >= max {
            push(
                errors,
                path,
                field,
                Problem::AboveMaximum {
                    limit: num(max),
                    inclusive: false,
                },
            );
        }
    }
}

fn lengths(
    schema: &serde_json::Map<String, Value>,
    len: usize,
    path: &str,
    field: &str,
    errors: &mut Vec<InputError>,
) {
    let limit = |key: &str| schema.get(key).and_then(Value::as_u64);
    if let Some(min) = limit("minLength") {
        if (len as u64) < min {
            push(errors, path, field, Problem::TooShort { min });
        }
    }
    if let Some(max) = limit("maxLength") {
        if (len as u64) > max {
            push(errors, path, field, Problem::TooLong { max });
        }
    }
}

/// A number as JSON writes it (`3`, not `3.0`).
fn num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

fn type_matches(expected: &Value, value: &Value) -> bool {
    match expected {
        Value::String(t) => is_type(t, value),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .any(|t| is_type(t, value)),
        // A `type` that is neither: not understood, not enforced.
        _ => true,
    }
}

fn is_type(name: &str, value: &Value) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
            }
            _ => false,
        },
        // An unknown type name: not understood, not enforced.
        _ => true,
    }
}

/// The type names of a schema's `type` (a name or a list of names).
fn type_names(expected: &Value) -> Vec<String> {
    match expected {
        Value::String(t) => vec![t.clone()],
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        other => vec![other.to_string()],
    }
}

/// Type names in English: `an integer`, `a string or null`.
fn type_words(types: &[String]) -> String {
    let word = |t: &str| match t {
        "object" => "an object".to_string(),
        "array" => "an array".to_string(),
        "integer" => "an integer".to_string(),
        "null" => "null".to_string(),
        other => format!("a {other}"),
    };
    types
        .iter()
        .map(|t| word(t))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Equality as JSON Schema means it: `1` and `1.0` are the same number.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// A value as a message shows it, cut short.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{cut}...")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(schema: Value, args: Value) -> Vec<String> {
        validate(&schema, &args)
            .into_iter()
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn accepts_what_fits() {
        let schema = json!({"type": "object", "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer", "minimum": 1, "maximum": 7}}, "required": ["city"]});
        assert!(paths(schema, json!({"city": "Oslo", "days": 3})).is_empty());
    }

    #[test]
    fn names_each_problem_by_path() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
                "unit": {"enum": ["C", "F"]},
                "stops": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 3}}}}
            },
            "required": ["city"],
            "additionalProperties": false
        });
        let got = paths(
            schema,
            json!({"days": 9, "unit": "K", "stops": [{"name": "ok"}, {"name": "long"}], "x": 1}),
        );
        assert_eq!(
            got,
            vec![
                "$.city: required, but missing",
                "$.days: must be at most 7",
                "$.unit: expected one of \"C\", \"F\", got \"K\"",
                "$.stops[1].name: must be at most 3 characters long",
                "$.x: not a property of this tool (additionalProperties is false)",
            ]
        );
    }

    #[test]
    fn wrong_type_stops_at_that_value() {
        let schema =
            json!({"type": "object", "properties": {"count": {"type": "integer", "minimum": 1}}});
        let errors = validate(&schema, &json!({"count": "two"}));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "count");
        assert_eq!(
            describe(&errors).as_deref(),
            Some("count: expected an integer, got \"two\"")
        );
        assert!(validate(&schema, &json!({"count": 2.0})).is_empty());
        assert_eq!(
            paths(schema, json!([])),
            vec!["$: expected an object, got []"]
        );
    }

    #[test]
    fn odd_names_and_unknown_keywords() {
        let schema = json!({"type": "object", "required": ["a b"], "properties": {"p": {"type": "mystery", "pattern": "^x"}}});
        assert_eq!(
            paths(schema.clone(), json!({})),
            vec!["$[\"a b\"]: required, but missing"]
        );
        assert!(paths(schema, json!({"a b": 1, "p": "y"})).is_empty());
        assert!(validate(&json!(true), &json!(5)).is_empty());
        assert_eq!(validate(&json!(false), &json!(5)).len(), 1);
    }

    #[test]
    fn deep_input_neither_recurses_forever_nor_reports_without_end() {
        let mut schema = json!({"type": "string"});
        let mut value = json!(1);
        for _ in 0..200 {
            schema = json!({"type": "array", "items": schema});
            value = json!([value]);
        }
        assert!(validate(&schema, &value).is_empty());
        let many: Vec<Value> = (0..100).map(|_| json!(1)).collect();
        let errors = validate(
            &json!({"type": "array", "items": {"type": "string"}}),
            &json!(many),
        );
        assert_eq!(errors.len(), MAX_ERRORS);
    }
}
