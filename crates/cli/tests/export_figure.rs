//! `mcp-lanes export --figure FILE`: a scenario file's complete figure as
//! static HTML (the web crate's views, run natively): every message and
//! event of the file's run drawn, in the language of `--lang`, the file's
//! strings escaped; `--document` around it, `--out` instead of stdout; an
//! unknown language or an invalid file is refused like `run --file`'s.

mod common;

use std::path::PathBuf;

use common::run;
use mcp_lanes_core::scenarios;
use serde_json::{json, Value};

fn weather() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../www/scenarios/weather-forecast.json")
        .display()
        .to_string()
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-lanes-figure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn temp_file(name: &str, text: &str) -> String {
    let path = temp_dir().join(name);
    std::fs::write(&path, text).expect("write temp file");
    path.display().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The figure `args` write on stdout (the command must succeed).
fn figure(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// A page catalog's text for `key`.
fn catalog_text(tag: &str, key: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../www/i18n/{tag}.json"));
    let catalog: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("catalog")).expect("JSON");
    catalog[key].as_str().expect(key).to_string()
}

#[test]
fn the_figure_of_a_scenario_file_draws_every_message_and_event_of_its_run() {
    let html = figure(&["export", "--figure", &weather()]);
    assert!(
        html.starts_with("<div class=\"app-root\" data-static=\"\">"),
        "{}",
        &html[..html.len().min(200)]
    );
    assert!(html.ends_with("</div>\n"));
    // What the core's simulator records for the file's set-ups.
    let file = scenarios::file::load(&std::fs::read_to_string(weather()).expect("read"))
        .expect("the sample file is valid");
    let timelines = scenarios::run_setups(&file.setups);
    assert_eq!(timelines.len(), 2);
    let messages: usize = timelines
        .iter()
        .map(|t| t.events.iter().filter(|e| e.message().is_some()).count())
        .sum();
    let events: usize = timelines.iter().map(|t| t.events.len()).sum();
    assert!(messages > 0 && events >= messages);
    assert_eq!(html.matches("data-testid=\"message-").count(), messages);
    assert_eq!(
        html.matches("<details class=\"step-event\"").count(),
        events
    );
    // The whole run, position by position, from the start.
    assert!(html.contains("data-testid=\"transcript\""));
    assert!(html.contains("<li id=\"step-0\" data-pos=\"0\""));
    // A figure (`?embed=1`) titled with the file's title, in English.
    assert!(html.contains("<div class=\"app embed\">"));
    assert!(html.contains("data-file=\"1\">A forecast needs sampling</h2>"));
    assert!(html.contains("The dashboard has no model to lend"));
    assert!(html.contains(&catalog_text("en", "figure.whole_run")));
}

#[test]
fn lang_zh_draws_the_figure_in_chinese() {
    let html = figure(&["export", "--figure", &weather(), "--lang", "zh"]);
    // The page's words from the Chinese catalog, not the English one.
    let (zh, en) = (
        catalog_text("zh", "figure.whole_run"),
        catalog_text("en", "figure.whole_run"),
    );
    assert_ne!(zh, en);
    assert!(html.contains(&zh), "{zh}");
    assert!(!html.contains(&en), "{en}");
    // The file's own translation: its title, labels and narration.
    assert!(html.contains("天气预报需要 sampling"));
    assert!(html.contains("仪表盘（没有模型）"));
    assert!(html.contains("仪表盘没有可借用的模型"));
    assert!(!html.contains("The dashboard has no model to lend"));
    // A region of a language the views have is that language.
    assert_eq!(
        figure(&["export", "--figure", &weather(), "--lang", "zh-CN"]),
        html
    );
}

#[test]
fn hostile_strings_of_the_file_come_out_escaped() {
    const HOSTILE: &str = "<img src=x onerror=alert(1)>";
    let mut file: Value =
        serde_json::from_str(&std::fs::read_to_string(weather()).expect("read")).expect("JSON");
    file["title"] = json!(HOSTILE);
    file["summary"] = json!(format!("summary {HOSTILE}"));
    file["setups"][0]["label"] = json!(format!("label {HOSTILE}"));
    file["setups"][0]["steps"][0]["say"] = json!(format!("say {HOSTILE}"));
    file["servers"][0]["tools"][0]["result"] = json!(format!("{{city}} {HOSTILE}"));
    file["translations"] = json!({});
    let path = temp_file("hostile.json", &file.to_string());
    for args in [
        vec!["export", "--figure", &path],
        vec!["export", "--figure", &path, "--document", "--base", HOSTILE],
    ] {
        let html = figure(&args);
        assert!(!html.contains("<img"), "{args:?}");
        assert!(!html.contains("onerror=alert(1)>"), "{args:?}");
        for said in ["", "summary ", "label ", "say "] {
            let escaped = format!("{said}&lt;img src=x onerror=alert(1)&gt;");
            assert!(html.contains(&escaped), "{args:?}: {escaped}");
        }
    }
}

#[test]
fn document_wraps_the_figure_and_out_writes_it() {
    let fragment = figure(&["export", "--figure", &weather(), "--lang", "zh"]);
    let path = temp_dir().join("weather.zh.html");
    let out_path = path.display().to_string();
    let out = run(&[
        "export",
        "--figure",
        &weather(),
        "--lang",
        "zh",
        "--document",
        "--base",
        "https://course.test/mcp-lanes",
        "--out",
        &out_path,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let doc = std::fs::read_to_string(&path).expect("--out written");
    assert!(
        doc.starts_with("<!doctype html>\n<html lang=\"zh\">\n"),
        "{doc}"
    );
    assert!(doc.contains("<meta charset=\"utf-8\">"));
    assert!(doc.contains("<title>天气预报需要 sampling</title>"));
    assert!(
        doc.contains("<link rel=\"stylesheet\" href=\"https://course.test/mcp-lanes/style.css\">")
    );
    assert!(doc.contains(
        "<script type=\"module\" src=\"https://course.test/mcp-lanes/figure.js\"></script>"
    ));
    assert!(doc.contains(&format!("<body>\n{fragment}</body>\n</html>\n")));
    // Without --base: the document's own directory.
    let here = figure(&["export", "--figure", &weather(), "--document"]);
    assert!(here.contains("<link rel=\"stylesheet\" href=\"style.css\">"));
    assert!(here.contains("src=\"figure.js\""));
    assert!(here.contains("<html lang=\"en\">"));
    // A write that fails is an I/O failure, said in the language.
    let out = run(&[
        "export",
        "--figure",
        &weather(),
        "--lang",
        "zh",
        "--out",
        "/no/such/dir/figure.html",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("无法写入"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_unknown_lang_is_a_usage_error_that_lists_the_known_ones() {
    let out = run(&["export", "--figure", &weather(), "--lang", "xx"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let errors = text(&out.stderr);
    assert!(
        errors.starts_with("error: unknown --lang \"xx\" (expected one of en, zh)\n"),
        "{errors}"
    );
    assert!(
        errors.contains("mcp-lanes export --figure FILE"),
        "{errors}"
    );
}

#[test]
fn a_broken_file_gets_its_problems_and_the_status_of_run_file() {
    let broken = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "broken",
        "title": "<b>broken</b>",
        "setups": [{"client": "plain", "server": "wether", "steps": [{"do": "wait", "ms": -1}]}]
    });
    let path = temp_file("broken.json", &broken.to_string());
    let out_path = temp_dir().join("broken.html");
    let _ = std::fs::remove_file(&out_path);
    let out = run(&[
        "export",
        "--figure",
        &path,
        "--out",
        &out_path.display().to_string(),
    ]);
    let same = run(&["run", "--file", &path]);
    assert_eq!(out.status.code(), same.status.code());
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(!out_path.exists(), "nothing written for a broken file");
    let errors = text(&out.stderr);
    assert!(
        errors.contains("is not a valid scenario file (1 problem):"),
        "{errors}"
    );
    assert!(
        errors
            .contains("setups[0].steps[0].ms: expected a whole number from 0 to 86400000, got -1"),
        "{errors}"
    );
    // In the language asked for.
    let out = run(&["export", "--figure", &path, "--lang", "zh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("不是有效的场景文件"),
        "{}",
        text(&out.stderr)
    );
    // Not JSON, and no file at all.
    let out = run(&[
        "export",
        "--figure",
        &temp_file("not-json.json", "{\"format\": "),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let out = run(&["export", "--figure", "/no/such/file.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("there is no such file"));
}
