#![no_main]
//! Fuzz target `skill_file`: see [`mcp_lanes_fuzz::skill_file`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::skill_file(data));
