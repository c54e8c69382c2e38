//! The page's S-SCHEMA worker: the core's JSON Schema validator
//! (`check::schema`, the same code `mcp-lanes check` runs), built as a
//! WebAssembly module of its own that `www/schema-worker.js` loads in a
//! Web Worker when a live check ends. The validator and the official
//! schemas are too big for the page's two bundles, so a reader who never
//! checks a server never fetches them.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

/// The S-SCHEMA verdicts of a timeline (its JSON, the page's format), as a
/// JSON array of verdicts; `[]` for text that is not a timeline.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub fn schema_verdicts(timeline: &str) -> String {
    verdicts(timeline)
}

fn verdicts(timeline: &str) -> String {
    let verdicts = mcp_lanes_core::sim::Timeline::from_json(&format!("[{timeline}]"))
        .and_then(|mut t| t.pop())
        .map(|t| mcp_lanes_core::check::schema::verdicts(&t))
        .unwrap_or_default();
    serde_json::to_string(&verdicts).unwrap_or_else(|_| "[]".into())
}

fn main() {
    // Native builds (tests) only check that it compiles.
    let _ = verdicts;
}
