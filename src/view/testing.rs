//! What the views' tests render: the lite page's state for a recorded run
//! (`www/timelines/<id>.json`, kept as the lite bundle's fetch keeps it),
//! with or without the English catalog installed (as the page does before
//! its first render), and states whose strings are hostile.

use std::rc::Rc;

use mcp_lanes_core::sim::EventKind;

use crate::i18n;
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
                m.json = serde_json::from_str(&m.wire).ok();
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

/// The lite bundle's state for scenario `id`, whose recorded runs are
/// `text`, with the English catalog installed.
pub fn english(id: &str, text: &str) -> State {
    i18n::install("en", include_str!("../../www/i18n/en.json"), None);
    assert!(runs::keep(id, text), "the recorded runs of {id} read");
    State::load(Some(id), None)
}

/// `discover`, recorded, in English.
pub fn discover() -> State {
    english(
        "discover",
        include_str!("../../www/timelines/discover.json"),
    )
}

/// `discover` in English with its lane and first message labelled
/// [`HOSTILE`].
pub fn hostile_discover() -> State {
    let json = serde_json::to_string(HOSTILE).unwrap_or_default();
    let inner = &json[1..json.len() - 1];
    let text = include_str!("../../www/timelines/discover.json")
        .replace("plain client discovers deploy-console", inner)
        .replace(
            "\"label\":\"server/discover\"",
            &format!("\"label\":{json}"),
        );
    assert!(text.contains("onerror"));
    english("discover", &text)
}

/// Asserts that `html` has [`HOSTILE`] only as escaped text.
pub fn escaped(html: &str) {
    assert!(!html.contains("<img"), "markup from a label: {html}");
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{html}"
    );
    assert!(!html.contains("\"q\""), "an unescaped quote: {html}");
}
