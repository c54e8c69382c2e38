#![no_main]
//! Fuzz target `server_http`: see [`mcp_lanes_fuzz::server_http`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::server_http(data));
