use serde_json::{json, Value};

use super::*;
use crate::scenarios::CATALOG;

fn errors(value: Value) -> Vec<String> {
    match load_value(&value) {
        Ok(_) => Vec::new(),
        Err(list) => list.iter().map(ToString::to_string).collect(),
    }
}

fn minimal() -> Value {
    json!({
        "format": FORMAT,
        "id": "t",
        "setups": [{"client": "plain", "server": "deploy-console", "steps": [{"do": "discover"}]}]
    })
}

/// `setups` with each deliberate violation said as plain text: a file
/// keeps a violation's words, not the catalog key the built-in scenario
/// gave them.
fn plain_violations(mut setups: Vec<crate::sim::Setup>) -> Vec<crate::sim::Setup> {
    for setup in &mut setups {
        for step in &mut setup.script {
            if let crate::client::Step::Raw {
                violation: Some(why),
                ..
            } = step
            {
                *why = crate::note::Note::from(why.text());
            }
        }
    }
    setups
}

#[test]
fn every_catalog_scenario_round_trips_to_the_same_setups_and_timelines() {
    for info in CATALOG {
        let setups = plain_violations(crate::scenarios::setups(info.id).unwrap_or_default());
        assert_eq!(setups.len(), info.lanes, "{}: lanes", info.id);
        let text = serde_json::to_string_pretty(&export_scenario(info)).unwrap_or_default();
        let loaded = match load(&text) {
            Ok(loaded) => loaded,
            Err(errors) => panic!("{}: {errors:?}\n{text}", info.id),
        };
        assert_eq!(loaded.id, info.id);
        assert_eq!(loaded.title, info.title);
        assert_eq!(loaded.setups, setups, "{}", info.id);
        let before =
            serde_json::to_string(&crate::scenarios::run_setups(&setups)).unwrap_or_default();
        let after = serde_json::to_string(&crate::scenarios::run_setups(&loaded.setups))
            .unwrap_or_default();
        assert_eq!(before, after, "{}", info.id);
    }
}

#[test]
fn a_minimal_file_loads() {
    let loaded = load_value(&minimal()).map_err(|e| format!("{e:?}"));
    assert_eq!(loaded.map(|l| l.setups.len()), Ok(1));
}

