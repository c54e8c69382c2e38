//! Golden transcripts: the `run --format json` document of every scenario,
//! pretty-printed with a trailing newline, must equal the checked-in file
//! `tests/golden/<scenario>.json` byte for byte. `UPDATE_GOLDEN=1` rewrites
//! the files instead (and the test still passes); review the diff.

mod common;

use std::path::PathBuf;

use mcp_lanes_core::{scenarios, transcript};

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn document(id: &str) -> String {
    let timelines = common::run(id);
    let doc = transcript::scenario_document(id, &timelines);
    let mut text = serde_json::to_string_pretty(&doc).expect("a transcript serialises");
    text.push('\n');
    text
}

fn updating() -> bool {
    std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1")
}

#[test]
fn golden_transcripts_match() {
    let dir = golden_dir();
    if updating() {
        std::fs::create_dir_all(&dir).expect("create tests/golden");
    }
    let mut mismatched = Vec::new();
    for info in scenarios::CATALOG {
        let path = dir.join(format!("{}.json", info.id));
        let actual = document(info.id);
        if updating() {
            std::fs::write(&path, &actual)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {} ({e}); run `UPDATE_GOLDEN=1 cargo test -p mcp-lanes-core --test golden` to create it",
                path.display()
            )
        });
        if expected != actual {
            let first = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
            let show = |text: &str| {
                text.lines()
                    .skip(first.saturating_sub(3))
                    .take(8)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            mismatched.push(format!(
                "{} differs from its golden file at line {}:\n--- golden\n{}\n+++ now\n{}",
                info.id,
                first + 1,
                show(&expected),
                show(&actual)
            ));
        }
    }
    assert!(
        mismatched.is_empty(),
        "{} golden transcript(s) changed. If the change is intended, regenerate with \
         `UPDATE_GOLDEN=1 cargo test -p mcp-lanes-core --test golden` and review the diff.\n\n{}",
        mismatched.len(),
        mismatched.join("\n\n")
    );
}

#[test]
fn no_stray_golden_files() {
    let dir = golden_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let ids = common::scenario_ids();
    for entry in entries {
        let name = entry.expect("dir entry").file_name();
        let name = name.to_string_lossy();
        let id = name.trim_end_matches(".json");
        assert!(
            ids.contains(&id),
            "tests/golden/{name} belongs to no scenario of the catalog"
        );
    }
}

#[test]
fn catalog_has_thirty_one_scenarios() {
    assert_eq!(scenarios::CATALOG.len(), 31);
    let numbers: Vec<u8> = scenarios::CATALOG.iter().map(|s| s.number).collect();
    assert_eq!(numbers, (1..=31).collect::<Vec<u8>>());
}

#[test]
fn scenarios_are_deterministic() {
    for info in scenarios::CATALOG {
        let first = document(info.id);
        let second = document(info.id);
        assert_eq!(first, second, "scenario {} is not deterministic", info.id);
        // The full timelines (notes, rules, events), not only the transcript.
        let a = serde_json::to_string(&common::run(info.id)).expect("timeline serialises");
        let b = serde_json::to_string(&common::run(info.id)).expect("timeline serialises");
        assert_eq!(a, b, "the timelines of {} differ between runs", info.id);
    }
}
