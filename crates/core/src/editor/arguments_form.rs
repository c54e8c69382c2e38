//! The arguments form of a `tools/call`: one control per property of the
//! tool's `inputSchema` (its type, whether it is required, its choices and
//! default), read from the request text and written back into it, so the
//! form and the JSON stay in step. The text is the one source: the form is
//! built from it after every edit, and a change in the form rewrites only
//! `params.arguments` (the rest of the request keeps its values).

use serde_json::{Map, Value};

use super::pretty;
use crate::protocol::methods;

/// What kind of control a property gets.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Control {
    /// A line of text (`"type": "string"`).
    Text,
    /// A number (`"type": "number"`).
    Number,
    /// A whole number (`"type": "integer"`).
    Integer,
    /// A checkbox (`"type": "boolean"`).
    Boolean,
    /// One of the schema's `enum` values (or its one `const`).
    Choice(Vec<Value>),
    /// JSON text: arrays, objects and anything the form has no control for.
    Json,
}

/// One property of the tool's arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The property's name.
    pub name: String,
    /// Its control.
    pub control: Control,
    /// Whether the schema lists it in `required`.
    pub required: bool,
    /// The schema's `description`, as the server wrote it.
    pub description: Option<String>,
    /// The schema's `default` (the form shows it while the value is absent).
    pub default: Option<Value>,
    /// The value the text has now, if any.
    pub value: Option<Value>,
}

/// A part of the schema the form does not draw (the lint still checks
/// what the checker understands): its place and keyword.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    /// The property (empty: the schema itself).
    pub at: String,
    /// The keyword, e.g. `oneOf`.
    pub keyword: String,
}

/// The form of one `tools/call`.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    /// The tool called.
    pub tool: String,
    /// One field per property, in the schema's order.
    pub fields: Vec<Field>,
    /// What the form leaves out.
    pub unsupported: Vec<Unsupported>,
    /// Argument names in the text that the schema does not have.
    pub extra: Vec<String>,
}

/// Why a form's change could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormError {
    /// The request text is not JSON (fix it first).
    TextNotJson,
    /// `params` or `params.arguments` is there but not an object.
    NotAnObject,
    /// What was typed is not a number.
    NotANumber,
    /// What was typed is not a whole number.
    NotAnInteger,
    /// What was typed is not JSON.
    InputNotJson,
}

/// Keywords the form cannot draw as controls.
const UNSUPPORTED: [&str; 8] = [
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "$ref",
    "if",
    "patternProperties",
    "dependentSchemas",
];

/// The form for `text` when it is a `tools/call` of a tool `schema_of`
/// knows (its name to its `inputSchema`); `None` otherwise.
pub fn form_for<'a>(text: &str, schema_of: impl Fn(&str) -> Option<&'a Value>) -> Option<Form> {
    if text.len() > super::MAX_REQUEST_BYTES {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    if value.get("method").and_then(Value::as_str) != Some(methods::TOOLS_CALL) {
        return None;
    }
    let params = value.get("params")?;
    let tool = params.get("name").and_then(Value::as_str)?;
    let schema = schema_of(tool)?;
    Some(form(tool, schema, params.get("arguments")))
}

/// The form of `schema` with the values of `arguments`.
pub fn form(tool: &str, schema: &Value, arguments: Option<&Value>) -> Form {
    let mut unsupported = Vec::new();
    let mut note = |at: &str, s: &Value| {
        for keyword in UNSUPPORTED {
            if s.get(keyword).is_some() {
                unsupported.push(Unsupported {
                    at: at.to_string(),
                    keyword: keyword.to_string(),
                });
            }
        }
    };
    note("", schema);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let args = arguments.and_then(Value::as_object);
    let mut fields = Vec::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            note(name, prop);
            fields.push(Field {
                name: name.clone(),
                control: control(prop),
                required: required.contains(&name.as_str()),
                description: prop
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                default: prop.get("default").cloned(),
                value: args.and_then(|a| a.get(name)).cloned(),
            });
        }
    }
    let extra = args
        .map(|a| {
            a.keys()
                .filter(|k| !fields.iter().any(|f| &f.name == *k))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    Form {
        tool: tool.to_string(),
        fields,
        unsupported,
        extra,
    }
}

/// The control of one property's schema.
fn control(prop: &Value) -> Control {
    if let Some(values) = prop.get("enum").and_then(Value::as_array) {
        return Control::Choice(values.clone());
    }
    if let Some(one) = prop.get("const") {
        return Control::Choice(vec![one.clone()]);
    }
    let kind = match prop.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        // ["string", "null"]: the one that is not null.
        Some(Value::Array(ts)) => {
            let named: Vec<&str> = ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            (named.len() == 1).then(|| named[0])
        }
        _ => None,
    };
    match kind {
        Some("string") => Control::Text,
        Some("number") => Control::Number,
        Some("integer") => Control::Integer,
        Some("boolean") => Control::Boolean,
        _ => Control::Json,
    }
}

