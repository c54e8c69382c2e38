//! The fuzz targets' reproducers and seeds as ordinary tests: every file in
//! `fuzz/regressions/TARGET/` (inputs that once crashed or hung a target,
//! kept after the fix) and `fuzz/seeds/TARGET/` runs through the same code
//! the target runs (`fuzz_targets/mod.rs`, which `fuzz/src/lib.rs`
//! includes), on the stable toolchain.

#[allow(dead_code)]
mod fuzz_targets;

use fuzz_targets as targets;

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn every_fuzz_target_has_a_seed_folder_and_a_target_file() {
    let fuzz = repo().join("fuzz");
    for target in targets::TARGETS {
        assert!(
            !inputs(&fuzz.join("seeds").join(target)).is_empty(),
            "fuzz/seeds/{target}/ has no seed"
        );
        assert!(
            fuzz.join("fuzz_targets")
                .join(format!("{target}.rs"))
                .is_file(),
            "fuzz/fuzz_targets/{target}.rs is missing"
        );
    }
    assert!(!targets::run("no-such-target", b""));
}

#[test]
fn fuzz_reproducers_and_seeds_run_without_panicking() {
    let fuzz = repo().join("fuzz");
    let mut ran = 0;
    for target in targets::TARGETS {
        for kind in ["regressions", "seeds"] {
            for file in inputs(&fuzz.join(kind).join(target)) {
                let data = std::fs::read(&file).expect("read input");
                assert!(targets::run(target, &data));
                ran += 1;
            }
        }
    }
    assert!(ran >= targets::TARGETS.len(), "only {ran} inputs ran");
}
