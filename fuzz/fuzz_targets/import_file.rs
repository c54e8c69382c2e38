#![no_main]
//! Fuzz target `import_file`: see [`mcp_lanes_fuzz::import_file`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::import_file(data));
