//! The client loads a skill of the skills extension (SEP-2640) and uses
//! none of it unverified: size (C-SKILL-SIZE), digest (C-SKILL-DIGEST) and
//! the SKILL.md frontmatter (C-SKILL-FRONTMATTER). Driven by hand, with
//! the files and tampering of the official conformance suite's
//! `sep-2640-client-verify-*` scenarios.

mod common;

use common::schema::schemas;
use common::*;
use mcp_lanes_core::client::presets as clients;
use mcp_lanes_core::client::skill_verify::{
    self, compare_frontmatter, frontmatter_block, sha256_digest, verify_bytes, Mismatch, SkillFile,
};
use mcp_lanes_core::client::Step;
use mcp_lanes_core::rules;
use mcp_lanes_core::transport::TransportKind;
use serde_json::{json, Map, Value};

const SKILL_MD: &str = "skill://pdf-processing/SKILL.md";
const FORMS_MD: &str = "skill://pdf-processing/references/FORMS.md";
const BODY: &str =
    "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n";
const FORMS: &str = "Supporting content.\n";

/// A stand-in YAML reader for flat `key: value` lines (the CLI hands the
/// client a real YAML parser; the core links none).
fn flat_yaml(yaml: &str) -> Result<Map<String, Value>, String> {
    let mut map = Map::new();
    for line in yaml.lines().filter(|l| !l.trim().is_empty()) {
        let (key, value) = line.split_once(": ").ok_or("not key: value")?;
        map.insert(key.to_string(), json!(value));
    }
    Ok(map)
}

/// The entry `skills/list` returns for the skill, with SKILL.md listed as
/// `listed_body` (its size and digest).
fn entry(listed_body: &str) -> Value {
    json!({
        "uri": SKILL_MD,
        "frontmatter": {"name": "pdf-processing", "description": "Extract, fill, and assemble PDF documents"},
        "resources": [
            {"uri": SKILL_MD, "digest": sha256_digest(listed_body.as_bytes()), "size": listed_body.len()},
            {"uri": FORMS_MD, "digest": sha256_digest(FORMS.as_bytes()), "size": FORMS.len()},
        ]
    })
}

fn read_result(uri: &str, text: &str) -> Value {
    json!({"resultType": "complete", "contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]})
}

/// Runs skills/list and a skill load over stdio against a hand-played
/// server that lists `listed` and serves `served` as SKILL.md; returns the
/// driver and the URIs the client read.
fn load(listed: Value, served: &str, reader: bool) -> (Driver, Vec<String>) {
    let mut d = Driver::start(
        clients::reference(),
        vec![Step::request("skills/list"), Step::LoadSkill { uri: None }],
        TransportKind::Stdio,
    );
    if reader {
        d.client.set_frontmatter_reader(flat_yaml);
    }
    let mut reads = Vec::new();
    let mut at = 10;
    for _ in 0..10 {
        let last = d.last_sent();
        let Some(method) = last.get("method").and_then(Value::as_str) else {
            break;
        };
        let result = match method {
            "server/discover" => discover_result(Some(json!(60000))),
            "skills/list" => json!({"resultType": "complete", "skills": [listed.clone()]}),
            "resources/read" => {
                let uri = last["params"]["uri"].as_str().unwrap_or("").to_string();
                if reads.contains(&uri) {
                    break;
                }
                reads.push(uri.clone());
                let text = if uri == FORMS_MD { FORMS } else { served };
                read_result(&uri, text)
            }
            _ => break,
        };
        d.answer(at, result);
        at += 10;
    }
    (d, reads)
}

fn loaded(d: &Driver) -> bool {
    d.decisions()
        .iter()
        .any(|(_, n)| n.contains("the skill is loaded"))
}

#[test]
fn c_skill_digest_a_verified_skill_is_read_file_by_file_and_loaded() {
    let (d, reads) = load(entry(BODY), BODY, true);
    assert_eq!(reads, vec![SKILL_MD.to_string(), FORMS_MD.to_string()]);
    assert!(loaded(&d), "{:?}", d.decisions());
    // Every message the client sent validates against its revision's schema
    // (skills/list belongs to the extension, not to the schema).
    for message in d.sent() {
        if message["method"] != "skills/list" {
            schemas()
                .validate_message(MODERN, &message, None)
                .unwrap_or_else(|e| panic!("{message}: {e}"));
        }
    }
}

#[test]
fn c_skill_digest_a_tampered_skill_md_is_not_loaded_and_nothing_more_is_read() {
    let tampered = BODY.replace("Skill body.", "Evil body!!");
    let (d, reads) = load(entry(BODY), &tampered, true);
    assert_eq!(reads, vec![SKILL_MD.to_string()]);
    assert!(!loaded(&d));
    let expected = sha256_digest(BODY.as_bytes());
    let got = sha256_digest(tampered.as_bytes());
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r == &vec![rules::C_SKILL_DIGEST]
            && n.contains(&expected)
            && n.contains(&got)
            && n.contains("does not load")));
}

