//! One set-up as markup text: its header (label, client, transport,
//! server), its "Settings" (the full bundle's island host, or a stand-in
//! that hands over), what is held, the sequence diagram ([`diagram`], with
//! a check's verdict marks), and at the end what leaked.

use super::classes;
use super::diagram::{diagram, Diagram};
use crate::i18n::{self, t, tf};
use crate::model::columns::actor_name;
use crate::model::{held_locks, Layout};
use crate::state::{step_ms, Lane, State};
use maud::{html, Markup};
use mcp_lanes_core::sim::Actor;

/// A lane's "Settings": with `islands` its body hosts the full bundle's
/// settings island (keyed by the lane's `key`, so that a lane keeps its
/// island when lanes move); else opening it hands the page over to the
/// full bundle (`data-act="handover"`), which opens it with the knobs in it.
pub fn settings(index: usize, key: u32, islands: bool) -> Markup {
    html! {
        @if islands {
            details class="settings" data-testid=(format!("settings-{index}")) {
                summary { (t("settings.title")) }
                div class="settings-body" data-island=(format!("settings-{index}")) data-key=(format!("settings-{key}")) {}
            }
        } @else {
            details class="settings" data-testid=(format!("settings-{index}")) data-act="handover" {
                summary data-handover="" { (t("settings.title")) }
                div class="settings-body" { p class="export-note" { (t("settings.loading")) } }
            }
        }
    }
}

/// The lock icon before "holds ..." (drawn, no text).
fn lock_icon() -> Markup {
    html! {
        svg class="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false" {
            rect x="3" y="7" width="10" height="8" rx="1" {}
            path d="M5 7V5a3 3 0 0 1 6 0v2" class="icon-stroke" {}
        }
    }
}

fn head(index: usize, lane: &Lane, islands: bool) -> Markup {
    let n = index;
    let timeline = &lane.timeline;
    let label = i18n::setup_label(&timeline.label);
    html! {
        header class="lane-head" {
            div class="lane-title-row" {
                h3 id=(format!("lane-title-{n}")) class="lane-title" { (label) }
                @if lane.modified() {
                    span class="badge" data-testid=(format!("modified-{n}")) { (t("lane.changed")) }
                }
                @if lane.added {
                    button type="button" class="small" data-testid=(format!("remove-{n}"))
                        aria-label=(tf("lane.remove_label", &[("lane", &label)]))
                        data-act="remove-lane" data-arg=(n) { (t("lane.remove")) }
                }
            }
            p class="peers" {
                span class="peer" { span class="role" { (t("side.client")) } (i18n::peer_label(&timeline.client_label)) }
                span class="peer" {
                    span class="role" { (t("lane.via")) }
                    span class="transport" data-testid=(format!("transport-name-{n}")) { (timeline.transport.name()) }
                }
                span class="peer" { span class="role" { (t("side.server")) } (i18n::peer_label(&timeline.server_label)) }
                // A gateway or an authorization server beside the two MCP sides.
                @for actor in timeline.actors.iter().filter(|a| !matches!(a, Actor::Client | Actor::Server)) {
                    span class="peer" data-testid=(format!("actor-{n}-{}", actor.name())) { span class="role" { (t("lane.also")) } (actor_name(*actor)) }
                }
            }
            @if !lane.outside {
                (settings(n, lane.key, islands))
            }
        }
    }
}

/// What lane `n` holds, in the complete figure: one line per stretch of
/// positions holding the same locks (`data-show`).
fn held_spans(state: &State, n: usize) -> Markup {
    let Some(lane) = state.lanes.get(n) else {
        return html! {};
    };
    let layout: &Layout = &state.layout;
    let mut spans: Vec<(usize, usize, Vec<String>)> = Vec::new();
    for pos in 1..=layout.len() {
        let held = held_locks(&lane.timeline, layout.time_at(pos));
        match spans.last_mut() {
            Some((_, to, last)) if *last == held && *to + 1 == pos => *to = pos,
            _ => spans.push((pos, pos, held)),
        }
    }
    html! {
        @for (from, to, held) in spans.iter().filter(|(_, _, h)| !h.is_empty()) {
            p class="held-lock" data-testid=(format!("held-lock-{n}")) data-show=(format!("{from} {to}")) {
                (lock_icon())
                (tf("lane.lock_held", &[("locks", &held.join(", "))]))
            }
        }
    }
}

