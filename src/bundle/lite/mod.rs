//! The lite bundle's side of the seam (`mcp-lanes-lite`, the first visit):
//! no simulator, editor or exporters. It shows the runs the core recorded
//! at build time and hands the state to the full bundle when a person asks
//! for more. `bundle/full/` has the same items.

use crate::runs::Simulator;

/// This bundle shows recorded runs only (`runs::recorded`).
pub const SIMULATOR: Option<Simulator> = None;

/// Recorded checks are the full bundle's: the state never opens one here, so
/// the code that does is not linked in.
pub const CHECKS: bool = false;

#[cfg(target_arch = "wasm32")]
pub mod entry;
#[cfg(target_arch = "wasm32")]
pub mod hand_over;
#[cfg(target_arch = "wasm32")]
pub mod islands;
#[cfg(target_arch = "wasm32")]
mod recorded;
