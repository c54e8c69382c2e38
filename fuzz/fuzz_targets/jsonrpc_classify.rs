#![no_main]
//! Fuzz target `jsonrpc_classify`: see [`mcp_lanes_fuzz::jsonrpc_classify`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::jsonrpc_classify(data));
