#![no_main]
//! Fuzz target `cli_request`: see [`mcp_lanes_fuzz::cli_request`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::cli_request(data));
