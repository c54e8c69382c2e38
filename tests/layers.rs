//! The web app's layering (`src/`, see `src/lib.rs` and ARCHITECTURE.md):
//! every module imports only from its own layer or the layers below it
//! (data, state, hooks, components, boot), and no import cycle joins two
//! modules. Reads the `crate::`, `super::` and `self::` paths of
//! `src/**/*.rs`; `scripts/test.sh` runs it as its own step.
//!
//! A new top-level module (or a new module of the seam, `bundle`) needs a
//! line in [`LAYERS`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "../crates/cli/tests/common/imports.rs"]
mod imports;
use imports::{cycle, references, Graph};

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
            "recording",
            "schema_worker",
            "tap",
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

/// The module path of a file under `src/` (`None`: the crate root or a
/// binary); both sides of the seam are the module `bundle`.
fn module_of(relative: &Path) -> Option<Vec<String>> {
    let mut parts = imports::module_of(relative)?;
    if parts.first().is_some_and(|p| p == "bundle")
        && parts.get(1).is_some_and(|p| p == "full" || p == "lite")
    {
        parts.remove(1);
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

/// The import graph of `src/` (src/bundle/full/x.rs and
/// src/bundle/lite/x.rs are one module).
fn graph() -> Graph {
    imports::graph(&src(), "src", module_of, unit)
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