/// What a step of playback changes in a lane: what it holds, its diagram
/// and, at the end, what leaked (drawn whole and marked, `complete`, for
/// the drawn figure and the runtime, which show them by position).
pub struct Moving {
    /// `div.lane-status`.
    pub status: Markup,
    /// `svg.lane-svg`.
    pub diagram: Markup,
    /// `footer.lane-end`, or nothing before the end.
    pub end: Markup,
}

/// The parts of lane `index` that a step changes (`None`: no such lane);
/// `complete` as for [`lane`].
pub fn moving(state: &State, index: usize, complete: bool) -> Option<Moving> {
    let lane = state.lanes.get(index)?;
    let n = index;
    let timeline = &lane.timeline;
    let layout: &Layout = &state.layout;
    let time = state.time();
    let at_end = state.at_end() && state.pos > 0;
    let held = held_locks(timeline, time);
    let leaked = timeline.summary.leaked_locks;
    let drawn = Diagram {
        index: n,
        row: n,
        hint: None,
        timeline,
        layout,
        // Drawn whole, every position-dependent element marked: as at the end.
        pos: if complete { layout.len() } else { state.pos },
        step_ms: step_ms(state.speed),
        selected: state.selected.filter(|s| s.lane == n).map(|s| s.event),
        complete,
        verdicts: &lane.verdicts,
    };
    Some(Moving {
        status: html! {
            div class="lane-status" aria-live="off" {
                @if complete {
                    (held_spans(state, n))
                } @else if !held.is_empty() {
                    p class="held-lock" data-testid=(format!("held-lock-{n}")) {
                        (lock_icon())
                        (tf("lane.lock_held", &[("locks", &held.join(", "))]))
                    }
                }
            }
        },
        diagram: diagram(&drawn),
        end: html! {
            @if at_end || complete {
                footer class="lane-end" data-testid=(format!("outcome-{n}"))
                    data-show=[complete.then(|| format!("{0} {0}", layout.len()))] {
                    p class=(classes(&[Some("leaked"), (leaked > 0).then_some("has-leak")]))
                        data-testid=(format!("leaked-locks-{n}")) data-count=(leaked) {
                        (tf("lane.leaked", &[("count", &leaked.to_string())]))
                    }
                    p class="outcome" { (i18n::note_text(&timeline.summary.outcome, timeline.summary.outcome_msg.as_ref())) }
                }
            }
        },
    })
}

