//! Native timings of the core: every scenario, the playback stress load and
//! the editor's send path for 1 KB and 64 KB requests. Budgets are measured
//! here, never asserted. `cargo bench -p mcp-lanes-core` for the figures;
//! under `cargo test` it runs each case once as a smoke test.

use std::time::Instant;

use mcp_lanes_core::editor::{self, EditorSession};
use mcp_lanes_core::scenarios::{self, CATALOG};
use mcp_lanes_core::server::presets;
use mcp_lanes_core::sim;
use mcp_lanes_core::transport::TransportKind;

fn measure(name: &str, runs: usize, mut f: impl FnMut()) {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name:<40} runs {runs:>5}  p50 {:>9.1} µs  p99 {:>9.1} µs",
        pick(0.5),
        pick(0.99)
    );
}

/// A tools/call request padded to about `bytes` bytes.
fn request_of(bytes: usize) -> String {
    let pad = "x".repeat(bytes.saturating_sub(300));
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"list_incidents","arguments":{{"note":"{pad}"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
    )
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let runs = |n: usize| if full { n } else { 1 };
    let all = format!("all {} scenarios", CATALOG.len());
    measure(&all, runs(50), || {
        for info in CATALOG {
            let _ = scenarios::run(info.id);
        }
    });
    let load = scenarios::stress(3, 200);
    measure("stress: 3 lanes x 200 messages", runs(50), || {
        for setup in &load {
            let _ = sim::run(setup);
        }
    });
    for (label, bytes) in [
        ("editor lint+send, 1 KB", 1024),
        ("editor lint+send, 64 KB", 64 * 1024),
    ] {
        let text = request_of(bytes);
        let mut session = EditorSession::new(presets::deploy_console(), TransportKind::Http);
        measure(label, runs(500), || {
            let _ = editor::lint(&text);
            let _ = session.send(&text, None);
        });
    }
}
