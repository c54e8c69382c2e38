//! Custom headers from tool parameters (SEP-2243): the `x-mcp-header`
//! annotations of a tool's inputSchema, whether they are valid
//! (C-PARAM-INVALID), and the `Mcp-Param-{name}` headers a `tools/call`
//! carries for its arguments (C-PARAM-HEADERS).
//!
//! Pure functions over `serde_json::Value`: the client uses them to build
//! its requests; a server can use [`designated`] and [`header_value`] to
//! check what it receives.

use serde_json::Value;

use super::http::encode_header_value;

/// The schema keyword naming a parameter's header.
pub const ANNOTATION: &str = "x-mcp-header";

/// What every custom header name starts with.
pub const PREFIX: &str = "Mcp-Param-";

/// The largest integer a header may carry: 2^53 - 1, the safe range of an
/// IEEE 754 double.
pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// How deep a schema is searched for annotations before it is refused.
const MAX_DEPTH: usize = 64;

/// One designated parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Designated {
    /// The name part, as annotated (`Region` gives `Mcp-Param-Region`).
    pub name: String,
    /// The chain of `properties` keys from the schema root to the parameter.
    pub path: Vec<String>,
}

impl Designated {
    /// The full header name, `Mcp-Param-{name}`.
    pub fn header_name(&self) -> String {
        format!("{PREFIX}{}", self.name)
    }

    /// The parameter's value in `arguments`, if present.
    pub fn value_in<'a>(&self, arguments: &'a Value) -> Option<&'a Value> {
        self.path
            .iter()
            .try_fold(arguments, |value, key| value.get(key))
    }
}

/// Why a schema's annotations are invalid (C-PARAM-INVALID).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidAnnotation {
    /// Where the annotation is, e.g. `properties.region`.
    pub at: String,
    /// What is wrong with it, in a sentence fragment.
    pub reason: String,
}

impl std::fmt::Display for InvalidAnnotation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at {}", self.reason, self.at)
    }
}

impl std::error::Error for InvalidAnnotation {}

/// Every `x-mcp-header` annotation of `schema`, in schema order, or the
/// first reason they are invalid: an empty name, a name that is not an
/// HTTP token (RFC 9110 §5.6.2: no space, colon, control or non-ASCII
/// character), a name used twice (case-insensitively), a parameter whose
/// type is not string, integer or boolean, or an annotation anywhere but on
/// a property reached from the root through `properties` keys alone.
pub fn designated(schema: &Value) -> Result<Vec<Designated>, InvalidAnnotation> {
    let mut found = Vec::new();
    walk(schema, &mut Vec::new(), true, 0, &mut found)?;
    let mut seen: Vec<String> = Vec::new();
    for d in &found {
        let lower = d.name.to_ascii_lowercase();
        if seen.contains(&lower) {
            return Err(InvalidAnnotation {
                at: location(&d.path),
                reason: format!(
                    "the header name {:?} is used twice (names compare case-insensitively)",
                    d.name
                ),
            });
        }
        seen.push(lower);
    }
    Ok(found)
}