/// Lane `index` of the page (nothing when there is no such lane);
/// `complete`: as the complete figure draws it (`view::figure`), with
/// what depends on the playback position marked `data-show`; `islands`:
/// the full bundle's (see [`settings`]).
pub fn lane(state: &State, index: usize, complete: bool, islands: bool) -> Markup {
    let (Some(lane), Some(parts)) = (state.lanes.get(index), moving(state, index, complete)) else {
        return html! {};
    };
    let n = index;
    html! {
        article class=(classes(&[
            Some("lane"),
            lane.added.then_some("added"),
            // More than two actors: two grid tracks wide where they fit.
            crate::model::columns::Columns::wide(&lane.timeline).then_some("wide"),
        ]))
            data-testid=(format!("lane-{n}")) aria-labelledby=(format!("lane-title-{n}")) {
            (head(n, lane, islands))
            (parts.status)
            (parts.diagram)
            (parts.end)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, Selection};
    use crate::view::testing::{hostile, lite, HOSTILE, HOSTILE_ESCAPED};

    fn at(mut state: State, actions: impl IntoIterator<Item = Action>) -> State {
        for action in actions {
            state.update(action);
        }
        state
    }

    #[test]
    fn a_lane_at_the_start_has_its_head_settings_and_diagram() {
        let state = lite("elicitation-unchecked");
        let text = lane(&state, 1, false, false).into_string();
        assert!(text.starts_with(
            "<article class=\"lane\" data-testid=\"lane-1\" aria-labelledby=\"lane-title-1\">"
        ));
        assert!(text.contains("<h3 id=\"lane-title-1\" class=\"lane-title\">"));
        assert!(text.contains("data-testid=\"transport-name-1\">stdio</span>"));
        assert!(text.contains(
            "<details class=\"settings\" data-testid=\"settings-1\" data-act=\"handover\"><summary data-handover=\"\">"
        ));
        assert!(text.contains("<svg class=\"lane-svg\""));
        assert!(text.contains("class=\"start-hint\""));
        for absent in [
            "outcome-1",
            "held-lock-1",
            "modified-1",
            "remove-1",
            "message-1-",
        ] {
            assert!(!text.contains(absent), "{absent} at the start");
        }
        assert!(text.ends_with("</article>"));
    }

    #[test]
    fn a_held_lock_shows_while_it_is_held_and_a_leak_at_the_end() {
        let state = lite("elicitation-unchecked");
        let len = state.layout.len();
        let mut held = 0;
        for pos in 1..=len {
            let state = at(state.clone(), [Action::Seek(pos)]);
            let text = lane(&state, 1, false, false).into_string();
            let holds = !held_locks(&state.lanes[1].timeline, state.time()).is_empty();
            assert_eq!(
                text.contains("data-testid=\"held-lock-1\""),
                holds,
                "at {pos}"
            );
            held += usize::from(holds);
            assert_eq!(text.contains("data-testid=\"outcome-1\""), pos >= len);
        }
        assert!(held > 0, "the run holds a lock for a while");
        let end = at(state, [Action::JumpToEnd]);
        let text = lane(&end, 1, false, false).into_string();
        assert!(text.contains(
            "<p class=\"leaked has-leak\" data-testid=\"leaked-locks-1\" data-count=\"1\">"
        ));
        assert!(text.contains("<p class=\"outcome\">"));
        let other = lane(&end, 0, false, false).into_string();
        assert!(
            other.contains("<p class=\"leaked\" data-testid=\"leaked-locks-0\" data-count=\"0\">")
        );
    }

    #[test]
    fn the_selected_event_is_drawn_selected_and_messages_inspect() {
        let state = at(
            lite("elicitation-unchecked"),
            [
                Action::JumpToEnd,
                Action::Inspect(Some(Selection { lane: 0, event: 8 })),
            ],
        );
        let text = lane(&state, 0, false, false).into_string();
        assert!(text.contains("data-testid=\"message-0-8\" data-act=\"inspect\" data-arg=\"0:8\""));
        assert!(text.contains("violation selected\""), "{text}");
        let other = lane(&state, 1, false, false).into_string();
        assert!(!other.contains("selected\""));
    }

    #[test]
    fn an_added_lane_can_be_removed_and_an_outside_one_has_no_settings() {
        let mut state = lite("elicitation-unchecked");
        let mut lanes = (*state.lanes).clone();
        lanes[0].added = true;
        lanes[0].changed = true;
        lanes[1].outside = true;
        state.lanes = crate::model::Shared::new(lanes);
        let text = lane(&state, 0, false, false).into_string();
        assert!(text.starts_with("<article class=\"lane added\" data-testid=\"lane-0\""));
        assert!(text.contains("<span class=\"badge\" data-testid=\"modified-0\">"));
        assert!(text.contains(
            "<button type=\"button\" class=\"small\" data-testid=\"remove-0\" aria-label="
        ));
        assert!(text.contains("data-act=\"remove-lane\" data-arg=\"0\">"));
        assert!(!lane(&state, 1, false, false)
            .into_string()
            .contains("settings-1"));
        assert_eq!(lane(&state, 9, false, false).into_string(), "");
    }

    #[test]
    fn hostile_labels_come_out_as_text() {
        let state = hostile(at(lite("elicitation-unchecked"), [Action::JumpToEnd]));
        let text = lane(&state, 0, false, false).into_string();
        assert!(!text.contains(HOSTILE));
        assert!(!text.contains("<img"));
        assert!(text.contains(HOSTILE_ESCAPED), "{text}");
    }
}
