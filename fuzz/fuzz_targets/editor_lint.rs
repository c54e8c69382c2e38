#![no_main]
//! Fuzz target `editor_lint`: see [`mcp_lanes_fuzz::editor_lint`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::editor_lint(data));
