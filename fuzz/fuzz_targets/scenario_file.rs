#![no_main]
//! Fuzz target `scenario_file`: see [`mcp_lanes_fuzz::scenario_file`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::scenario_file(data));
