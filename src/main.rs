//! mcp-lanes web app: a Yew view over the simulation core's timelines.
//! The page is only built for wasm32; natively this binary is a stub so that
//! `cargo build --workspace` stays green.
//!
//! Layout (after yew's own examples): `state.rs` holds the state, its
//! `Action`s and the reducer; `model.rs` turns timelines into what the lanes
//! draw; `components/` has one component per file; `hooks/` the side
//! effects (playback timer, keyboard, URL, theme).
//!
//! **Invariant:** the UI never decides protocol behaviour. It shows what the
//! core recorded and hands user changes back to the core
//! (`settings::apply`, `sim::run`).

#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod config;
#[cfg(any(target_arch = "wasm32", test))]
mod editor_model;
#[cfg(target_arch = "wasm32")]
mod editor_state;
#[cfg(target_arch = "wasm32")]
mod el;
#[cfg(target_arch = "wasm32")]
mod embed;
#[cfg(target_arch = "wasm32")]
mod hooks;
#[cfg(target_arch = "wasm32")]
mod model;
#[cfg(target_arch = "wasm32")]
mod permalink;
#[cfg(target_arch = "wasm32")]
mod state;

#[cfg(target_arch = "wasm32")]
fn main() {
    // Loaded by www/embed.js: figures are mounted with `embed::mount`.
    if embed::script_base().is_some() {
        return;
    }
    let config = config::Config::from_url();
    if let Some(problem) = &config.problem {
        gloo::console::error!(format!("mcp-lanes: {problem}"));
    }
    let config = model::Shared::new(config);
    let props = components::app::AppProps { config };
    yew::Renderer::<components::app::App>::with_props(props).render();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("mcp-lanes-web is the browser app: build it with `trunk build` (see README).");
}