#[test]
fn requires_as_a_list_names_the_path_and_the_expected_shape() {
    let mut file = minimal();
    file["servers"] = json!([{"id": "weather", "tools": [
        {"name": "today"},
        {"name": "forecast", "requires": ["elicitation"]}
    ]}]);
    assert_eq!(
        errors(file),
        ["servers[0].tools[1].requires: expected an object of capabilities such as {\"elicitation\": {}}, got [\"elicitation\"]"]
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let file = json!({
        "format": FORMAT,
        "id": "Bad Id",
        "servers": [{"id": "w", "era": "future", "tools": [{"name": "<script>"}]}],
        "clients": [{"id": "c", "undeclaredRequests": "ignore"}],
        "setups": [{"client": "c", "server": "w", "transport": "carrier-pigeon",
            "steps": [{"do": "fly"}, {"do": "wait"}, {"do": "call", "tool": "x", "argumnts": {}}]}]
    });
    let found = errors(file);
    for expected in [
        "id: expected an id",
        "servers[0].era: expected \"modern\", \"legacy\" or \"dual\", got \"future\"",
        "servers[0].tools[0].name: expected a tool name",
        "clients[0].undeclaredRequests: expected \"method-not-found\", \"drop\" or \"close\", got \"ignore\"",
        "setups[0].transport: expected \"stdio\", \"http\"",
        "setups[0].steps[0].do: expected \"discover\"",
        "setups[0].steps[1].ms: required",
        "setups[0].steps[2].argumnts: unknown key in a \"call\" step",
    ] {
        assert!(
            found.iter().any(|f| f.starts_with(expected) || f.contains(expected)),
            "missing {expected:?} in {found:#?}"
        );
    }
    assert!(
        found
            .iter()
            .any(|f| f.contains("did you mean \"arguments\"")),
        "{found:#?}"
    );
}

#[test]
fn dangling_references_are_errors_with_paths() {
    let mut file = minimal();
    file["setups"][0]["server"] = json!("nowhere");
    file["setups"][0]["serverEvents"] = json!([{"atMs": 5, "event": "upgrade", "to": "elsewhere"}]);
    let found = errors(file);
    assert!(
        found[0].starts_with("setups[0].server: no server \"nowhere\""),
        "{found:?}"
    );
    assert!(
        found[1].starts_with("setups[0].serverEvents[0].to: no server \"elsewhere\""),
        "{found:?}"
    );
}

#[test]
fn limits_are_named_in_the_errors() {
    let mut file = minimal();
    file["setups"][0]["steps"] = Value::from(vec![json!({"do": "discover"}); 10_000]);
    assert_eq!(
        errors(file),
        [format!(
            "setups[0].steps: 10000 steps, more than the limit of {MAX_STEPS}"
        )]
    );

    let mut deep = String::new();
    for _ in 0..10_000 {
        deep.push('[');
    }
    let found = load(&deep).err().unwrap_or_default();
    assert_eq!(found.len(), 1);
    assert!(
        found[0]
            .message
            .contains("more than 32 levels deep (the limit) at line 1 column 33"),
        "{found:?}"
    );

    let huge = format!(
        "{{\"format\": \"{FORMAT}\", \"id\": \"{}\"}}",
        "a".repeat(MAX_FILE_BYTES)
    );
    let found = load(&huge).err().unwrap_or_default();
    assert!(
        found[0]
            .message
            .contains("more than the limit of 1048576 bytes"),
        "{found:?}"
    );

    let mut file = minimal();
    file["setups"][0]["label"] = Value::from("x".repeat(MAX_NAME + 1));
    assert_eq!(
        errors(file),
        ["setups[0].label: 201 characters, more than the limit of 200 for a name"]
    );
}

#[test]
fn a_deep_value_names_its_path() {
    let mut value = json!({});
    for _ in 0..40 {
        value = json!({"a": value});
    }
    let mut file = minimal();
    file["setups"][0]["steps"][0] = json!({"do": "call", "tool": "t", "arguments": value});
    let found = errors(file);
    assert_eq!(found.len(), 1);
    assert!(
        found[0].starts_with("setups[0].steps[0].arguments.a.a"),
        "{found:?}"
    );
}

#[test]
fn declare_and_drop_set_what_later_requests_declare() {
    let mut file = minimal();
    file["setups"][0]["client"] = json!("rich");
    file["setups"][0]["steps"] = json!([
        {"do": "drop", "capability": "elicitation"},
        {"do": "list", "what": "tools"},
        {"do": "declare", "capabilities": {"elicitation": {}}},
        {"do": "call", "tool": "notify_oncall", "arguments": {"incident": "INC-1"}},
        {"do": "declare", "capabilities": "all"},
        {"do": "list", "what": "tools", "declare": {}}
    ]);
    let setups = load_value(&file).map(|l| l.setups).unwrap_or_default();
    let declared: Vec<Option<Value>> = setups[0]
        .script
        .iter()
        .map(|s| match s {
            crate::client::Step::Request { declare, .. } => declare.as_ref().map(|d| d.to_json()),
            _ => None,
        })
        .collect();
    let mut rich_without = crate::client::presets::rich_capabilities().to_json();
    if let Some(map) = rich_without.as_object_mut() {
        map.remove("elicitation");
    }
    assert_eq!(
        declared,
        [
            Some(rich_without),
            Some(json!({"elicitation": {}})),
            Some(json!({}))
        ]
    );
}

#[test]
fn narration_shows_with_the_next_event_and_never_alone_in_a_catalog_run() {
    let mut file = minimal();
    file["setups"][0]["steps"] = json!([
        {"say": "First the client asks what the server is.", "do": "discover"},
        {"do": "wait", "ms": 10, "say": "Then it waits."},
        {"do": "list", "what": "tools"},
        {"do": "say", "text": "That is all."}
    ]);
    let setups = load_value(&file).map(|l| l.setups).unwrap_or_default();
    let t = crate::sim::run(&setups[0]);
    let narrated: Vec<(&str, usize)> = t
        .events
        .iter()
        .filter_map(|e| e.narration.as_deref().map(|n| (n, e.index)))
        .collect();
    assert_eq!(narrated.len(), 3, "{narrated:?}");
    assert_eq!(
        narrated[0],
        ("First the client asks what the server is.", 0)
    );
    assert_eq!(narrated[1].0, "Then it waits.");
    assert_eq!(narrated[2].0, "That is all.");
    assert_eq!(narrated[2].1, t.events.len() - 1);
}

fn translated() -> Value {
    json!({
        "format": FORMAT,
        "id": "t",
        "title": "Discover",
        "summary": "One discover.",
        "setups": [{
            "label": "plain",
            "client": "plain",
            "server": "deploy-console",
            "steps": [{"do": "discover", "say": "First, discover."}]
        }],
        "translations": {
            "zh": {
                "title": "发现",
                "summary": "一次 discover。",
                "labels": {"plain": "普通"},
                "say": {"First, discover.": "先 discover。"}
            },
            "pt-BR": {"title": "Descobrir"}
        }
    })
}

#[test]
fn a_translation_gives_the_authors_text_in_the_readers_language() {
    let file = load_value(&translated()).expect("loads");
    let zh = file.localized("zh-CN");
    assert_eq!(zh.title, "发现");
    assert_eq!(zh.summary, "一次 discover。");
    assert_eq!(zh.setups[0].label, "普通");
    assert!(zh.setups[0]
        .script
        .iter()
        .any(|s| matches!(s, crate::client::Step::Narrate { text } if text == "先 discover。")));
    // Only text changes: the same run, said in another language.
    let said = |f: &ScenarioFile| {
        let t = crate::scenarios::run_setups(&f.setups);
        t[0].events
            .iter()
            .map(|e| e.note.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(said(&zh), said(&file));
    // A language the file lacks, or a part a translation lacks: the file's own.
    let pt = file.localized("pt-br");
    assert_eq!(
        (pt.title.as_str(), pt.summary.as_str()),
        ("Descobrir", "One discover.")
    );
    assert_eq!(file.localized("de"), file);
}

#[test]
fn a_translation_names_only_what_the_file_says() {
    let mut bad = translated();
    bad["translations"]["zh"]["labels"] = json!({"plian": "普通"});
    bad["translations"]["zh"]["say"] = json!({"First discover.": "先 discover。"});
    let said = errors(bad);
    for expected in [
        "translations.zh.labels.plian: no set-up is labelled \"plian\"",
        "translations.zh.say[\"First discover.\"]: no step says \"First discover.\"",
    ] {
        assert!(
            said.iter().any(|e| e.starts_with(expected)),
            "{expected:?} not in {said:#?}"
        );
    }
    let mut bad = translated();
    bad["translations"]["zh_CN"] = json!({});
    bad["translations"]["ja"] = json!({"title": 3, "labels": [], "note": "x"});
    let said = errors(bad);
    for expected in [
        "translations.zh_CN: expected a language tag",
        "translations.ja.title: expected a name",
        "translations.ja.labels: expected an object of the file's text to its translation",
        "translations.ja.note: unknown key in a translation",
    ] {
        assert!(
            said.iter().any(|e| e.starts_with(expected)),
            "{expected:?} not in {said:#?}"
        );
    }
}

/// A file with a problem of nearly every kind the reader reports.
fn broken_file() -> Value {
    json!({
        "format": "mcp-lanes-scenario/0",
        "id": "Not An Id",
        "titel": "typo",
        "servers": [
            {"id": "s", "preset": "nope", "era": "ancient", "capabilities": {"tolls": {}},
             "tools": [{"name": "a b", "inputSchema": {"type": "array"}, "requires": {"elicitation": {"voice": {}}}},
                       {"name": "ok", "requires": []}],
             "cache": {"ttlMs": -1, "scope": "world"}},
            {"id": "s"}
        ],
        "clients": [{"id": "c", "preset": "nope", "discoverFirst": "yes", "capabilities": {"sampel": {}}}],
        "setups": [{
            "label": "x\ny",
            "client": "nowhere",
            "server": "deploy-console",
            "transport": "pigeon",
            "serverEvents": [{"event": "upgrade", "uri": "u"}],
            "steps": [
                {"do": "dance"},
                {"say": "no do"},
                {"do": "call"},
                {"do": "send", "text": "x", "rules": ["NOT-A-RULE"], "headers": 3},
                {"do": "wait"},
                {"do": "declare"},
                7
            ]
        }],
        "translations": {"not a tag": {}, "zh": {"labels": {"no such label": "x"}, "say": []}}
    })
}

fn errors_of(value: Value) -> Vec<FileError> {
    load_value(&value).err().unwrap_or_default()
}

#[test]
fn every_problem_is_a_keyed_note_that_says_its_english() {
    let found = load_value(&broken_file()).err().unwrap_or_default();
    assert!(found.len() > 20, "{found:#?}");
    let mut dangling = minimal();
    dangling["setups"][0]["client"] = json!("nowhere");
    dangling["setups"][0]["server"] = json!("nowhere");
    dangling["translations"] = json!({"zh": {"labels": {"x": "y"}, "say": {"z": "w"}}});
    let found = [found, errors_of(dangling)].concat();
    let mut more = load("{\"format\": ").err().unwrap_or_default();
    more.extend(load("[1,]").err().unwrap_or_default());
    assert_eq!(more.len(), 2, "{more:?}");
    for problem in found.iter().chain(&more) {
        let note = problem.note();
        assert_eq!(note.text(), problem.to_string());
        assert!(note.is_keyed(), "not keyed: {problem}");
        let mut keys = Vec::new();
        if let Some(msg) = note.msg() {
            msg.keys(&mut keys);
        }
        assert!(
            keys.iter().all(|k| k.starts_with("file.")),
            "{problem}: {keys:?}"
        );
        // A catalog that has a template for every key says something for
        // every problem, and none of the core's English sentences.
        let marked = |key: &str| Some(format!("<{key}>"));
        let said = note
            .msg()
            .and_then(|m| m.render(&marked, " "))
            .unwrap_or_default();
        assert!(said.starts_with("<file."), "{problem}: {said}");
    }
    // serde_json's words stay the English text; the message says where.
    assert!(more[0]
        .message
        .starts_with("not valid JSON: EOF while parsing"));
    let msg = more[0].message_msg.as_ref().map(crate::note::Msg::to_value);
    assert_eq!(
        msg.as_ref().and_then(|m| m.pointer("/args/why/key")),
        Some(&Value::from("file.json_eof"))
    );
}
