//! The fuzz targets' bodies. They live beside the regression test that
//! replays the committed inputs on stable
//! (`crates/cli/tests/fuzz_targets/mod.rs`), so both run the same code.

#[path = "../../crates/cli/tests/fuzz_targets/mod.rs"]
mod bodies;

pub use bodies::*;
