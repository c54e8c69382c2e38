//! The full bundle's side of the seam (`mcp-lanes-web`, feature `engine`):
//! the simulator and the islands (the editor, a lane's settings, the
//! exports, the check panel); it takes over the drawn or lite page after a
//! hand-over and mounts figures for `embed.js`. `bundle/lite/` has the same
//! items.

use crate::runs::Simulator;

/// This bundle changes and runs set-ups itself.
pub const SIMULATOR: Option<Simulator> = Some(Simulator::CORE);

/// This bundle opens and grades recorded checks (`checked`).
pub const CHECKS: bool = true;

#[cfg(target_arch = "wasm32")]
pub mod entry;
#[cfg(target_arch = "wasm32")]
pub mod hand_over;
#[cfg(target_arch = "wasm32")]
pub mod islands;
