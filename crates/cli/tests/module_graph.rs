//! The CLI's modules import one another without a cycle (ARCHITECTURE.md,
//! "Code map: `crates/cli`"): read from the `crate::`, `super::` and
//! `self::` paths of `crates/cli/src/**/*.rs`, a top-level module and its
//! submodules being one unit.

use std::path::PathBuf;

#[path = "common/imports.rs"]
mod imports;

/// A top-level module with its submodules.
fn unit(module: &[String]) -> String {
    module.first().cloned().unwrap_or_default()
}

#[test]
fn the_cli_has_no_import_cycle() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = imports::graph(&root, "crates/cli/src", imports::module_of, unit);
    assert!(
        graph.files.len() > 10,
        "the CLI's modules were read: {:?}",
        graph.files.keys()
    );
    if let Some(found) = imports::cycle(&graph.edges) {
        let steps: Vec<String> = found
            .windows(2)
            .map(|w| format!("{} -> {} ({})", w[0], w[1], graph.edges[&w[0]][&w[1]]))
            .collect();
        panic!("an import cycle in crates/cli/src/:\n{}", steps.join("\n"));
    }
}
