//! mcp-lanes web app: a Yew view over the simulation core's timelines.
//! The page is only built for wasm32; natively the crate is a stub so that
//! `cargo build --workspace` stays green.
//!
//! Two bundles come from this crate (see README, "Two bundles"):
//! - **lite** (`mcp-lanes-lite`, built without the `engine` feature): what
//!   a first visit loads. It shows the runs the core recorded at build time
//!   (`www/timelines/`, kept current by `tests/page_timelines.rs`) and has
//!   no simulator. When a person changes a setting or opens the editor it
//!   hands the state to the full bundle ([`upgrade`]).
//! - **full** (`mcp-lanes-web`, with `engine`): the simulator, the editor
//!   and `McpLanes.mount` for `embed.js`.
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
#[cfg(any(all(target_arch = "wasm32", feature = "engine"), test))]
mod editor_model;
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
mod editor_state;
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
mod el;
#[cfg(target_arch = "wasm32")]
mod embed;
#[cfg(target_arch = "wasm32")]
mod hooks;
#[cfg(target_arch = "wasm32")]
mod model;
#[cfg(target_arch = "wasm32")]
mod permalink;
#[cfg(all(target_arch = "wasm32", not(feature = "engine")))]
mod recorded;
#[cfg(target_arch = "wasm32")]
mod state;
#[cfg(target_arch = "wasm32")]
mod upgrade;

/// Starts the page (or, under `embed.js`, waits for `McpLanes.mount`).
#[cfg(target_arch = "wasm32")]
pub fn start() {
    // Loaded by www/embed.js: figures are mounted with `embed::mount`.
    if embed::script_base().is_some() {
        return;
    }
    let mut config = config::Config::from_url();
    upgrade::take_handoff(&mut config);
    if let Some(problem) = &config.problem {
        gloo::console::error!(format!("mcp-lanes: {problem}"));
    }
    #[cfg(feature = "engine")]
    render(config);
    #[cfg(not(feature = "engine"))]
    recorded::start(config);
}

/// Renders the app for `config` into a new root element of the body.
#[cfg(target_arch = "wasm32")]
fn render(config: config::Config) {
    let Some(root) = upgrade::new_root() else {
        return;
    };
    let config = model::Shared::new(config);
    let props = components::app::AppProps { config };
    let handle =
        yew::Renderer::<components::app::App>::with_root_and_props(root.clone(), props).render();
    upgrade::keep(handle, root);
}
