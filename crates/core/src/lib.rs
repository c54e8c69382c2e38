//! # mcp-lanes-core
//!
//! A deterministic, sans-IO simulation of Model Context Protocol peers:
//! protocol types, a simulated server and client, simulated transports, a
//! virtual-clock engine that records a [`sim::Timeline`], and the scenario
//! catalog.
//!
//! **Architecture invariant:** this crate does no I/O and reads no clock.
//! Time is a [`sim::SimTime`] argument; bytes come in as arguments and go out
//! as return values. It knows nothing about browsers, sockets or processes,
//! and builds for `wasm32-unknown-unknown` as it does natively.
//!
//! Dependency direction: [`protocol`] -> [`server`], [`client`] -> [`sim`]
//! -> [`scenarios`]; the web UI and the CLI sit on top.

#![warn(missing_docs)]

/// English prose of the catalogs (rule summaries, scenario titles and
/// summaries): the text itself natively (and in WebAssembly with the `text`
/// feature), an empty string in WebAssembly without it (the web app, which
/// shows its own catalogs; see Cargo.toml).
#[cfg(any(feature = "text", not(target_arch = "wasm32")))]
macro_rules! en {
    ($text:expr) => {
        $text
    };
}
/// See the `text` feature: the English prose is left out.
#[cfg(all(not(feature = "text"), target_arch = "wasm32"))]
macro_rules! en {
    ($text:expr) => {
        ""
    };
}

pub mod auth;
pub mod check;
pub mod client;
pub mod editor;
pub mod explain;
pub mod export;
pub mod gateway;
pub mod identity;
pub mod import;
pub mod note;
pub mod protocol;
pub mod redact;
pub mod rules;
pub mod scenarios;
pub mod server;
pub mod settings;
pub mod share;
pub mod sim;
pub mod small_map;
pub mod transcript;
pub mod transport;
