//! The lite bundle's side of the seam (`mcp-lanes-lite`, the first visit):
//! no simulator, editor or exporters. It shows the runs the core recorded
//! at build time and recorded conversations (graded by the core), and
//! hands the state to the full bundle when a person asks for more. `bundle/full/` has the same items.

use crate::runs::Simulator;

/// This bundle shows recorded runs only (`runs::recorded`).
pub const SIMULATOR: Option<Simulator> = None;

/// This bundle draws recorded conversations too (`?transcript=`, the
/// `transcript` options), graded by the core: they need no simulator.
pub const CHECKS: bool = true;

#[cfg(target_arch = "wasm32")]
pub mod entry;
#[cfg(target_arch = "wasm32")]
pub mod hand_over;
#[cfg(target_arch = "wasm32")]
pub mod islands;
#[cfg(target_arch = "wasm32")]
mod recorded;
