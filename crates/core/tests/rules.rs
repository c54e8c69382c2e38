//! The rule catalog in the core agrees with `spec/RULES.md`, and
//! every rule is exercised by at least one test named after it.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use mcp_lanes_core::rules;

/// One row of a RULES.md table: ID, rule text, source.
#[derive(Debug, Clone)]
struct Row {
    id: String,
    rule: String,
    source: String,
}

fn is_rule_id(cell: &str) -> bool {
    let parts: Vec<&str> = cell.split('-').collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_uppercase()))
}

/// The rows of every table in RULES.md whose first cell is a rule ID.
fn catalog_rows() -> Vec<Row> {
    let path = common::spec_dir().join("RULES.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            let inner = line.strip_prefix('|')?.strip_suffix('|')?;
            let cells: Vec<&str> = inner.split(" | ").map(str::trim).collect();
            if cells.len() != 3 || !is_rule_id(cells[0]) {
                return None;
            }
            Some(Row {
                id: cells[0].to_string(),
                rule: cells[1].to_string(),
                source: cells[2].to_string(),
            })
        })
        .collect()
}

fn catalog_ids() -> Vec<String> {
    catalog_rows().into_iter().map(|r| r.id).collect()
}

/// `M-VERSION-RETRY` -> `m_version_retry`.
fn snake(id: &str) -> String {
    id.to_ascii_lowercase().replace('-', "_")
}

#[test]
fn rules_md_parses_into_the_expected_tables() {
    let ids = catalog_ids();
    assert!(ids.len() >= 40, "only {} rule rows parsed", ids.len());
    let unique: BTreeSet<&String> = ids.iter().collect();
    assert_eq!(
        unique.len(),
        ids.len(),
        "duplicate IDs in RULES.md: {ids:?}"
    );
    for prefix in ["RPC-", "M-", "H-", "E-", "L-"] {
        assert!(
            ids.iter().any(|id| id.starts_with(prefix)),
            "no {prefix} rules parsed"
        );
    }
}

#[test]
fn rules_all_has_exactly_the_ids_of_rules_md() {
    let md = catalog_ids();
    let core: Vec<String> = rules::ALL.iter().map(|r| r.id.to_string()).collect();
    let missing: Vec<&String> = md.iter().filter(|id| !core.contains(id)).collect();
    let extra: Vec<&String> = core.iter().filter(|id| !md.contains(id)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "rules::ALL and RULES.md disagree.\n  in RULES.md only: {missing:?}\n  in rules::ALL only: {extra:?}"
    );
    assert_eq!(core, md, "rules::ALL is not in catalog order");
    for rule in rules::ALL {
        assert_eq!(
            rules::find(rule.id).map(|r| r.id),
            Some(rule.id),
            "rules::find({})",
            rule.id
        );
    }
}

#[test]
fn rules_all_summaries_and_sources_are_the_catalog_text() {
    let rows = catalog_rows();
    let mut differ = Vec::new();
    for row in &rows {
        let Some(rule) = rules::find(&row.id) else {
            continue;
        };
        if rule.summary != row.rule {
            differ.push(format!(
                "{}: summary\n    core: {}\n    md:   {}",
                row.id, rule.summary, row.rule
            ));
        }
        if rule.source != row.source {
            differ.push(format!(
                "{}: source\n    core: {}\n    md:   {}",
                row.id, rule.source, row.source
            ));
        }
        // Rules sourced from a spec page (and not also from a lesson) link it.
        if (row.source.contains("2025-") || row.source.contains("2026-"))
            && !row.source.contains("lesson")
        {
            assert!(
                rule.spec_url
                    .starts_with("https://modelcontextprotocol.io/specification/"),
                "{}: a spec source needs a spec URL, got {:?}",
                row.id,
                rule.spec_url
            );
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// Names of `#[test]` functions in one source text (attribute lines just
/// above the `fn`, as in plain tests and inside `proptest!`).
fn test_fn_names(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut names = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(rest) = trimmed.strip_prefix("fn ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let mut j = i;
        let mut is_test = false;
        while j > 0 {
            j -= 1;
            let above = lines[j].trim();
            if above.starts_with("#[") || above.starts_with("//") {
                if above.starts_with("#[test]") {
                    is_test = true;
                }
                continue;
            }
            break;
        }
        if is_test && !name.is_empty() {
            names.push(name);
        }
    }
    names
}

/// Whether a test named `name` is about rule `id`: the ID's snake form at
/// word boundaries, and not merely the start of a longer rule ID (a test
/// named `m_version_retry_…` covers M-VERSION-RETRY, not M-VERSION).
fn covers(name: &str, id: &str, all: &[String]) -> bool {
    let needle = snake(id);
    let longer: Vec<String> = all
        .iter()
        .filter(|other| other.as_str() != id)
        .map(|other| snake(other))
        .filter(|s| s.starts_with(&format!("{needle}_")))
        .collect();
    let mut from = 0;
    while let Some(pos) = name[from..].find(&needle) {
        let at = from + pos;
        let end = at + needle.len();
        let starts_word = at == 0 || name.as_bytes()[at - 1] == b'_';
        let ends_word = end == name.len() || name.as_bytes()[end] == b'_';
        let is_longer = longer.iter().any(|l| name[at..].starts_with(l.as_str()));
        if starts_word && ends_word && !is_longer {
            return true;
        }
        from = at + 1;
    }
    false
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rule_is_covered_by_a_test_named_after_it() {
    let root = common::repo_root();
    let mut files = Vec::new();
    rust_files(&root.join("crates/core/tests"), &mut files);
    rust_files(&root.join("crates/cli/tests"), &mut files);
    files.sort();
    let mut names = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read test source");
        names.extend(test_fn_names(&text));
    }
    assert!(
        names.len() > 20,
        "only {} test functions found",
        names.len()
    );
    let ids = catalog_ids();
    let uncovered: Vec<&String> = ids
        .iter()
        .filter(|id| !names.iter().any(|n| covers(n, id, &ids)))
        .collect();
    assert!(
        uncovered.is_empty(),
        "{} rule(s) have no test named after them (e.g. `fn {}_…`): {uncovered:?}",
        uncovered.len(),
        uncovered.first().map(|id| snake(id)).unwrap_or_default()
    );
}

#[test]
fn coverage_matching_is_word_aware() {
    let ids: Vec<String> = [
        "M-VERSION",
        "M-VERSION-RETRY",
        "M-MRTR",
        "M-MRTR-CAP",
        "RPC-ID",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert!(covers("m_version_minus_32022_shape", "M-VERSION", &ids));
    assert!(!covers("m_version_retry_new_id", "M-VERSION", &ids));
    assert!(covers("m_version_retry_new_id", "M-VERSION-RETRY", &ids));
    assert!(covers("m_mrtr_cap_refuses", "M-MRTR-CAP", &ids));
    assert!(!covers("m_mrtr_cap_refuses", "M-MRTR", &ids));
    assert!(covers("retry_gets_new_id_rpc_id", "RPC-ID", &ids));
    assert!(!covers("rpc_identity", "RPC-ID", &ids));
    let src = "#[test]\n#[ignore = \"x\"]\nfn a_test() {}\nfn helper() {}\n    #[test]\n    fn b_test(x in 0..1) {}\n";
    assert_eq!(test_fn_names(src), vec!["a_test", "b_test"]);
}
