//! The page's message catalogs (`www/i18n/`, README "Languages"; a
//! language's catalog is `<tag>.json` plus `<tag>.rules.json`, the rules'
//! summaries and the fields' explanations, fetched when first shown):
//! - `en.json`'s rule summaries and scenario prose are the core's English
//!   (`UPDATE_CATALOG=1` rewrites those entries from the core);
//! - every listed language has a catalog, every catalog is listed, and a
//!   catalog not marked `partial` has exactly English's keys, each with
//!   the same `{placeholders}`;
//! - a translated catalog leaves no English behind: a value equal to
//!   English's is allowed only for MCP terms and ids (`SAME_AS_ENGLISH`);
//! - `en.notes.json` holds the template of every `note!` of the core
//!   (`note.<key>`, read from its source; `UPDATE_CATALOG=1` rewrites it),
//!   and every note of every scenario is keyed, its key in the catalog, and
//!   the English template with its arguments says exactly its English text.

use std::collections::BTreeSet;
use std::path::PathBuf;

use mcp_lanes_core::client::UndeclaredPolicy;
use mcp_lanes_core::note::Msg;
use mcp_lanes_core::protocol::version::EraMode;
use mcp_lanes_core::{explain, rules, scenarios};
use serde_json::{Map, Value};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../www/i18n")
}

/// A language's whole catalog: `<tag>.json`, `<tag>.rules.json` and
/// `<tag>.notes.json`.
fn catalog(tag: &str) -> Map<String, Value> {
    let mut all = read(&format!("{tag}.json"));
    for (part, prefixes) in [
        ("rules", &["rule.", "field."][..]),
        ("notes", &["note.", "label."][..]),
    ] {
        for (k, v) in read(&format!("{tag}.{part}.json")) {
            assert!(
                prefixes.iter().any(|p| k.starts_with(p)),
                "{tag}.{part}.json: {k} does not start with {prefixes:?}"
            );
            assert!(
                all.insert(k.clone(), v).is_none(),
                "{tag}: {k} is in two files"
            );
        }
    }
    all
}

