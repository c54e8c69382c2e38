#![no_main]
//! Fuzz target `server_text`: see [`mcp_lanes_fuzz::server_text`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::server_text(data));
