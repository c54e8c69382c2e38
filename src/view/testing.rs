//! What the views' tests render: the lite page's state for a recorded run
//! (`www/timelines/<id>.json`, kept as the lite bundle's fetch keeps it),
//! and a state whose strings are hostile.

use std::rc::Rc;

use mcp_lanes_core::sim::EventKind;

use crate::model::Shared;
use crate::runs;
use crate::state::State;

/// A label that would run script if it were markup.
pub const HOSTILE: &str = "<img src=x onerror=alert(1)> \"q\" 'a' &";

/// The same, escaped as text (maud escapes `<`, `>`, `&` and `"`).
pub const HOSTILE_ESCAPED: &str = "&lt;img src=x onerror=alert(1)&gt; &quot;q&quot; 'a' &amp;";

fn recorded(id: &str) -> &'static str {
    match id {
        "elicitation-unchecked" => include_str!("../../www/timelines/elicitation-unchecked.json"),
        "http-header-mismatch" => include_str!("../../www/timelines/http-header-mismatch.json"),
        "era-probe-http" => include_str!("../../www/timelines/era-probe-http.json"),
        _ => "",
    }
}

/// The lite bundle's state (no simulator) for one of the recorded runs
/// above.
pub fn lite(id: &str) -> State {
    assert!(runs::keep(id, recorded(id)), "recorded runs of {id}");
    State::load(Some(id), None)
}

/// `state` with every label of lane 0 (set-up, peers, messages, wire,
/// headers) replaced by [`HOSTILE`].
pub fn hostile(mut state: State) -> State {
    let mut lanes = (*state.lanes).clone();
    if let Some(lane) = lanes.first_mut() {
        let mut timeline = (*lane.timeline).clone();
        timeline.label = HOSTILE.to_string();
        timeline.client_label = HOSTILE.to_string();
        timeline.server_label = HOSTILE.to_string();
        for event in &mut timeline.events {
            if let EventKind::Message(m) = &mut event.kind {
                m.label = HOSTILE.to_string();
                m.wire = HOSTILE.to_string();
                m.revision = HOSTILE.to_string();
                if let Some(http) = &mut m.http {
                    http.headers = vec![(HOSTILE.to_string(), HOSTILE.to_string())];
                }
            }
        }
        lane.timeline = Rc::new(timeline);
    }
    state.lanes = Shared::new(lanes);
    state
}
