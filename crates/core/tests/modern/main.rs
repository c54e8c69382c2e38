//! The modern era (2026-07-28) on the server side, driven over stdio with
//! hand-written JSON, one module per concern: JSON-RPC basics, `_meta`,
//! statelessness and results, versions and capabilities, cache hints and
//! MRTR, eras and every scenario's results. `fixtures` holds what they
//! share (the modern servers and a battery of requests).

#[path = "../common/mod.rs"]
mod common;

mod cache_mrtr;
mod fixtures;
mod jsonrpc;
mod meta_results;
mod scenarios;
mod versions_capabilities;
