#![no_main]
//! Fuzz target `timeline_file`: see [`mcp_lanes_fuzz::timeline_file`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::timeline_file(data));
