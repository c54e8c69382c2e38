#![no_main]
//! Fuzz target `cli_connection`: see [`mcp_lanes_fuzz::cli_connection`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::cli_connection(data));
