//! Every message of every scenario validates against the official JSON
//! Schema of the revision it speaks; the 2026-07-28 examples validate
//! against their folder's type (a sanity check of the validator itself).

mod common;

use std::collections::HashMap;

use common::schema::{schemas, REVISIONS};
use mcp_lanes_core::scenarios;
use mcp_lanes_core::sim::Side;
use serde_json::Value;

/// A message the schema check leaves out, and why.
#[derive(Debug)]
struct Skip {
    scenario: &'static str,
    setup: String,
    index: usize,
    why: String,
}

#[test]
fn every_scenario_message_validates_against_its_revision() {
    let schemas = schemas();
    let mut failures = Vec::new();
    let mut skips: Vec<Skip> = Vec::new();
    let mut checked = 0usize;
    for info in scenarios::CATALOG {
        let timelines = scenarios::run(info.id).expect("catalog scenario runs");
        for timeline in &timelines {
            // (sender, id) -> method of the request, per set-up.
            let mut origin: HashMap<(Side, String), String> = HashMap::new();
            for (index, (_, m)) in timeline.messages().enumerate() {
                // An authorization flow's hops to or from the authorization
                // server, and its HTTP exchanges that are not JSON-RPC
                // (metadata documents, challenges, token answers), have no
                // MCP schema: S-SCHEMA leaves them alone (`check::schema`).
                let json_rpc = m
                    .json
                    .as_ref()
                    .is_some_and(|j| j.is_array() || j.get("jsonrpc").is_some());
                if !m.carries_mcp() || (!timeline.actors.is_empty() && !json_rpc) {
                    continue;
                }
                let Some(json) = &m.json else {
                    let why = if m.wire.is_empty() {
                        format!(
                            "body-less HTTP {}",
                            m.http.as_ref().and_then(|h| h.status).unwrap_or(0)
                        )
                    } else {
                        "wire text is not JSON".to_string()
                    };
                    skips.push(Skip {
                        scenario: info.id,
                        setup: timeline.label.clone(),
                        index,
                        why,
                    });
                    continue;
                };
                let id_key = json.get("id").map(Value::to_string);
                if let (Some(method), Some(id)) =
                    (json.get("method").and_then(Value::as_str), &id_key)
                {
                    origin.insert((m.from, id.clone()), method.to_string());
                }
                if let Some(why) = &m.violation {
                    skips.push(Skip {
                        scenario: info.id,
                        setup: timeline.label.clone(),
                        index,
                        why: format!("violation: {why}"),
                    });
                    continue;
                }
                let origin_method = if json.get("method").is_none() {
                    id_key
                        .as_ref()
                        .and_then(|id| origin.get(&(m.from.peer(), id.clone())))
                        .map(String::as_str)
                } else {
                    None
                };
                checked += 1;
                if let Err(failure) = schemas.validate_message(&m.revision, json, origin_method) {
                    failures.push(format!(
                        "scenario {} / set-up {:?} / message #{index} ({} {}) / revision {} {failure}\n      message: {json}",
                        info.id,
                        timeline.label,
                        m.from.name(),
                        m.label,
                        m.revision
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} scenario messages do not validate:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked > 100,
        "suspiciously few messages checked: {checked}"
    );

    // Skips must be few and deliberate: a message broken on purpose, or an
    // HTTP response that has no body by design (202 for a notification,
    // 404 from a silent legacy server, 405).
    let listing: Vec<String> = skips
        .iter()
        .map(|s| format!("{} / {:?} / #{}: {}", s.scenario, s.setup, s.index, s.why))
        .collect();
    for s in &skips {
        let deliberate = s.why.starts_with("violation: ")
            || [
                "body-less HTTP 202",
                "body-less HTTP 404",
                "body-less HTTP 405",
                // A policy's token refusals (scenario identities): an
                // authorization challenge, with no MCP body.
                "body-less HTTP 401",
                "body-less HTTP 403",
            ]
            .contains(&s.why.as_str());
        assert!(
            deliberate,
            "an unexpected skip: {s:?}\nall skips:\n{}",
            listing.join("\n")
        );
    }
    assert!(
        // 12, the three wrong messages scripted-server marks on purpose,
        // and the two challenges of identities.
        skips.len() <= 17,
        "too many messages skipped ({}), the schema check is losing its teeth:\n{}",
        skips.len(),
        listing.join("\n")
    );
    eprintln!(
        "checked {checked} messages; skipped {}:\n{}",
        skips.len(),
        listing.join("\n")
    );
}

#[test]
fn every_2026_example_validates_against_its_folder_type() {
    let schemas = schemas();
    let dir = common::spec_dir().join("2026-07-28").join("examples");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut folders: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    folders.sort();
    for folder in folders {
        let def = folder
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 folder name")
            .to_string();
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .expect("list example folder")
            .map(|e| e.expect("dir entry").path())
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("read example");
            let value: Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is not JSON: {e}", file.display()));
            count += 1;
            if let Err(f) = schemas.validate_def("2026-07-28", &def, &value) {
                failures.push(format!("{}: {f}", file.display()));
            }
        }
    }
    assert!(
        count >= 88,
        "only {count} examples found in {}",
        dir.display()
    );
    assert!(
        failures.is_empty(),
        "examples that fail:\n{}",
        failures.join("\n")
    );
}

#[test]
fn s_schema_every_result_type_of_the_method_table_is_a_definition_of_its_revisions() {
    let schemas = schemas();
    let mut checked = 0;
    for m in mcp_lanes_core::protocol::methods::METHODS {
        let Some(result) = m.result_schema else {
            continue;
        };
        for rev in REVISIONS {
            if schemas.defs_for_method(rev, m.name).is_empty() {
                continue;
            }
            assert!(
                schemas.has_def(rev, result),
                "{rev} has no {result} ({})",
                m.name
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} result types checked");
}

#[test]
fn validator_rejects_what_it_should() {
    // The validator must have teeth: wrong shapes fail, for each revision.
    let s = schemas();
    let bad_discover =
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}});
    assert!(
        s.validate_message("2026-07-28", &bad_discover, None)
            .is_err(),
        "discover without _meta"
    );
    let bad_version_error = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32022, "message": "x", "data": {"supportedVersions": ["2026-07-28"], "requested": "1"}}});
    assert!(
        s.validate_message("2026-07-28", &bad_version_error, None)
            .is_err(),
        "-32022 with supportedVersions"
    );
    let array_caps = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32021, "message": "x", "data": {"requiredCapabilities": ["elicitation"]}}});
    assert!(
        s.validate_message("2026-07-28", &array_caps, None).is_err(),
        "-32021 with an array"
    );
    let no_result_type = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}});
    assert!(
        s.validate_message("2026-07-28", &no_result_type, Some("tools/list"))
            .is_err(),
        "modern result without resultType"
    );
    let parse_error_with_string_code =
        serde_json::json!({"jsonrpc": "2.0", "error": {"code": "-32700", "message": "x"}});
    assert!(s
        .validate_message("2026-07-28", &parse_error_with_string_code, None)
        .is_err());
    for rev in REVISIONS {
        let init_result_without_version = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"capabilities": {}, "serverInfo": {"name": "x", "version": "1"}}});
        if s.has_def(rev, "InitializeResult") {
            assert!(
                s.validate_message(rev, &init_result_without_version, Some("initialize"))
                    .is_err(),
                "{rev}: InitializeResult without protocolVersion"
            );
        }
        if *rev != "2026-07-28" {
            // A modern-only method labelled with a legacy revision must fail.
            let discover = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}});
            assert!(
                s.validate_message(rev, &discover, None).is_err(),
                "{rev}: server/discover is not a {rev} method"
            );
        }
        // A method no revision knows is checked as a generic request: a
        // broken envelope still fails.
        let unknown = serde_json::json!({"jsonrpc": "2.0", "id": null, "method": "no/such/method"});
        assert!(
            s.validate_message(rev, &unknown, None).is_err(),
            "{rev}: null id"
        );
        let good_ping_error = serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}});
        assert!(
            s.validate_message(rev, &good_ping_error, None).is_ok(),
            "{rev}: plain error"
        );
    }
    // The specific error definitions of 2026-07-28 are found by code.
    for (code, def) in [
        (-32020, "HeaderMismatchError"),
        (-32021, "MissingRequiredClientCapabilityError"),
        (-32022, "UnsupportedProtocolVersionError"),
        (-32700, "ParseError"),
        (-32600, "InvalidRequestError"),
        (-32601, "MethodNotFoundError"),
        (-32602, "InvalidParamsError"),
        (-32603, "InternalError"),
    ] {
        assert_eq!(
            s.def_for_error_code("2026-07-28", code)
                .map(|(d, _)| d)
                .as_deref(),
            Some(def),
            "definition for {code}"
        );
    }
}