#[test]
fn c_skill_size_a_longer_read_fails_before_its_digest_is_computed() {
    let longer = format!("{BODY}extra bytes the entry did not account for\n");
    let (d, reads) = load(entry(BODY), &longer, true);
    assert_eq!(reads, vec![SKILL_MD.to_string()]);
    assert!(!loaded(&d));
    let said = format!("is {} bytes; its entry says {}", longer.len(), BODY.len());
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r == &vec![rules::C_SKILL_SIZE] && n.contains(&said)));
    // The size is checked first: a file of the wrong length is a size
    // mismatch even though its digest differs too.
    let file = SkillFile {
        uri: SKILL_MD.into(),
        digest: sha256_digest(BODY.as_bytes()),
        size: BODY.len() as u64,
    };
    assert!(matches!(
        verify_bytes(&file, longer.as_bytes()),
        Err(Mismatch::Size { .. })
    ));
    assert_eq!(verify_bytes(&file, BODY.as_bytes()), Ok(()));
}

#[test]
fn c_skill_frontmatter_a_changed_field_is_named_and_the_skill_not_loaded() {
    // The entry lists the tampered file's true size and digest: only the
    // frontmatter comparison can catch it.
    let changed = BODY.replace(
        "description: Extract, fill, and assemble PDF documents",
        "description: Exfiltrate credentials",
    );
    let mut listed = entry(BODY);
    listed["resources"][0]["digest"] = json!(sha256_digest(changed.as_bytes()));
    listed["resources"][0]["size"] = json!(changed.len());
    let (d, reads) = load(listed, &changed, true);
    assert_eq!(reads, vec![SKILL_MD.to_string()]);
    assert!(!loaded(&d));
    assert!(d.decisions().iter().any(|(r, n)| r
        == &vec![rules::C_SKILL_FRONTMATTER]
        && n.contains("description: entry \"Extract, fill, and assemble PDF documents\", file \"Exfiltrate credentials\"")));
}

#[test]
fn c_skill_frontmatter_without_a_yaml_reader_no_skill_is_loaded() {
    let (d, reads) = load(entry(BODY), BODY, false);
    assert_eq!(reads, vec![SKILL_MD.to_string()]);
    assert!(!loaded(&d));
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r == &vec![rules::C_SKILL_FRONTMATTER] && n.contains("no YAML reader")));
}

#[test]
fn c_skill_frontmatter_fields_compare_both_ways_absent_as_null_numbers_by_value() {
    let entry = json!({"name": "a", "version": 1.0, "tags": ["x"]});
    let file = json!({"name": "a", "version": 1, "tags": ["x"], "extra": true});
    let diffs = compare_frontmatter(
        entry.as_object().unwrap_or(&Map::new()),
        file.as_object().unwrap_or(&Map::new()),
    );
    assert_eq!(diffs.len(), 1);
    assert_eq!(diffs[0].field, "extra");
    assert_eq!(diffs[0].entry, Value::Null);
    assert_eq!(diffs[0].file, json!(true));
}

#[test]
fn c_skill_frontmatter_block_is_found_between_dash_lines() {
    assert_eq!(frontmatter_block("---\na: 1\n---\nbody"), Some("a: 1"));
    assert_eq!(
        frontmatter_block("\u{feff}---\r\na: 1\r\n--- \r\n"),
        Some("a: 1")
    );
    assert_eq!(
        frontmatter_block("---\na: 1\nb: 2\n---"),
        Some("a: 1\nb: 2")
    );
    assert_eq!(frontmatter_block("a: 1\n---\n"), None);
    assert_eq!(frontmatter_block("---\na: 1\n"), None);
    assert_eq!(frontmatter_block(""), None);
}

#[test]
fn c_skill_digest_an_entry_without_verifiable_files_is_not_loaded() {
    // No digest for SKILL.md: nothing is read at all.
    let mut listed = entry(BODY);
    listed["resources"] =
        json!([{"uri": FORMS_MD, "digest": sha256_digest(FORMS.as_bytes()), "size": FORMS.len()}]);
    let (d, reads) = load(listed, BODY, true);
    assert!(reads.is_empty());
    assert!(!loaded(&d));
    // A digest of another algorithm cannot be checked, and fails.
    let file = SkillFile {
        uri: SKILL_MD.into(),
        digest: "md5:0123".into(),
        size: BODY.len() as u64,
    };
    assert!(matches!(
        verify_bytes(&file, BODY.as_bytes()),
        Err(Mismatch::Digest { .. })
    ));
    // A blob is verified on its decoded bytes.
    let blob = json!({"contents": [{"uri": FORMS_MD, "blob": "U3VwcG9ydGluZyBjb250ZW50Lgo="}]});
    assert_eq!(
        skill_verify::content_bytes(&blob, FORMS_MD).as_deref(),
        Some(FORMS.as_bytes())
    );
}

#[test]
fn c_skill_digest_a_skill_file_that_cannot_be_read_ends_the_load() {
    let mut d = Driver::start(
        clients::reference(),
        vec![Step::request("skills/list"), Step::LoadSkill { uri: None }],
        TransportKind::Stdio,
    );
    d.client.set_frontmatter_reader(flat_yaml);
    for at in [10, 20, 30] {
        let result = match d.last_sent()["method"].as_str() {
            Some("skills/list") => json!({"resultType": "complete", "skills": [entry(BODY)]}),
            Some("resources/read") => break,
            _ => discover_result(Some(json!(60000))),
        };
        d.answer(at, result);
    }
    assert_eq!(d.last_sent()["params"]["uri"], SKILL_MD);
    d.fail(40, -32602, "Resource not found", None);
    assert!(!loaded(&d));
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r == &vec![rules::C_SKILL_DIGEST] && n.contains("could not be read")));
    assert!(d.sent().iter().all(|m| m["params"]["uri"] != FORMS_MD));
}
