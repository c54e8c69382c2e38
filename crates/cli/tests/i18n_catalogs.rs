//! The page's message catalogs (`www/i18n/`, README "Languages"; a
//! language's catalog is `<tag>.json` plus `<tag>.rules.json`, the rules'
//! summaries, fetched when first shown):
//! - `en.json`'s rule summaries and scenario prose are the core's English
//!   (`UPDATE_CATALOG=1` rewrites those entries from the core);
//! - every listed language has a catalog, every catalog is listed, and a
//!   catalog not marked `partial` has exactly English's keys, each with
//!   the same `{placeholders}`;
//! - a translated catalog leaves no English behind: a value equal to
//!   English's is allowed only for MCP terms and ids (`SAME_AS_ENGLISH`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use mcp_lanes_core::{rules, scenarios};
use serde_json::{Map, Value};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../www/i18n")
}

/// A language's whole catalog: `<tag>.json` and `<tag>.rules.json`.
fn catalog(tag: &str) -> Map<String, Value> {
    let mut all = read(&format!("{tag}.json"));
    for (k, v) in read(&format!("{tag}.rules.json")) {
        assert!(
            k.starts_with("rule."),
            "{tag}.rules.json: {k} is not a rule"
        );
        assert!(
            all.insert(k.clone(), v).is_none(),
            "{tag}: {k} is in both files"
        );
    }
    all
}

fn read(name: &str) -> Map<String, Value> {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => map,
        other => panic!("{}: not a JSON object: {other:?}", path.display()),
    }
}

/// Keys whose translation may equal the English text: MCP terms, ids,
/// names and symbols that stay as they are in every language.
const SAME_AS_ENGLISH: &[&str] = &[
    "app.name",
    "event.message",
    "shortcut.2.key",
    "shortcut.3.key",
    "shortcut.4.key",
    "shortcut.5.key",
    "shortcut.6.key",
    "shortcut.7.key",
    "shortcut.8.key",
    "shortcut.9.key",
    "shortcut.10.key",
    "shortcut.13.key",
];

/// The core's English for the catalog's rule and scenario keys.
fn core_entries() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for rule in rules::ALL {
        out.push((format!("rule.{}", rule.id), rule.summary.to_string()));
    }
    for s in scenarios::CATALOG {
        out.push((format!("scenario.{}.title", s.id), s.title.to_string()));
        out.push((format!("scenario.{}.summary", s.id), s.summary.to_string()));
    }
    out
}

fn from_core(key: &str) -> bool {
    key.starts_with("rule.") || key.starts_with("scenario.")
}

#[test]
fn english_catalog_is_the_cores_text() {
    let en = catalog("en");
    let core = core_entries();
    if std::env::var_os("UPDATE_CATALOG").is_some() {
        let mut page: Map<String, Value> = read("en.json")
            .into_iter()
            .filter(|(k, _)| !from_core(k))
            .collect();
        let mut rules = Map::new();
        for (k, v) in &core {
            let into = if k.starts_with("rule.") {
                &mut rules
            } else {
                &mut page
            };
            into.insert(k.clone(), Value::String(v.clone()));
        }
        for (name, map) in [("en.json", page), ("en.rules.json", rules)] {
            let text = serde_json::to_string_pretty(&Value::Object(map)).unwrap() + "\n";
            std::fs::write(dir().join(name), text).unwrap();
        }
        return;
    }
    let mut problems = Vec::new();
    for (k, v) in &core {
        match en.get(k).and_then(Value::as_str) {
            Some(text) if text == v => {}
            Some(text) => problems.push(format!("{k}: en.json says {text:?}, the core {v:?}")),
            None => problems.push(format!("{k}: missing from en.json")),
        }
    }
    let known: BTreeSet<&str> = core.iter().map(|(k, _)| k.as_str()).collect();
    for k in en
        .keys()
        .filter(|k| from_core(k) && !known.contains(k.as_str()))
    {
        problems.push(format!("{k}: in en.json, not in the core"));
    }
    assert!(
        problems.is_empty(),
        "www/i18n/en.json, en.rules.json and the core differ (UPDATE_CATALOG=1 cargo test -p mcp-lanes-cli --test i18n_catalogs rewrites it):\n{}",
        problems.join("\n")
    );
}

fn languages() -> Vec<(String, bool)> {
    let list: Value =
        serde_json::from_str(&std::fs::read_to_string(dir().join("languages.json")).unwrap())
            .unwrap();
    list["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["tag"].as_str().unwrap().to_string(),
                l.get("partial").and_then(Value::as_bool).unwrap_or(false),
            )
        })
        .collect()
}

fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        rest = &rest[open + 1..];
        if let Some(close) = rest.find('}') {
            let name = &rest[..close];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                out.insert(name.to_string());
            }
        }
    }
    out
}

#[test]
fn catalogs_have_englishs_keys_and_placeholders() {
    let en = catalog("en");
    let listed = languages();
    assert_eq!(
        listed.first().map(|l| l.0.as_str()),
        Some("en"),
        "English comes first"
    );
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json") && n != "languages.json")
        .map(|n| n.trim_end_matches(".json").to_string())
        .collect();
    for tag in &files {
        if let Some(lang) = tag.strip_suffix(".rules") {
            assert!(
                files.iter().any(|f| f == lang),
                "{tag}.json without {lang}.json"
            );
        } else {
            assert!(
                files.iter().any(|f| *f == format!("{tag}.rules")),
                "{tag}.json without {tag}.rules.json"
            );
        }
    }
    files.retain(|f| !f.ends_with(".rules"));
    files.sort();
    let mut tags: Vec<String> = listed.iter().map(|l| l.0.clone()).collect();
    tags.sort();
    assert_eq!(
        files, tags,
        "www/i18n/*.json and languages.json list different languages"
    );
    let mut problems = Vec::new();
    for (tag, partial) in &listed {
        let catalog = catalog(tag);
        for (k, v) in &en {
            match catalog.get(k).and_then(Value::as_str) {
                None if !partial => problems.push(format!("{tag}: missing {k}")),
                None => {}
                Some(text) => {
                    let want = placeholders(v.as_str().unwrap_or_default());
                    if placeholders(text) != want {
                        problems.push(format!(
                            "{tag}: {k} has placeholders {:?}, English {want:?}",
                            placeholders(text)
                        ));
                    }
                }
            }
        }
        for k in catalog.keys().filter(|k| !en.contains_key(*k)) {
            problems.push(format!("{tag}: {k} is not a key of en.json"));
        }
        for (k, v) in &catalog {
            if !v.is_string() {
                problems.push(format!("{tag}: {k} is not a string"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn translated_catalogs_leave_no_english() {
    let en = catalog("en");
    let mut problems = Vec::new();
    for (tag, _) in languages().iter().filter(|l| l.0 != "en") {
        for (k, v) in catalog(tag) {
            if en.get(&k) == Some(&v) && !SAME_AS_ENGLISH.contains(&k.as_str()) {
                problems.push(format!("{tag}: {k} is English: {v}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
