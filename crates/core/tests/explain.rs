//! Every field explained: every property name the official schemas define
//! has an explanation of its own, and every key of every message of every
//! built-in scenario's run gets one (only a key no schema defines is
//! explained as an unknown field, RPC-UNKNOWN-FIELD).

use std::collections::BTreeSet;
use std::path::PathBuf;

use mcp_lanes_core::explain::{self, Ctx};
use mcp_lanes_core::scenarios;
use serde_json::Value;

fn schema_property_names() -> BTreeSet<String> {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::Object(props)) = map.get("properties") {
                    out.extend(props.keys().cloned());
                }
                map.values().for_each(|x| walk(x, out));
            }
            Value::Array(items) => items.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let spec = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let mut out = BTreeSet::new();
    for rev in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        let text = std::fs::read_to_string(spec.join(rev).join("schema.json")).unwrap();
        walk(&serde_json::from_str(&text).unwrap(), &mut out);
    }
    out
}

/// The explanation of a schema's property name, wherever it may sit.
fn explained(name: &str) -> bool {
    let v = Value::Null;
    [
        Ctx::Message,
        Ctx::Meta,
        Ctx::Caps,
        Ctx::Capability,
        Ctx::Schema,
    ]
    .into_iter()
    .any(|ctx| {
        let parent = if ctx == Ctx::Message {
            Some("error")
        } else {
            None
        };
        explain::step(ctx, parent, name, &v).0.key != "any.unknown"
            && explain::step(ctx, parent, name, &v).0.key != "any.meta"
            && explain::step(ctx, parent, name, &v).0.key != "schema.other"
    })
}

#[test]
fn s_schema_every_property_of_every_revision_is_explained() {
    let names = schema_property_names();
    assert!(names.len() > 100, "{}", names.len());
    let missing: Vec<_> = names.iter().filter(|n| !explained(n)).collect();
    assert!(missing.is_empty(), "no explanation for {missing:?}");
}

#[test]
fn rpc_unknown_field_every_key_of_every_scenario_message_is_explained() {
    let known = schema_property_names();
    let mut problems = Vec::new();
    let mut seen = 0;
    for info in scenarios::CATALOG {
        for timeline in scenarios::run(info.id).expect("a scenario") {
            for (_, m) in timeline.messages() {
                let Some(json) = &m.json else { continue };
                for e in explain::walk(json) {
                    seen += 1;
                    if e.field.key == "any.unknown" && known.contains(&e.key) {
                        problems.push(format!("{}: {} ({})", info.id, e.path, m.revision));
                    }
                }
                if let Some(http) = &m.http {
                    for (name, _) in &http.headers {
                        if explain::header(name).is_none() {
                            problems.push(format!("{}: header {name}", info.id));
                        }
                    }
                }
            }
        }
    }
    assert!(seen > 1000, "{seen}");
    problems.dedup();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