/// `path` is where `node` sits; `reachable` says whether every step to it
/// was a `properties` key (the root counts as reachable, but cannot itself
/// be a parameter).
fn walk(
    node: &Value,
    path: &mut Vec<String>,
    reachable: bool,
    depth: usize,
    found: &mut Vec<Designated>,
) -> Result<(), InvalidAnnotation> {
    if depth > MAX_DEPTH {
        return Err(InvalidAnnotation {
            at: location(path),
            reason: format!("the schema is nested deeper than {MAX_DEPTH} levels"),
        });
    }
    match node {
        Value::Object(map) => {
            if let Some(annotation) = map.get(ANNOTATION) {
                let is_parameter = reachable && !path.is_empty();
                found.push(check(annotation, map, path, is_parameter)?);
            }
            for (key, child) in map {
                match key.as_str() {
                    ANNOTATION => {}
                    // Data, not schemas.
                    "const" | "enum" | "default" | "examples" => {}
                    "properties" => {
                        if let Value::Object(props) = child {
                            for (name, schema) in props {
                                path.push(name.clone());
                                let r = walk(schema, path, reachable, depth + 1, found);
                                path.pop();
                                r?;
                            }
                        }
                    }
                    _ => {
                        // Anything else (items, allOf, $defs, if, ...) is not
                        // statically reachable; its annotations are invalid.
                        path.push(format!("[{key}]"));
                        let r = walk(child, path, false, depth + 1, found);
                        path.pop();
                        r?;
                    }
                }
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(format!("[{i}]"));
                let r = walk(item, path, false, depth + 1, found);
                path.pop();
                r?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn check(
    annotation: &Value,
    schema: &serde_json::Map<String, Value>,
    path: &[String],
    is_parameter: bool,
) -> Result<Designated, InvalidAnnotation> {
    let fail = |reason: String| InvalidAnnotation {
        at: location(path),
        reason,
    };
    if !is_parameter {
        return Err(fail(
            "x-mcp-header sits on a schema that is not a property reached through `properties` alone".into(),
        ));
    }
    let Some(name) = annotation.as_str() else {
        return Err(fail(format!("x-mcp-header is {annotation}, not a string")));
    };
    if name.is_empty() {
        return Err(fail("x-mcp-header is empty".into()));
    }
    if let Some(bad) = name.chars().find(|c| !is_tchar(*c)) {
        return Err(fail(format!(
            "x-mcp-header {name:?} is not an HTTP token: {bad:?} is not allowed in a header name"
        )));
    }
    let kinds: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let primitive: Vec<&str> = kinds.iter().copied().filter(|t| *t != "null").collect();
    let allowed = matches!(primitive.as_slice(), ["string"] | ["integer"] | ["boolean"]);
    if !allowed {
        let what = if kinds.is_empty() {
            "no type".to_string()
        } else {
            format!("type {}", kinds.join("|"))
        };
        return Err(fail(format!(
            "x-mcp-header {name:?} is on a parameter of {what}; only string, integer and boolean parameters may be mirrored"
        )));
    }
    Ok(Designated {
        name: name.to_string(),
        path: path.to_vec(),
    })
}

/// An RFC 9110 `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn location(path: &[String]) -> String {
    if path.is_empty() {
        return "the schema root".into();
    }
    let mut out = String::new();
    for step in path {
        if step.starts_with('[') {
            out.push_str(step);
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str("properties.");
            out.push_str(step);
        }
    }
    out
}

/// Why an argument cannot be mirrored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsendableValue(pub String);

/// The header value for an argument (C-PARAM-HEADERS): a string as it is,
/// an integer in decimal, a boolean as `true`/`false`, each encoded by
/// [`encode_header_value`] (C-PARAM-HEADERS). `Ok(None)` for null (no
/// header); an integer outside the safe range cannot be sent. A value whose
/// JSON type is not the declared one (an object for a string parameter) is
/// not mirrored: the server refuses the arguments anyway.
pub fn header_value(value: &Value) -> Result<Option<String>, UnsendableValue> {
    Ok(match value {
        Value::Null | Value::Object(_) | Value::Array(_) => None,
        Value::String(s) => Some(encode_header_value(s)),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                if i.abs() > MAX_SAFE_INTEGER {
                    return Err(UnsendableValue(format!(
                        "{i} is outside the safe integer range (±{MAX_SAFE_INTEGER})"
                    )));
                }
                Some(i.to_string())
            } else if n.as_u64().is_some() {
                return Err(UnsendableValue(format!(
                    "{n} is outside the safe integer range (±{MAX_SAFE_INTEGER})"
                )));
            } else {
                match n.as_f64() {
                    Some(f) if f.fract() == 0.0 && f.abs() <= MAX_SAFE_INTEGER as f64 => {
                        Some(format!("{}", f as i64))
                    }
                    _ => Some(n.to_string()),
                }
            }
        }
    })
}

/// The `Mcp-Param-*` headers for calling a tool with `arguments`, given its
/// designated parameters; absent and null values send none.
pub fn headers_for(
    designated: &[Designated],
    arguments: &Value,
) -> Result<Vec<(String, String)>, UnsendableValue> {
    let mut out = Vec::new();
    for d in designated {
        let Some(value) = d.value_in(arguments) else {
            continue;
        };
        if let Some(text) = header_value(value)
            .map_err(|e| UnsendableValue(format!("{}: {}", d.header_name(), e.0)))?
        {
            out.push((d.header_name(), text));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_annotations_through_nested_properties() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "opts": {"type": "object", "properties": {"level": {"type": "integer", "x-mcp-header": "Level"}}}
        }});
        let d = designated(&schema).unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d[1].path, ["opts", "level"]);
        let headers = headers_for(&d, &json!({"region": "eu", "opts": {"level": 3}})).unwrap();
        assert_eq!(
            headers,
            [
                ("Mcp-Param-Region".to_string(), "eu".to_string()),
                ("Mcp-Param-Level".to_string(), "3".to_string())
            ]
        );
    }

    #[test]
    fn refuses_annotations_outside_properties_chains() {
        for schema in [
            json!({"type": "object", "items": {"type": "string", "x-mcp-header": "X"}}),
            json!({"allOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]}),
            json!({"$defs": {"a": {"type": "string", "x-mcp-header": "A"}}}),
            json!({"type": "string", "x-mcp-header": "Root"}),
        ] {
            assert!(designated(&schema).is_err(), "{schema}");
        }
        // Data named like the keyword is not an annotation.
        let fine = json!({"properties": {"a": {"type": "string", "default": {"x-mcp-header": 1}}}});
        assert_eq!(designated(&fine).unwrap(), []);
    }
}
