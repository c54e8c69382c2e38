//! The course lessons of `tests/lessons/` (scenario files written from the
//! book alone; `crates/cli/tests/lessons.rs` checks what they draw): every
//! message of every run, the client's as well as the server's, validates
//! against the official schema of its revision, deliberate violations
//! aside.

mod common;

use std::path::Path;

use mcp_lanes_core::scenarios::{self, file};
use serde_json::Value;

#[test]
fn every_message_of_every_lesson_validates_against_its_revisions_schema() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/lessons");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/lessons") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if !name.ends_with(".json") || name.ends_with(".expect.json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a lesson file");
        let value: Value = serde_json::from_str(&text).expect("JSON");
        let loaded = file::load_value(&value).unwrap_or_else(|e| {
            panic!(
                "{name}: {:?}",
                e.iter().map(ToString::to_string).collect::<Vec<_>>()
            )
        });
        for timeline in scenarios::run_setups(&loaded.setups) {
            common::assert_timeline_valid(&timeline);
        }
        count += 1;
    }
    assert!(count >= 20, "only {count} lessons");
}
