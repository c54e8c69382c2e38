//! The simulated user's answers to form elicitations (C-ELICIT-DEFAULTS).

use mcp_lanes_core::protocol::elicitation::accept_with_defaults;
use serde_json::json;

#[test]
fn c_elicit_defaults_a_default_wins_then_the_enum_then_the_type() {
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "status": {"type": "string", "enum": ["active", "inactive"], "default": "inactive"},
        "tier": {"type": "string", "enum": ["gold", "silver"]},
        "ok": {"type": "boolean"},
        "n": {"type": "number"},
        "note": {"type": "string"}
    }});
    let answer = accept_with_defaults(Some(&schema));
    assert_eq!(answer["action"], "accept");
    assert_eq!(
        answer["content"],
        json!({"name": "John Doe", "age": 30, "status": "inactive", "tier": "gold",
            "ok": true, "n": 0, "note": "yes"})
    );
    assert_eq!(accept_with_defaults(None)["content"], json!({}));
}
