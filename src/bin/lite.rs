//! The lite bundle (`mcp-lanes-lite`, built with `--no-default-features`):
//! what a first visit loads. Same start as the full bundle; without the
//! `engine` feature the crate shows recorded runs and loads the full bundle
//! when a person changes something (see the crate docs in `lib.rs`).

#[cfg(target_arch = "wasm32")]
fn main() {
    mcp_lanes_web::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("mcp-lanes-lite is the browser app's first-visit bundle: build it with `trunk build` (see README).");
}
