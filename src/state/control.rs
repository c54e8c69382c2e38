//! The control messages a page may send a figure (README, "Embedding in a
//! course page"): `{type: "mcp-lanes:control", action: "play" | "pause" |
//! "step" | "restart"}` or `{…, action: "seek", step: N}`, as actions.

use serde_json::Value;

use super::Action;

impl Action {
    /// The action a control message asks for, if it has one of the
    /// documented shapes.
    pub fn from_control(message: &Value) -> Option<Action> {
        let m = message.as_object()?;
        if m.get("type")? != "mcp-lanes:control"
            || m.keys()
                .any(|k| !matches!(k.as_str(), "type" | "action" | "step"))
        {
            return None;
        }
        Some(match (m.get("action")?.as_str()?, m.get("step")) {
            ("play", None) => Action::Play,
            ("pause", None) => Action::Pause,
            ("step", None) => Action::StepForward,
            ("restart", None) => Action::Restart,
            ("seek", Some(step)) => Action::Seek(step.as_u64()?.min(1 << 30) as usize),
            _ => return None,
        })
    }
}
