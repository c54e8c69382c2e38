//! What the narration says at the playhead, and the narration box as
//! markup text.

use crate::i18n::{self, tf};
use crate::state::State;
use maud::{html, Markup};
use mcp_lanes_core::sim::{Side, Timeline};

/// What the narration says at the playhead: each lane's notes for the
/// events at that virtual time, prefixed by the lane label.
pub fn lines(state: &State) -> Vec<String> {
    let Some(t) = state.time() else {
        return vec![i18n::t("narration.ready")];
    };
    let mut lines: Vec<String> = state
        .lanes
        .iter()
        .filter_map(|lane| {
            let notes: Vec<String> = lane
                .timeline
                .events
                .iter()
                .filter(|e| e.at_ms == t)
                // A scenario author's narration first, then the core's note.
                .flat_map(|e| e.narration.iter().cloned().chain([i18n::event_note(e)]))
                .collect();
            let said = if notes.is_empty() {
                // Nothing new happens: say what arrives.
                arrivals(&lane.timeline, t)
            } else {
                notes.join(&i18n::get("notes.join").unwrap_or_else(|| " ".into()))
            };
            (!said.is_empty()).then(|| {
                tf(
                    "narration.line",
                    &[
                        ("lane", &i18n::setup_label(&lane.timeline.label)),
                        ("text", &said),
                    ],
                )
            })
        })
        .collect();
    if state.at_end() {
        lines.push(i18n::t("narration.end"));
    }
    lines
}

/// "The result arrives at the client.": the messages of a lane delivered at `t`.
pub fn arrivals(timeline: &Timeline, t: u64) -> String {
    let mut out = String::new();
    // (A message whose sender is not known arrives nowhere the page knows.)
    for m in timeline.events.iter().filter_map(|e| e.message()) {
        if m.delivered_at_ms == Some(t) && m.sender().is_some() {
            if !out.is_empty() {
                out.push(' ');
            }
            out += &if m.is_mcp() {
                tf(
                    if m.from.peer() == Side::Client {
                        "narration.arrives_client"
                    } else {
                        "narration.arrives_server"
                    },
                    &[("message", &m.label)],
                )
            } else {
                tf(
                    "narration.arrives_actor",
                    &[
                        ("message", &m.label),
                        ("actor", &crate::model::columns::actor_name(m.ends().1)),
                    ],
                )
            };
        }
    }
    out
}

/// The narration box: [`lines`] in a polite live region.
pub fn narration(state: &State) -> Markup {
    html! {
        div class="narration" data-testid="narration" aria-live="polite" aria-atomic="true" {
            @for line in lines(state) {
                p { (line) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Action;
    use crate::view::testing::{discover, escaped, hostile_discover};

    #[test]
    fn before_the_first_step_the_narration_is_ready() {
        let state = discover();
        assert_eq!(lines(&state), vec![i18n::t("narration.ready")]);
        let html = narration(&state).into_string();
        assert!(html.starts_with(
            "<div class=\"narration\" data-testid=\"narration\" aria-live=\"polite\" aria-atomic=\"true\"><p>"
        ));
    }

    #[test]
    fn each_step_says_the_lanes_notes_and_the_end_says_so() {
        let mut state = discover();
        state.update(Action::StepForward);
        let said = lines(&state);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("server/discover"), "{said:?}");
        state.update(Action::JumpToEnd);
        assert_eq!(lines(&state).last(), Some(&i18n::t("narration.end")));
    }

    #[test]
    fn arrivals_name_the_delivered_messages() {
        let state = discover();
        let said = arrivals(&state.lanes[0].timeline, 20);
        assert!(said.contains("server/discover"), "{said}");
        assert_eq!(arrivals(&state.lanes[0].timeline, 1), "");
    }

    #[test]
    fn labels_are_text() {
        let mut state = hostile_discover();
        state.update(Action::StepForward);
        escaped(&narration(&state).into_string());
    }
}
