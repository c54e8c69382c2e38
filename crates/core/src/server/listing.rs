//! How a tool is listed (`tools/list`): its name, description and input
//! schema, and what its set-up adds to show (`title`, `annotations`,
//! `icons`, `_meta`), each only to a revision whose schema defines it, so
//! that every listing validates against the session's schema.

use serde_json::{Map, Value};

use super::ToolSpec;

/// The first revision whose `Tool` has each optional key a set-up may add.
const SINCE: &[(&str, &str)] = &[
    ("annotations", "2025-03-26"),
    ("title", "2025-06-18"),
    ("_meta", "2025-06-18"),
    ("icons", "2025-11-25"),
];

/// Whether `key` is a key of `Tool` in `revision` (revisions are dates,
/// so they order as text).
pub fn shown_in(key: &str, revision: &str) -> bool {
    SINCE
        .iter()
        .any(|(k, since)| *k == key && revision >= *since)
}

/// `tool` as `tools/list` lists it to a session of `revision`.
pub fn tool(tool: &ToolSpec, revision: &str) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), Value::String(tool.name.clone()));
    out.insert(
        "description".into(),
        Value::String(tool.description.clone()),
    );
    out.insert("inputSchema".into(), tool.input_schema.clone());
    for (key, value) in &tool.shown {
        if shown_in(key, revision) {
            out.insert(key.clone(), value.clone());
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn app_tool() -> ToolSpec {
        let mut t = ToolSpec {
            name: "weather".into(),
            description: "Forecast".into(),
            input_schema: json!({"type": "object"}),
            ..Default::default()
        };
        t.shown.insert("title".into(), json!("Weather"));
        t.shown
            .insert("annotations".into(), json!({"readOnlyHint": true}));
        t.shown.insert(
            "_meta".into(),
            json!({"ui": {"resourceUri": "ui://weather/view"}}),
        );
        t.shown.insert(
            "icons".into(),
            json!([{"src": "https://example.com/w.png"}]),
        );
        t
    }

    #[test]
    fn m_tools_list_a_tool_shows_every_key_its_set_up_adds_in_2026_07_28() {
        let listed = tool(&app_tool(), "2026-07-28");
        assert_eq!(listed["title"], "Weather");
        assert_eq!(listed["_meta"]["ui"]["resourceUri"], "ui://weather/view");
        assert_eq!(listed["annotations"]["readOnlyHint"], true);
        assert!(listed["icons"].is_array());
    }

    #[test]
    fn l_cap_session_an_older_revision_lists_only_the_keys_its_schema_defines() {
        let listed = tool(&app_tool(), "2024-11-05");
        let mut keys: Vec<&String> = listed.as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["description", "inputSchema", "name"]);
        let listed = tool(&app_tool(), "2025-06-18");
        assert!(listed.get("icons").is_none());
        assert_eq!(listed["title"], "Weather");
        assert_eq!(listed["annotations"]["readOnlyHint"], true);
    }
}