/// How a value shows in its control: a string as it is, anything else
/// as JSON (an empty string for no value).
pub fn shown(value: Option<&Value>) -> String {
    match value {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The value a control's input stands for (`None`: no value, the
/// property is left out): empty input is no value; a choice is the JSON
/// of one of its values (see [`choice_key`]).
pub fn value_of(control: &Control, input: &str) -> Result<Option<Value>, FormError> {
    if input.is_empty() {
        return Ok(None);
    }
    let value = match control {
        Control::Text => Value::String(input.to_string()),
        Control::Integer => Value::from(
            input
                .trim()
                .parse::<i64>()
                .map_err(|_| FormError::NotAnInteger)?,
        ),
        Control::Number => {
            let n: f64 = input.trim().parse().map_err(|_| FormError::NotANumber)?;
            serde_json::Number::from_f64(n)
                .map(Value::Number)
                .ok_or(FormError::NotANumber)?
        }
        Control::Boolean => Value::Bool(input == "true"),
        Control::Choice(_) | Control::Json => {
            serde_json::from_str(input).map_err(|_| FormError::InputNotJson)?
        }
    };
    Ok(Some(value))
}

/// The key a choice's option carries (its value as JSON).
pub fn choice_key(value: &Value) -> String {
    value.to_string()
}

/// `text` with argument `name` set to `value` (or left out, for `None`):
/// `params.arguments` is made when missing, the rest of the request is
/// kept, and the text comes back pretty-printed.
pub fn set_argument(text: &str, name: &str, value: Option<Value>) -> Result<String, FormError> {
    let mut request: Value = serde_json::from_str(text).map_err(|_| FormError::TextNotJson)?;
    let object = request.as_object_mut().ok_or(FormError::NotAnObject)?;
    let params = object
        .entry("params")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or(FormError::NotAnObject)?;
    let arguments = params
        .entry("arguments")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or(FormError::NotAnObject)?;
    match value {
        Some(v) => {
            arguments.insert(name.to_string(), v);
        }
        None => {
            arguments.remove(name);
        }
    }
    Ok(pretty(&request))
}

/// `text` with every absent argument that has a default set to it (`None`
/// when nothing is missing or the text is not a form's).
pub fn fill_defaults(text: &str, form: &Form) -> Option<String> {
    let mut out = text.to_string();
    let mut changed = false;
    for f in form.fields.iter().filter(|f| f.value.is_none()) {
        if let Some(d) = &f.default {
            out = set_argument(&out, &f.name, Some(d.clone())).ok()?;
            changed = true;
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "service": {"type": "string", "description": "Which service"},
                "days": {"type": "integer", "default": 7},
                "ratio": {"type": "number"},
                "dry_run": {"type": "boolean"},
                "level": {"enum": ["low", "high"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
            },
            "required": ["service"]
        })
    }

    const CALL: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","arguments":{"service":"api","extra":1}}}"#;

    #[test]
    fn m_tool_input_form_has_a_control_per_property_from_the_schema() {
        let s = schema();
        let form = form_for(CALL, |n| (n == "deploy").then_some(&s)).expect("a form");
        assert_eq!(form.tool, "deploy");
        let kinds: Vec<(&str, &Control, bool)> = form
            .fields
            .iter()
            .map(|f| (f.name.as_str(), &f.control, f.required))
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("service", &Control::Text, true),
                ("days", &Control::Integer, false),
                ("ratio", &Control::Number, false),
                ("dry_run", &Control::Boolean, false),
                (
                    "level",
                    &Control::Choice(vec![json!("low"), json!("high")]),
                    false
                ),
                ("tags", &Control::Json, false),
                ("either", &Control::Json, false),
            ]
        );
        assert_eq!(form.fields[0].value, Some(json!("api")));
        assert_eq!(form.fields[0].description.as_deref(), Some("Which service"));
        assert_eq!(form.fields[1].default, Some(json!(7)));
        assert_eq!(form.extra, vec!["extra".to_string()]);
        assert_eq!(
            form.unsupported,
            vec![Unsupported {
                at: "either".into(),
                keyword: "oneOf".into()
            }]
        );
        // Not a call of a known tool: no form.
        assert!(form_for(CALL, |_| None).is_none());
        assert!(
            form_for(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, |_| {
                Some(&s)
            })
            .is_none()
        );
    }

    #[test]
    fn m_tool_input_form_edits_rewrite_only_the_arguments() {
        let s = schema();
        let text = set_argument(CALL, "days", value_of(&Control::Integer, "3").unwrap()).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v["params"]["arguments"],
            json!({"service": "api", "extra": 1, "days": 3})
        );
        assert_eq!(v["id"], 3);
        assert_eq!(v["params"]["name"], "deploy");
        // The form read back from the text has the new value.
        let form = form_for(&text, |_| Some(&s)).unwrap();
        assert_eq!(form.fields[1].value, Some(json!(3)));
        // Emptying a control leaves the property out.
        let text = set_argument(&text, "service", value_of(&Control::Text, "").unwrap()).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert!(v["params"]["arguments"].get("service").is_none());
        // A choice is its value's JSON; a bad number is refused.
        let level = Control::Choice(vec![json!("low"), json!("high")]);
        assert_eq!(
            value_of(&level, &choice_key(&json!("high"))).unwrap(),
            Some(json!("high"))
        );
        assert_eq!(
            value_of(&Control::Integer, "2.5"),
            Err(FormError::NotAnInteger)
        );
        assert_eq!(value_of(&Control::Number, "x"), Err(FormError::NotANumber));
        assert_eq!(
            value_of(&Control::Json, "[1,"),
            Err(FormError::InputNotJson)
        );
        assert_eq!(
            value_of(&Control::Boolean, "false").unwrap(),
            Some(json!(false))
        );
        // Defaults fill what is missing.
        let form = form_for(CALL, |_| Some(&s)).unwrap();
        let filled = fill_defaults(CALL, &form).unwrap();
        let v: Value = serde_json::from_str(&filled).unwrap();
        assert_eq!(v["params"]["arguments"]["days"], 7);
        assert_eq!(set_argument("{", "a", None), Err(FormError::TextNotJson));
        assert_eq!(shown(Some(&json!("x"))), "x");
        assert_eq!(shown(Some(&json!([1]))), "[1]");
    }
}
