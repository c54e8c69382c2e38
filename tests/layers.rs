//! The web app's layering (`src/`, see `src/lib.rs` and ARCHITECTURE.md):
//! every module imports only from its own layer or the layers below it
//! (data, state, hooks, components, boot), and no import cycle joins two
//! modules. Reads the `crate::`, `super::` and `self::` paths of
//! `src/**/*.rs`; `scripts/test.sh` runs it as its own step.
//!
//! A new top-level module (or a new module of the seam, `bundle`) needs a
//! line in [`LAYERS`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first, and the modules in each. A module's layer is
/// that of the longest entry that is the module or one of its ancestors.
/// `bundle` is `src/bundle/full/` or `src/bundle/lite/` (the seam between
/// the two bundles; both are read as one module tree).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "data",
        &[
            "model",
            "editor_model",
            "i18n",
            "config",
            "runs",
            "setting_words",
            "checked",
            "live",
            "bundle",
        ],
    ),
    ("state", &["state", "editor_state"]),
    ("views", &["view"]),
    (
        "hooks",
        &[
            "browser",
            "bridge",
            "history",
            "shortcuts",
            "theme",
            "permalink",
            "hooks",
            "bundle::hand_over",
            "bundle::recorded",
        ],
    ),
    ("components", &["components", "bundle::islands"]),
    ("boot", &["runtime", "bundle::entry", "figure"]),
];

/// Modules whose submodules are units of their own (one component or hook
/// per file); elsewhere a module and its submodules are one unit (a child
/// may use its parent's items and the other way round).
const SPLIT: &[&str] = &["components", "hooks", "bundle"];

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read src/")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`None`: the crate root or a
/// binary, which only declare and start modules).
fn module_of(relative: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop()?;
    let root = parts.is_empty() && matches!(file.as_str(), "lib.rs" | "main.rs");
    if root || parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    // Both sides of the seam are the module `bundle`.
    if parts.first().is_some_and(|p| p == "bundle")
        && parts.get(1).is_some_and(|p| p == "full" || p == "lite")
    {
        parts.remove(1);
    }
    match file.strip_suffix(".rs")? {
        "mod" => {}
        name => parts.push(name.to_string()),
    }
    Some(parts)
}

/// The unit a module belongs to (see [`SPLIT`]).
fn unit(module: &[String]) -> String {
    let depth = match module.first() {
        Some(first) if SPLIT.contains(&first.as_str()) => 2,
        _ => 1,
    };
    module[..module.len().min(depth)].join("::")
}

/// The layer index of a unit.
fn layer(unit: &str) -> Option<usize> {
    LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, modules))| modules.iter().map(move |m| (i, *m)))
        .filter(|(_, m)| unit == *m || unit.starts_with(&format!("{m}::")))
        .max_by_key(|(_, m)| m.len())
        .map(|(i, _)| i)
}

/// The code of a file without its comments (line comments, doc comments).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path a use-tree starting at `at` names, each as its segments
/// (`a::b::{c, d::e}` gives `a::b::c` and `a::b::d::e`; `self` in a group
/// is the group's prefix).
fn use_tree(text: &[u8], at: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        while text.get(*at).is_some_and(u8::is_ascii_whitespace) {
            *at += 1;
        }
        if text.get(*at) == Some(&b'{') {
            *at += 1;
            loop {
                use_tree(text, at, path.clone(), out);
                while text
                    .get(*at)
                    .is_some_and(|c| c.is_ascii_whitespace() || *c == b',')
                {
                    *at += 1;
                }
                match text.get(*at) {
                    Some(b'}') => {
                        *at += 1;
                        return;
                    }
                    None => return,
                    _ => {}
                }
            }
        }
        let start = *at;
        while text
            .get(*at)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            *at += 1;
        }
        let segment = String::from_utf8_lossy(&text[start..*at]).into_owned();
        if segment.is_empty() {
            // `*`, or the end of the path.
            out.push(path);
            return;
        }
        if segment != "self" {
            path.push(segment);
        }
        if text[*at..].starts_with(b"::") {
            *at += 2;
        } else {
            out.push(path);
            return;
        }
    }
}

/// The modules (paths from the crate root) that the code of `module` names.
fn references(module: &[String], code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for (word, base) in [
        ("crate::", Vec::new()),
        ("super::", module[..module.len().saturating_sub(1)].to_vec()),
        ("self::", module.to_vec()),
    ] {
        let mut from = 0;
        while let Some(i) = code[from..].find(word).map(|i| from + i) {
            from = i + word.len();
            let joined = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            if joined || (i > 1 && &bytes[i - 2..i] == b"::") {
                continue;
            }
            let mut at = from;
            use_tree(bytes, &mut at, base.clone(), &mut out);
        }
    }
    out
}

