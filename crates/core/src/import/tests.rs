//! Unit tests of the importer's formats; the behaviour on real material is
//! in `crates/core/tests/import.rs`.

use super::*;

#[test]
fn placeholder() {
    assert!(read("x.json", "[]").is_err());
}
