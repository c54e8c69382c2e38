//! mcp-lanes web app: views over the simulation core's timelines.
//!
//! Two bundles come from this crate (see README, "Two bundles"):
//! - **lite** (`mcp-lanes-lite`, built without the `engine` feature): the
//!   runs the core recorded at build time (`www/timelines/`, kept current
//!   by `tests/page_timelines.rs`), no simulator. When a person changes a
//!   setting or opens the editor it hands the state to the full bundle.
//! - **full** (`mcp-lanes-web`, with `engine`): the simulator, and the
//!   islands (the editor, a lane's settings, the exports, the check panel)
//!   and `McpLanes.mount` for `embed.js`.
//!
//! One renderer: both run the [`view`]s with one [`runtime`], which
//! patches the page's DOM to match them; the full bundle's islands are
//! Yew apps mounted into hosts the views draw (`bundle::islands`).
//!
//! # Layers
//!
//! Each layer uses only the layers above it in this list;
//! `tests/layers.rs` fails on an import against this order or on an
//! import cycle between modules.
//!
//! 1. **data**: [`model`] (what the lanes draw), [`editor_model`] (the
//!    editor's text), [`i18n`] (the message catalogs), [`config`] (page and figure options, the hand-over
//!    message), [`runs`] (the simulator or the recorded runs), [`checked`]
//!    (timelines recorded outside the page, graded by the core), [`live`]
//!    (a live check's runs, without the I/O).
//! 2. **state**: [`state`] (the page: `State`, `Action`, the reducer) and
//!    [`editor_state`] (the request editor's).
//! 3. **views**: [`view`], the page as markup text.
//! 4. **hooks**: [`browser`], [`permalink`], [`recording`] and
//!    [`schema_worker`] (browser services), the
//!    islands' side effects (`hooks`; yew's `Reducible` for the editor).
//! 5. **components**: the islands (`components`), one per file.
//! 6. **boot**: [`runtime`] (the page at run time) and [`figure`] (a
//!    mounted figure's handle).
//!
//! Data, state and views are plain Rust and build natively, where their
//! tests run (`cargo test -p mcp-lanes-web`); the other layers are browser
//! code and build for wasm32 only.
//!
//! # The seam between the bundles
//!
//! [`bundle`] is `bundle/full/` or `bundle/lite/`, chosen here once by the
//! `engine` feature. Both have the same items, one submodule per layer:
//! `SIMULATOR` and `CHECKS` (data), `hand_over` (hooks: the bundle's side
//! of the hand-over), `islands` (components: the Yew islands, or none) and
//! `entry` (boot: `start`, and `McpLanes.mount`). Nothing else in the
//! crate depends on the feature.
//!
//! **Invariant:** the UI never decides protocol behaviour. It shows what the
//! core recorded and hands user changes back to the core
//! (`settings::apply`, `sim::run`, `editor::EditorSession`).
//!
//! The modules are public so that the bundle that does not use a module
//! (the lite one: the editor) does not report it as dead code; only the two
//! binaries use this library.

// Data layer.
pub mod checked;
pub mod config;
pub mod editor_model;
pub mod i18n;
pub mod live;
pub mod model;
pub mod runs;
pub mod setting_words;

// Views layer (markup text: every region of the page).
pub mod view;

// State layer.
pub mod editor_state;
pub mod state;

// Hooks layer: browser services (both bundles), and the islands' side
// effects (the full bundle's).
#[cfg(target_arch = "wasm32")]
pub mod bridge;
#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod history;
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
pub mod hooks;
#[cfg(target_arch = "wasm32")]
pub mod permalink;
#[cfg(target_arch = "wasm32")]
pub mod recording;
#[cfg(target_arch = "wasm32")]
pub mod schema_worker;
#[cfg(target_arch = "wasm32")]
pub mod shortcuts;
#[cfg(target_arch = "wasm32")]
pub mod tap;
#[cfg(target_arch = "wasm32")]
pub mod theme;

// Components layer (yew: the full bundle's islands).
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
pub mod components;

// Boot layer: the page's runtime (both bundles) and a mounted figure's
// handle.
#[cfg(target_arch = "wasm32")]
pub mod figure;
#[cfg(target_arch = "wasm32")]
pub mod runtime;

/// The seam between the bundles (see the crate docs).
#[cfg_attr(feature = "engine", path = "bundle/full/mod.rs")]
#[cfg_attr(not(feature = "engine"), path = "bundle/lite/mod.rs")]
pub mod bundle;

/// The allocator of both bundles (talc instead of the standard library's
/// dlmalloc: fewer bytes of WebAssembly, see BENCHMARKS.md).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Starts the page (or, under `embed.js`, waits for `McpLanes.mount`).
#[cfg(target_arch = "wasm32")]
pub use bundle::entry::start;
