//! The YAML reader the client's skill loads use for a `SKILL.md`'s
//! frontmatter (C-SKILL-FRONTMATTER): the core compares fields but links
//! no YAML parser, so the CLI hands its client this one (`serde_yaml_ng`).

use serde_json::{Map, Value};

/// The frontmatter block `yaml` as a JSON object, or the parser's words
/// when it is not YAML or not a mapping with string keys.
pub fn read(yaml: &str) -> Result<Map<String, Value>, String> {
    match serde_yaml_ng::from_str::<Value>(yaml) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!("a YAML {} where a mapping belongs", kind(&other))),
        Err(e) => Err(e.to_string()),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "sequence",
        Value::Object(_) => "mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_mapping_reads_into_json_fields() {
        let map = read(
            "name: pdf-processing\ndescription: Extract, fill, and assemble\nmetadata:\n  version: 2\n",
        )
        .unwrap_or_default();
        assert_eq!(map["name"], json!("pdf-processing"));
        assert_eq!(map["description"], json!("Extract, fill, and assemble"));
        assert_eq!(map["metadata"], json!({"version": 2}));
    }

    #[test]
    fn what_is_not_a_mapping_is_refused_in_words() {
        assert!(read("- a\n- b\n").is_err_and(|e| e.contains("sequence")));
        assert!(read("").is_err());
        assert!(read("name: [unclosed\n").is_err());
        assert!(read("? [a, b]\n: c\n").is_err());
    }
}
