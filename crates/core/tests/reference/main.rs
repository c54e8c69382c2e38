//! The `reference` preset: the whole server side of both eras, with the
//! official conformance suite's fixtures, one module per concern. Tests
//! are named after the rules they exercise; every message the server sends
//! is checked against the official schema of its revision (`fixtures`).

#[path = "../common/mod.rs"]
mod common;

mod features;
mod fixtures;
mod http_legacy;
mod listen;
mod mrtr;
