//! Architecture invariants of the core: no browser, async-runtime or I/O
//! dependencies, and no clock, network, file system or threads in its
//! source ("the core does no I/O and reads no clock").

mod common;

use std::path::Path;
use std::process::Command;

const FORBIDDEN_CRATES: &[&str] = &[
    "yew",
    "web-sys",
    "js-sys",
    "wasm-bindgen",
    "gloo",
    "tokio",
    "mio",
];

const FORBIDDEN_SOURCE: &[&str] = &[
    "std::time",
    "SystemTime",
    "Instant::now",
    "std::net",
    "std::fs",
    "std::thread",
    "RandomState",
    "getrandom",
];

#[test]
fn core_has_no_browser_or_io_dependencies() {
    let output = Command::new(env!("CARGO"))
        .current_dir(common::repo_root())
        .args([
            "tree",
            "-p",
            "mcp-lanes-core",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--target",
            "all",
        ])
        .output()
        .expect("run cargo tree");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "cargo tree failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let crates: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(
        crates.first() == Some(&"mcp-lanes-core") && crates.contains(&"serde_json"),
        "unexpected cargo tree output:\n{stdout}"
    );
    let found: Vec<&&str> = crates
        .iter()
        .filter(|name| {
            FORBIDDEN_CRATES
                .iter()
                .any(|f| **name == *f || name.starts_with(&format!("{f}-")))
        })
        .collect();
    assert!(
        found.is_empty(),
        "the core depends on {found:?}; it must stay free of browser, async and I/O crates:\n{stdout}"
    );
}

fn rust_sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read crates/core/src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn core_source_reads_no_clock_and_does_no_io() {
    let src = common::repo_root().join("crates/core/src");
    let mut files = Vec::new();
    rust_sources(&src, &mut files);
    files.sort();
    assert!(files.len() > 10, "only {} source files found", files.len());
    let mut hits = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read source");
        for (n, line) in text.lines().enumerate() {
            for needle in FORBIDDEN_SOURCE {
                if line.contains(needle) {
                    hits.push(format!(
                        "{}:{}: {needle}: {}",
                        file.strip_prefix(&src).unwrap_or(file).display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        hits.is_empty(),
        "the core must not read a clock or do I/O:\n{}",
        hits.join("\n")
    );
}
