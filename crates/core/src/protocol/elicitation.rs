//! Elicitation helpers shared by the simulated client and the editor.

use serde_json::{json, Map, Value};

/// The simulated user's answer to a form-mode elicitation: accept, with a
/// value for every requested field, so round trips can be completed
/// deterministically: the field's `default` when it has one, else the
/// first member of its `enum`, else a plain value of its type (booleans
/// true, numbers 0, strings "yes") (C-ELICIT-DEFAULTS).
pub fn accept_with_defaults(requested_schema: Option<&Value>) -> Value {
    let mut content = Map::new();
    if let Some(props) = requested_schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    {
        for (name, prop) in props {
            let first = prop
                .get("enum")
                .and_then(Value::as_array)
                .and_then(|e| e.first());
            let value = match (prop.get("default"), first) {
                (Some(default), _) => default.clone(),
                (None, Some(member)) => member.clone(),
                (None, None) => match prop.get("type").and_then(Value::as_str) {
                    Some("boolean") => json!(true),
                    Some("integer") | Some("number") => json!(0),
                    _ => json!("yes"),
                },
            };
            content.insert(name.clone(), value);
        }
    }
    json!({"action": "accept", "content": Value::Object(content)})
}
