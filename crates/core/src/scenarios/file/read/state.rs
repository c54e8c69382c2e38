//! The state a file's tool keeps between calls: `rateLimit`, `returns`,
//! `uses` and `quarantine` (`server/tool_state.rs` runs them).

use super::*;
use crate::server::{Quarantine, QuarantineScope, RateLimit, Returns, ToolState, Uses};

/// The most calls a rate limit may allow per window.
const MAX_CALLS: u64 = 10_000;

/// A whole number from `min` to `max` under `key`, which must be there.
fn required_uint(e: &mut Errors, f: &Fields, key: &str, min: u64, max: u64) -> Option<u64> {
    let Some(v) = f.get(key) else {
        let what = note!("file.what.number", "a whole number");
        missing(e, f, key, &what);
        return None;
    };
    integer(e, &f.path(key), v, min, max)
}

/// The four state keys of the tool object `f`; `result` is the tool's
/// result text (a tool that returns a handle must name it there).
pub(super) fn tool_state(e: &mut Errors, f: &Fields, result: Option<&str>) -> ToolState {
    let mut state = ToolState::default();
    if let Some(v) = f.get("rateLimit") {
        let what = note!(
            "file.what.rate_limit",
            "a rate limit ({{\"calls\": 2, \"windowMs\": 60000}})"
        );
        if let Some(g) = fields(e, &f.path("rateLimit"), v, &what, &["calls", "windowMs"]) {
            let calls = required_uint(e, &g, "calls", 1, MAX_CALLS);
            let window = required_uint(e, &g, "windowMs", 1, MAX_MS);
            if let (Some(calls), Some(window_ms)) = (calls, window) {
                state.rate_limit = Some(RateLimit {
                    calls: calls as u32,
                    window_ms,
                });
            }
        }
    }
    if let Some(v) = f.get("returns") {
        let what = note!(
            "file.what.returns",
            "a handle the tool returns ({{\"handle\": \"job\", \"runsMs\": 3000}})"
        );
        if let Some(g) = fields(e, &f.path("returns"), v, &what, &["handle", "runsMs"]) {
            let handle = id(e, &g, "handle", true);
            let runs_ms = uint(e, &g, "runsMs", MAX_MS);
            if !result.is_some_and(|r| r.contains("{handle}")) {
                e.at(
                    &f.path("result"),
                    note!(
                        "file.returns_needs_placeholder",
                        "a tool that returns a handle names it in its result: put {{handle}} in result"
                    ),
                );
            }
            if let Some(handle) = handle {
                state.returns = Some(Returns { handle, runs_ms });
            }
        }
    }
    if let Some(v) = f.get("uses") {
        let what = note!(
            "file.what.uses",
            "a handle the call passes back ({{\"handle\": \"job\", \"argument\": \"job\"}})"
        );
        let keys = &["handle", "argument", "whileRunning"];
        if let Some(g) = fields(e, &f.path("uses"), v, &what, keys) {
            let handle = id(e, &g, "handle", true);
            let argument = name(e, &g, "argument", true);
            let while_running = text(e, &g, "whileRunning", false);
            if let (Some(handle), Some(argument)) = (handle, argument) {
                state.uses = Some(Uses {
                    handle,
                    argument,
                    while_running,
                });
            }
        }
    }
    if let Some(v) = f.get("quarantine") {
        let what = note!(
            "file.what.quarantine",
            "a quarantine ({{\"when\": {{…}}, \"violation\": \"…\", \"scope\": \"tool\"}})"
        );
        let keys = &["when", "violation", "scope"];
        if let Some(g) = fields(e, &f.path("quarantine"), v, &what, keys) {
            let args = note!(
                "file.what.violation_when",
                "the arguments that make a call a violation"
            );
            let when = object(e, &g, "when", &args).unwrap_or_else(|| Value::Object(Map::new()));
            let violation = text(e, &g, "violation", true);
            let scope = choice(
                e,
                &g,
                "scope",
                &[
                    ("tool", QuarantineScope::Tool),
                    ("all", QuarantineScope::All),
                ],
            )
            .unwrap_or(QuarantineScope::Tool);
            if let Some(violation) = violation {
                state.quarantine = Some(Quarantine {
                    when,
                    violation,
                    scope,
                });
            }
        }
    }
    state
}
