//! The full bundle (`mcp-lanes-web`): the page with the simulator and the
//! editor, and `McpLanes.mount` for `embed.js`. The lite first-visit
//! bundle is `src/bin/lite.rs`; both start the same way (see the crate
//! docs in `lib.rs`).

#[cfg(target_arch = "wasm32")]
fn main() {
    mcp_lanes_web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("mcp-lanes-web is the browser app: build it with `trunk build` (see README).");
}
