//! What a file tool's and a file resource's listing show besides the
//! basics (lesson 32 of `tests/lessons/`, MCP Apps): `title`,
//! `annotations`, `icons` and `_meta` of a tool, each only in a revision
//! whose schema defines it; a resource's `description` and `mimeType`.

mod common;

use mcp_lanes_core::scenarios::file;
use mcp_lanes_core::sim::{Side, Timeline};
use serde_json::{json, Value};

fn lesson() -> Vec<Timeline> {
    common::lesson("32-mcp-apps")
}

/// The result the server sent in answer to the client's `method`.
fn answer(t: &Timeline, method: &str) -> Value {
    let mut asked = None;
    for e in &t.events {
        let Some(m) = e.message() else { continue };
        let Some(json) = &m.json else { continue };
        if m.sender() == Some(Side::Client) && json["method"] == method {
            asked = Some(json["id"].clone());
        } else if m.sender() == Some(Side::Server)
            && asked.is_some()
            && json["id"] == asked.clone().unwrap()
        {
            return json["result"].clone();
        }
    }
    panic!("no answer to {method} in {}", t.label);
}

#[test]
fn m_tools_list_a_file_tool_lists_its_title_annotations_and_app_meta() {
    let runs = lesson();
    let tool = &answer(&runs[0], "tools/list")["tools"][0];
    assert_eq!(tool["title"], "Weather forecast");
    assert_eq!(
        tool["annotations"],
        json!({"readOnlyHint": true, "openWorldHint": false})
    );
    assert_eq!(
        tool["_meta"]["ui"]["resourceUri"],
        "ui://weather/forecast.html"
    );
    let read = answer(&runs[0], "resources/read");
    assert_eq!(read["contents"][0]["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(read["contents"][0]["uri"], "ui://weather/forecast.html");
}

#[test]
fn l_cap_session_a_2025_03_26_session_lists_only_what_its_schema_defines() {
    let runs = lesson();
    let tool = &answer(&runs[1], "tools/list")["tools"][0];
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert!(tool.get("title").is_none(), "{tool}");
    assert!(tool.get("_meta").is_none(), "{tool}");
}

#[test]
fn a_tool_s_icons_must_each_have_a_src() {
    let bad = json!({
        "format": "mcp-lanes-scenario/1", "id": "icons", "title": "t",
        "servers": [{"id": "s", "tools": [{"name": "a", "icons": [{"mimeType": "image/png"}]}]}],
        "clients": [{"id": "c"}],
        "setups": [{"label": "l", "client": "c", "server": "s", "steps": []}]
    });
    let errors = file::load_value(&bad).expect_err("icons without src");
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        text.iter().any(|e| e.contains("tools[0].icons")),
        "{text:?}"
    );
}
