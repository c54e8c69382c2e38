//! Embeds the page's message catalogs (`www/i18n/`, listed in its
//! `languages.json`) for `--lang`: a new language is a catalog and a line
//! of that list, no Rust change.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default())
        .join("..")
        .join("..")
        .join("www")
        .join("i18n");
    println!("cargo:rerun-if-changed={}", dir.display());
    let list = std::fs::read_to_string(dir.join("languages.json")).unwrap_or_default();
    // The tags, read without a JSON parser: each `"tag": "xx"`.
    let mut out = String::from("/// The catalogs as (tag, JSON text, the notes' JSON text, the rules'\n/// JSON text), in `languages.json` order.\npub const CATALOGS: &[(&str, &str, &str, &str)] = &[\n");
    for part in list.split("\"tag\"").skip(1) {
        let tag: String = part
            .trim_start_matches([' ', ':', '"'])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        let file = dir.join(format!("{tag}.json"));
        let notes = dir.join(format!("{tag}.notes.json"));
        let rules = dir.join(format!("{tag}.rules.json"));
        println!("cargo:rerun-if-changed={}", file.display());
        println!("cargo:rerun-if-changed={}", notes.display());
        println!("cargo:rerun-if-changed={}", rules.display());
        let text_of = |path: &PathBuf| {
            if path.is_file() {
                format!("include_str!({:?})", path.display().to_string())
            } else {
                "\"{}\"".to_string()
            }
        };
        if !tag.is_empty() && file.is_file() {
            let _ = writeln!(
                out,
                "    ({tag:?}, include_str!({:?}), {}, {}),",
                file.display().to_string(),
                text_of(&notes),
                text_of(&rules)
            );
        }
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("catalogs.rs");
    // Runs at compile time only: failing the build (a clear message, exit
    // status 1) is the right answer to an unwritable OUT_DIR.
    if let Err(err) = std::fs::write(&dest, out) {
        eprintln!(
            "mcp-lanes-cli build.rs: cannot write {}: {err}",
            dest.display()
        );
        std::process::exit(1);
    }
}