/// Every `note!("key", "template", ...)` of the core's source and of the
/// CLI's (the notes of a real run it records, a check's skipped flows), in
/// file order; a key said twice must say the same template.
fn note_templates() -> Vec<(String, String)> {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut dirs = vec![here.join("../core/src"), here.join("src")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("note.rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut out: Vec<(String, String)> = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("note!(") {
            rest = &rest[at + 6..];
            let Some((key, after)) = literal(rest) else {
                continue;
            };
            let after = after.trim_start();
            let Some(after) = after.strip_prefix(',') else {
                continue;
            };
            let Some((template, after)) = literal(after) else {
                continue;
            };
            rest = after;
            match out.iter().find(|(k, _)| *k == key) {
                Some((_, t)) => assert_eq!(*t, template, "{key} says two templates"),
                None => out.push((key, template)),
            }
        }
    }
    out
}

/// A Rust string literal at the start of `text` (after spaces), unescaped,
/// and what follows it.
fn literal(text: &str) -> Option<(String, &str)> {
    let text = text.trim_start();
    let mut chars = text.strip_prefix('"')?.char_indices();
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &text[i + 2..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars
                        .by_ref()
                        .map(|(_, c)| c)
                        .skip(1)
                        .take_while(|c| *c != '}')
                        .collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                '\n' => {
                    // A line continuation: the next line's indentation goes.
                    while chars.clone().next().is_some_and(|(_, c)| c.is_whitespace()) {
                        chars.next();
                    }
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
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
    // A usage error said as it came (a library's or the OS's words).
    "cli.usage.as_is",
    "label.stdio",
    "label.Streamable HTTP",
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
    for field in explain::all() {
        out.push((field.catalog_key(), field.text.to_string()));
    }
    for s in scenarios::CATALOG {
        out.push((format!("scenario.{}.title", s.id), s.title.to_string()));
        out.push((format!("scenario.{}.summary", s.id), s.summary.to_string()));
    }
    for (k, t) in note_templates() {
        out.push((format!("note.{k}"), t));
    }
    // Set-up labels, era names and the policies for an undeclared request,
    // keyed by their English (the page translates a lane's label as the
    // core wrote it, and the settings' names).
    let eras = [EraMode::ModernOnly, EraMode::LegacyOnly, EraMode::DualEra];
    let policies = [
        UndeclaredPolicy::MethodNotFound,
        UndeclaredPolicy::Drop,
        UndeclaredPolicy::Close,
    ];
    let labels = scenarios::CATALOG
        .iter()
        .flat_map(|s| scenarios::setups(s.id).unwrap_or_default())
        .map(|setup| setup.label)
        .chain(eras.iter().map(|e| e.label().to_string()))
        .chain(policies.iter().map(|p| p.label().to_string()));
    for label in labels {
        let key = format!("label.{label}");
        if !out.iter().any(|(k, _)| *k == key) {
            out.push((key, label));
        }
    }
    out
}

fn from_core(key: &str) -> bool {
    key.starts_with("rule.")
        || key.starts_with("field.")
        || key.starts_with("scenario.")
        || key.starts_with("note.")
        || key.starts_with("label.")
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
        let mut notes = Map::new();
        for (k, v) in &core {
            let into = if k.starts_with("rule.") || k.starts_with("field.") {
                &mut rules
            } else if k.starts_with("note.") || k.starts_with("label.") {
                &mut notes
            } else {
                &mut page
            };
            into.insert(k.clone(), Value::String(v.clone()));
        }
        for (name, map) in [
            ("en.json", page),
            ("en.rules.json", rules),
            ("en.notes.json", notes),
        ] {
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
        if let Some(lang) = tag.strip_suffix(".rules").or(tag.strip_suffix(".notes")) {
            assert!(
                files.iter().any(|f| f == lang),
                "{tag}.json without {lang}.json"
            );
        } else {
            for part in ["rules", "notes"] {
                assert!(
                    files.iter().any(|f| *f == format!("{tag}.{part}")),
                    "{tag}.json without {tag}.{part}.json"
                );
            }
        }
    }
    files.retain(|f| !f.ends_with(".rules") && !f.ends_with(".notes"));
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

/// What a timeline says to a reader: every event's note, a broken
/// message's violation and the outcome, each as its English and its
/// message.
struct Said {
    note: String,
    note_msg: Option<Msg>,
}

/// The template of note `key` in a catalog (`note.<key>`).
fn note_template(catalog: &Map<String, Value>, key: &str) -> Option<String> {
    catalog
        .get(&format!("note.{key}"))
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn said(timeline: &mcp_lanes_core::sim::Timeline) -> Vec<Said> {
    let events = timeline.events.iter().map(|e| Said {
        note: e.note.clone(),
        note_msg: e.note_msg.as_ref().and_then(Msg::from_value),
    });
    let violations = timeline.events.iter().filter_map(|e| {
        let m = e.message()?;
        Some(Said {
            note: m.violation.clone()?,
            note_msg: m.violation_msg.as_ref().and_then(Msg::from_value),
        })
    });
    let outcome = Said {
        note: timeline.summary.outcome.clone(),
        note_msg: timeline
            .summary
            .outcome_msg
            .as_ref()
            .and_then(Msg::from_value),
    };
    events.chain(violations).chain([outcome]).collect()
}

#[test]
fn every_scenario_note_is_keyed_and_says_its_english() {
    let en = catalog("en");
    let template = |key: &str| note_template(&en, key);
    let mut problems = Vec::new();
    for s in scenarios::CATALOG {
        for timeline in scenarios::run(s.id).unwrap() {
            for e in &said(&timeline) {
                let Some(msg) = &e.note_msg else {
                    problems.push(format!("{}: unkeyed note {:?}", s.id, e.note));
                    continue;
                };
                if !msg.is_keyed() {
                    problems.push(format!("{}: partly unkeyed note {msg:?}", s.id));
                }
                let mut keys = Vec::new();
                msg.keys(&mut keys);
                for k in keys.iter().filter(|k| template(k).is_none()) {
                    problems.push(format!("{}: note.{k} is not in en.notes.json", s.id));
                }
                match msg.render(&template, " ") {
                    // A note quoted inside another drops its final period
                    // in English only (`Note::trim_end_period`).
                    Some(text) if text == e.note || text.replace(".)", ")") == e.note => {}
                    other => problems.push(format!(
                        "{}: the template says {other:?}, the note {:?}",
                        s.id, e.note
                    )),
                }
            }
        }
    }
    problems.dedup();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A run of `n` or more English words (letters only, not an MCP term:
/// terms carry `/`, `_`, `.`, `-`, digits or inner capitals) in `text`.
fn english_run(text: &str, n: usize) -> Option<String> {
    let mut run: Vec<&str> = Vec::new();
    for word in text.split(|c: char| !(c.is_ascii_graphic()) || c == '"' || c == '(' || c == ')') {
        let w = word.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '.' | '!' | '?'));
        let plain = !w.is_empty()
            && w.chars().all(|c| c.is_ascii_alphabetic() || c == '\'')
            && !w.chars().skip(1).any(|c| c.is_ascii_uppercase());
        if plain {
            run.push(w);
            if run.len() >= n {
                return Some(run.join(" "));
            }
        } else {
            run.clear();
        }
    }
    None
}

/// Arguments that are a server's own words (its instructions, an error's
/// message): shown as they are, in whatever language the server speaks.
const SERVERS_WORDS: &[&str] = &["instructions", "message"];

fn servers_words(msg: &Msg, out: &mut Vec<String>) {
    match msg {
        Msg::Text(_) => {}
        Msg::Keyed { args, .. } => {
            for (name, arg) in args {
                match arg {
                    Msg::Text(text) if SERVERS_WORDS.contains(&name.as_str()) => {
                        out.push(text.clone())
                    }
                    other => servers_words(other, out),
                }
            }
        }
        Msg::Seq(parts) => parts.iter().for_each(|p| servers_words(p, out)),
    }
}

#[test]
fn every_scenario_note_reads_in_every_language() {
    for (tag, _) in languages().iter().filter(|l| l.0 != "en") {
        let notes = read(&format!("{tag}.notes.json"));
        let template = |key: &str| note_template(&notes, key);
        let mut problems = Vec::new();
        for s in scenarios::CATALOG {
            for timeline in scenarios::run(s.id).unwrap() {
                for e in &said(&timeline) {
                    let text = e.note_msg.as_ref().and_then(|m| m.render(&template, ""));
                    match text {
                        None => {
                            problems.push(format!("{tag} {}: no {tag} text for {:?}", s.id, e.note))
                        }
                        Some(mut text) => {
                            let mut words = Vec::new();
                            if let Some(m) = &e.note_msg {
                                servers_words(m, &mut words);
                            }
                            for w in words {
                                text = text.replace(&w, "");
                            }
                            if let Some(run) = english_run(&text, 4) {
                                problems.push(format!("{tag} {}: {run:?} in {text:?}", s.id));
                            }
                        }
                    }
                }
            }
        }
        problems.dedup();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
