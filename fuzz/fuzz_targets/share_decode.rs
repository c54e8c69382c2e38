#![no_main]
//! Fuzz target `share_decode`: see [`mcp_lanes_fuzz::share_decode`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_lanes_fuzz::share_decode(data));