/// The import graph of `src/` between units: unit -> (unit -> a file that
/// makes that edge), and each unit's files.
struct Graph {
    edges: BTreeMap<String, BTreeMap<String, String>>,
    files: BTreeMap<String, Vec<String>>,
}

fn graph() -> Graph {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut modules: BTreeMap<Vec<String>, (String, String)> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&root).expect("under src/");
        let Some(module) = module_of(relative) else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read a source file");
        let name = format!("src/{}", relative.display());
        // src/bundle/full/x.rs and src/bundle/lite/x.rs are one module.
        let entry = modules.entry(module).or_default();
        entry.0.push_str(&code(&text));
        entry.0.push('\n');
        if entry.1.is_empty() {
            entry.1 = name;
        } else {
            entry.1 = format!("{} and {name}", entry.1);
        }
    }
    let mut graph = Graph {
        edges: BTreeMap::new(),
        files: BTreeMap::new(),
    };
    for (module, (code, file)) in &modules {
        let from = unit(module);
        graph
            .files
            .entry(from.clone())
            .or_default()
            .push(file.clone());
        let targets = graph.edges.entry(from.clone()).or_default();
        for path in references(module, code) {
            // The longest prefix of the path that is a module.
            let Some(target) = (1..=path.len())
                .rev()
                .map(|n| &path[..n])
                .find(|p| modules.contains_key(*p))
            else {
                continue;
            };
            let to = unit(target);
            if to != from {
                targets.entry(to).or_insert_with(|| file.clone());
            }
        }
    }
    graph
}

/// A cycle of the graph, if it has one (as the units along it, the first
/// repeated at the end).
fn cycle(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeMap<String, String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|n| n == node) {
            let mut found = path[i..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flat_map(|t| t.keys()) {
            if let Some(found) = visit(next, edges, done, path) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut done, &mut Vec::new()))
}

#[test]
fn every_module_of_src_has_a_layer() {
    let graph = graph();
    let missing: Vec<String> = graph
        .files
        .iter()
        .filter(|(unit, _)| layer(unit).is_none())
        .map(|(unit, files)| format!("{unit} ({})", files.join(", ")))
        .collect();
    assert!(
        missing.is_empty(),
        "give these modules a layer in LAYERS of tests/layers.rs: {missing:?}"
    );
}

#[test]
fn src_imports_only_from_its_own_layer_or_below() {
    let graph = graph();
    let mut wrong = Vec::new();
    for (from, targets) in &graph.edges {
        for (to, file) in targets {
            if let (Some(a), Some(b)) = (layer(from), layer(to)) {
                if b > a {
                    wrong.push(format!(
                        "{file}: {from} ({}) imports {to} ({})",
                        LAYERS[a].0, LAYERS[b].0
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers (data < state < hooks < components < boot):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn src_has_no_import_cycle() {
    let graph = graph();
    if let Some(found) = cycle(&graph.edges) {
        let steps: Vec<String> = found
            .windows(2)
            .map(|w| format!("{} -> {} ({})", w[0], w[1], graph.edges[&w[0]][&w[1]]))
            .collect();
        panic!("an import cycle in src/:\n{}", steps.join("\n"));
    }
}

#[test]
fn the_check_reads_paths_and_finds_cycles() {
    let module = |s: &str| s.split("::").map(str::to_string).collect::<Vec<_>>();
    let found = references(
        &module("state::link"),
        "use crate::model::{self, Layout, x::{Y, z}};\nuse super::State;\nlet a = crate::runs::has(id); my_crate::no;",
    );
    let found: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        found,
        [
            "model",
            "model::Layout",
            "model::x::Y",
            "model::x::z",
            "runs::has",
            "state::State"
        ]
    );
    assert_eq!(
        module_of(Path::new("bundle/lite/hand_over.rs")),
        Some(module("bundle::hand_over"))
    );
    assert_eq!(
        module_of(Path::new("bundle/full/mod.rs")),
        Some(module("bundle"))
    );
    assert_eq!(module_of(Path::new("state.rs")), Some(module("state")));
    assert_eq!(module_of(Path::new("lib.rs")), None);
    assert_eq!(module_of(Path::new("bin/lite.rs")), None);
    assert_eq!(unit(&module("components::editor")), "components::editor");
    assert_eq!(unit(&module("state::link")), "state");
    assert_eq!(layer("bundle::islands"), Some(4));
    assert_eq!(layer("runtime"), Some(5));
    assert_eq!(layer("view::diagram"), Some(2));
    assert_eq!(layer("bundle"), Some(0));

    let edges = |pairs: &[(&str, &str)]| {
        let mut map: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for (a, b) in pairs {
            map.entry(a.to_string())
                .or_default()
                .insert(b.to_string(), String::new());
        }
        map
    };
    assert_eq!(cycle(&edges(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    assert_eq!(
        cycle(&edges(&[("a", "b"), ("b", "c"), ("c", "a")])),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}
