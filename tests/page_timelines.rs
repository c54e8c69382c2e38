//! The page's precomputed runs: `www/timelines/<scenario>.json` holds the
//! core's timelines of every scenario's set-ups as the scenario defines
//! them. The page shows these on a first visit without the simulator, and
//! loads the simulator only when a person changes something. Each file must
//! equal what the core records now, byte for byte; `UPDATE_GOLDEN=1`
//! rewrites them instead (review the diff).

use std::path::PathBuf;

use mcp_lanes_core::scenarios;
use mcp_lanes_core::sim::Timeline;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("www/timelines")
}

fn expected(id: &str) -> String {
    let timelines = scenarios::run(id).expect("a catalog scenario runs");
    let mut text = serde_json::to_string(&timelines).expect("timelines serialise");
    text.push('\n');
    text
}

#[test]
fn page_timelines_match_the_core() {
    let updating = std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for info in scenarios::CATALOG {
        let path = dir().join(format!("{}.json", info.id));
        let want = expected(info.id);
        if updating {
            std::fs::create_dir_all(dir()).expect("create www/timelines");
            std::fs::write(&path, &want).expect("write a page timeline");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(want.as_str()) {
            stale.push(info.id);
        }
    }
    assert!(
        stale.is_empty(),
        "www/timelines is stale for {stale:?}: run `UPDATE_GOLDEN=1 cargo test --test page_timelines` and review the diff"
    );
}

#[test]
fn page_timelines_read_back_equal_to_the_runs() {
    for info in scenarios::CATALOG {
        let runs = scenarios::run(info.id).expect("a catalog scenario runs");
        let text = serde_json::to_string(&runs).expect("timelines serialise");
        let back = Timeline::from_json(&text).expect("timelines read back");
        assert_eq!(back, runs, "{} does not survive the round trip", info.id);
    }
}

#[test]
fn page_timelines_reject_unknown_rules_and_bad_json() {
    assert!(Timeline::from_json("not json").is_none());
    assert!(Timeline::from_json("[{\"label\":1}]").is_none());
    let runs = scenarios::run(scenarios::CATALOG[0].id).expect("runs");
    let text = serde_json::to_string(&runs).expect("serialise");
    let first_rule = runs
        .iter()
        .flat_map(|t| &t.events)
        .flat_map(|e| &e.rules)
        .next()
        .expect("a rule");
    let tampered = text.replacen(&format!("\"{first_rule}\""), "\"NOT-A-RULE\"", 1);
    assert!(Timeline::from_json(&tampered).is_none());
}
