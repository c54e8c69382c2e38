//! The import graph of a crate's sources, shared by the tests that hold it
//! acyclic and layered: the web app's (`tests/layers.rs`) and the CLI's
//! (`crates/cli/tests/module_graph.rs`); both include this file by path.
//! Reads the `crate::`, `super::` and `self::` paths of every `.rs` file.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The module path of a file relative to a crate's `src/` (`None`: the
/// crate root or a binary, which only declare and start modules).
pub fn module_of(relative: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop()?;
    let root = parts.is_empty() && matches!(file.as_str(), "lib.rs" | "main.rs");
    if root || parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    match file.strip_suffix(".rs")? {
        "mod" => {}
        name => parts.push(name.to_string()),
    }
    Some(parts)
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read a source directory")
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

/// The code of a file without its comments (line comments, doc comments).
pub fn code(text: &str) -> String {
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
pub fn references(module: &[String], code: &str) -> Vec<Vec<String>> {
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

/// The import graph of a crate's sources between units: unit -> (unit -> a
/// file that makes that edge), and each unit's files.
pub struct Graph {
    /// unit -> (unit it imports -> a file that makes that edge).
    pub edges: BTreeMap<String, BTreeMap<String, String>>,
    /// unit -> its files.
    pub files: BTreeMap<String, Vec<String>>,
}

/// The graph of the sources under `root` (named `label/…` in messages):
/// `module_of` gives a file's module path (`None`: the crate root or a
/// binary), `unit` the unit a module belongs to. Files of one module path
/// are read as one module.
pub fn graph(
    root: &Path,
    label: &str,
    module_of: fn(&Path) -> Option<Vec<String>>,
    unit: fn(&[String]) -> String,
) -> Graph {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let mut modules: BTreeMap<Vec<String>, (String, String)> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(root).expect("under the root");
        let Some(module) = module_of(relative) else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read a source file");
        let name = format!("{label}/{}", relative.display());
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
pub fn cycle(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
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
