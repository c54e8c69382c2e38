//! `schemas/scenario.schema.json` and the hand-written validator of
//! `scenarios::file` agree: on the corpus in `tests/scenario_corpus/`
//! (`valid/`: both accept; `invalid/`: both refuse; `semantic/`: only the
//! validator refuses, for what a JSON Schema cannot say: references between
//! ids, unique names, rule ids, nesting depth), on every catalog scenario
//! exported, on the author files in `www/scenarios/`, and on thousands of
//! mutations of the valid files.

use std::path::{Path, PathBuf};

use mcp_lanes_core::scenarios::{file, CATALOG};
use serde_json::{json, Value};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo().join("schemas/scenario.schema.json"))
        .expect("schemas/scenario.schema.json is readable");
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)
        .expect("the schema compiles")
}

fn corpus(dir: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let path = repo().join(dir);
    let mut entries: Vec<_> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    for p in entries {
        let text = std::fs::read_to_string(&p).expect("readable");
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        out.push((p.display().to_string(), value));
    }
    out
}

/// What a JSON Schema cannot check, and so only the validator refuses
/// (a tool's progress growing from one notification to the next among them).
fn is_semantic(message: &str) -> bool {
    [
        "progress must grow",
        "no server \"",
        "no client \"",
        "is already defined at",
        "a rule id of spec/RULES.md",
        "levels deep",
        "no set-up is labelled",
        "no step says",
        "names it in its result",
        "no tool of this server returns",
    ]
    .iter()
    .any(|m| message.contains(m))
}

fn verdicts(schema: &jsonschema::Validator, value: &Value) -> (bool, Result<(), Vec<String>>) {
    let by_schema = schema.is_valid(value);
    let by_validator = file::load_value(value)
        .map(|_| ())
        .map_err(|errors| errors.iter().map(|e| e.to_string()).collect());
    (by_schema, by_validator)
}

#[test]
fn valid_files_pass_both() {
    let schema = schema();
    let mut files = corpus("crates/core/tests/scenario_corpus/valid");
    files.extend(corpus("www/scenarios"));
    for info in CATALOG {
        files.push((info.id.to_string(), file::export_scenario(info)));
    }
    assert!(files.len() >= CATALOG.len() + 3);
    for (name, value) in files {
        let errors: Vec<String> = schema
            .iter_errors(&value)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{name}: the schema refuses it: {errors:#?}"
        );
        if let Err(errors) = file::load_value(&value) {
            panic!("{name}: the validator refuses it: {errors:#?}");
        }
    }
}

#[test]
fn invalid_files_fail_both() {
    let schema = schema();
    let files = corpus("crates/core/tests/scenario_corpus/invalid");
    assert!(files.len() >= 20);
    for (name, value) in files {
        let (by_schema, by_validator) = verdicts(&schema, &value);
        assert!(!by_schema, "{name}: the schema accepts it");
        let errors = by_validator
            .err()
            .unwrap_or_else(|| panic!("{name}: the validator accepts it"));
        assert!(
            errors.iter().all(|e| !e.contains("could not be read")),
            "{name}: {errors:?}"
        );
    }
}

#[test]
fn semantic_problems_fail_the_validator_only() {
    let schema = schema();
    for (name, value) in corpus("crates/core/tests/scenario_corpus/semantic") {
        let (by_schema, by_validator) = verdicts(&schema, &value);
        assert!(
            by_schema,
            "{name}: the schema refuses it; move it to invalid/"
        );
        let errors = by_validator
            .err()
            .unwrap_or_else(|| panic!("{name}: the validator accepts it"));
        assert!(errors.iter().all(|e| is_semantic(e)), "{name}: {errors:?}");
    }
}

/// Every path of a value, as a list of keys and indexes.
fn paths(value: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                here.push(json!(k));
                paths(v, here, out);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                here.push(json!(i));
                paths(v, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(value: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut cur = value;
    for step in path {
        cur = match step {
            Value::String(k) => cur.get_mut(k.as_str())?,
            Value::Number(n) => cur.get_mut(n.as_u64()? as usize)?,
            _ => return None,
        };
    }
    Some(cur)
}

#[test]
fn mutations_never_pass_the_validator_when_the_schema_refuses_them() {
    let schema = schema();
    let mut bases = corpus("crates/core/tests/scenario_corpus/valid");
    for id in [
        "elicitation-unchecked",
        "http-header-mismatch",
        "era-cache-and-upgrade",
    ] {
        let info = CATALOG.iter().find(|s| s.id == id).expect("in the catalog");
        bases.push((id.to_string(), file::export_scenario(info)));
    }
    let replacements = [
        json!(["elicitation"]),
        json!("<script>alert(1)</script>"),
        json!(-1),
        json!(0),
        json!({}),
        json!(null),
        json!(true),
        json!("x".repeat(70_000)),
        json!("all"),
        json!(2_000_000_000_000u64),
    ];
    let mut checked = 0;
    for (name, base) in &bases {
        let mut all = Vec::new();
        paths(base, &mut Vec::new(), &mut all);
        for path in all.iter().filter(|p| !p.is_empty()) {
            let mut variants = Vec::new();
            for replacement in &replacements {
                let mut v = base.clone();
                if let Some(slot) = at(&mut v, path) {
                    *slot = replacement.clone();
                }
                variants.push(v);
            }
            // And the key removed, where the parent is an object.
            if let (Some((Value::String(key), parent)), mut v) = (path.split_last(), base.clone()) {
                if let Some(Value::Object(map)) = at(&mut v, parent) {
                    map.shift_remove(key.as_str());
                }
                variants.push(v);
            }
            for v in variants {
                checked += 1;
                let (by_schema, by_validator) = verdicts(&schema, &v);
                match (by_schema, &by_validator) {
                    (false, Ok(())) => panic!(
                        "{name} {path:?}: the schema refuses it, the validator accepts it:\n{v}"
                    ),
                    (true, Err(errors)) if !errors.iter().all(|e| is_semantic(e)) => {
                        panic!("{name} {path:?}: the schema accepts it, the validator refuses it: {errors:?}")
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(checked > 1_000, "{checked}");
}

#[test]
fn the_schema_names_the_validators_limits() {
    let text =
        std::fs::read_to_string(repo().join("schemas/scenario.schema.json")).unwrap_or_default();
    for limit in [
        format!("\"maxItems\": {}", file::MAX_SETUPS),
        format!("\"maxItems\": {}", file::MAX_DEFS),
        format!("\"maxItems\": {}", file::MAX_STEPS),
        format!("\"maxItems\": {}", file::MAX_ITEMS),
        format!("\"maxItems\": {}", file::MAX_LIST),
        format!("\"maxItems\": {}", file::MAX_VERSIONS),
        format!("\"maxLength\": {}", file::MAX_ID),
        format!("\"maxLength\": {}", file::MAX_NAME),
        format!("\"maxLength\": {}", file::MAX_TEXT),
        format!("\"maximum\": {}", file::MAX_MS),
        format!("\"maximum\": {}", file::MAX_TTL_MS),
        format!("\"maximum\": {}", file::MAX_FIRST_ID),
        format!("\"maximum\": {}", file::MAX_ORDINAL),
        format!("\"const\": \"{}\"", file::FORMAT),
    ] {
        assert!(text.contains(&limit), "the schema does not say {limit}");
    }
}
