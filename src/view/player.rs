//! Playback controls as markup text: restart, step back, play/pause, step forward, jump to end, a scrubber
//! over the playback positions, the speed and the virtual clock.

use crate::i18n::{t, tf};
use crate::model::clock;
use crate::state::{State, SPEED_LABELS};
use maud::{html, Markup};

/// Restart (the icons are 16x16 paths).
pub const ICON_RESTART: &str = "M2 2h2v12H2zM14 2v12L5 8z";
/// Step back.
pub const ICON_BACK: &str = "M13 2v12L4 8zM2 2h2v12H2z";
/// Play.
pub const ICON_PLAY: &str = "M4 2l10 6-10 6z";
/// Pause.
pub const ICON_PAUSE: &str = "M3 2h4v12H3zM9 2h4v12H9z";
/// Step forward.
pub const ICON_FORWARD: &str = "M3 2v12l9-6zM12 2h2v12h-2z";
/// Jump to the end.
pub const ICON_END: &str = "M2 2v12l9-6zM12 2h2v12h-2z";

/// What the player's `data-state` says: `start`, `playing`, `paused` or
/// `end`.
pub fn play_state(pos: usize, len: usize, playing: bool) -> &'static str {
    if pos >= len && pos > 0 {
        "end"
    } else if playing {
        "playing"
    } else if pos == 0 {
        "start"
    } else {
        "paused"
    }
}

fn icon(path: &str) -> Markup {
    html! {
        svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" {
            path d=(path) {}
        }
    }
}

/// One of the buttons around Play: test id, catalog keys of its label and
/// title, its `data-act`, its icon.
fn step_button(id: &str, label: &str, title: &str, act: &str, path: &str) -> Markup {
    html! {
        button type="button" data-testid=(id) aria-label=(t(label)) title=(t(title)) data-act=(act) {
            (icon(path))
        }
    }
}

/// The player for the state's playhead, speed and playback.
pub fn player(state: &State) -> Markup {
    let (pos, len, playing) = (state.pos, state.layout.len(), state.playing);
    let time_ms = state.time().unwrap_or(0);
    let clock_text = clock(time_ms);
    let (play_label, play_icon, act) = if playing {
        (t("player.pause_key"), ICON_PAUSE, "pause")
    } else {
        (t("player.play_key"), ICON_PLAY, "play")
    };
    let (pos_text, len_text) = (pos.to_string(), len.to_string());
    html! {
        section class="player" data-testid="player" data-state=(play_state(pos, len, playing)) aria-label=(t("player.region")) {
            div class="player-buttons" {
                (step_button("restart", "player.restart", "player.restart", "restart", ICON_RESTART))
                (step_button("step-back", "player.back", "player.back_title", "back", ICON_BACK))
                button type="button" class="primary" id="play" data-testid="play" aria-label=(play_label) title=(play_label)
                    disabled[len == 0] data-act=(act) {
                    (icon(play_icon))
                    span class="button-text" aria-hidden="true" { (if playing { t("player.pause") } else { t("player.play") }) }
                }
                (step_button("step-forward", "player.forward", "player.forward_title", "forward", ICON_FORWARD))
                (step_button("jump-end", "player.end", "player.end", "end", ICON_END))
            }
            div class="player-scrub" {
                label for="scrubber" class="visually-hidden" { (t("player.position")) }
                input id="scrubber" type="range" data-testid="scrubber"
                    min="0" max=(len_text) step="1"
                    value=(pos_text)
                    aria-valuetext=(tf("player.step_of", &[("pos", &pos_text), ("len", &len_text), ("time", &clock_text)]))
                    data-act="seek";
                span class="step-count" data-testid="step-count" { (pos_text) "/" (len_text) }
            }
            div class="player-meta" {
                label for="speed" { (t("player.speed")) }
                select id="speed" data-testid="speed" data-act="speed" {
                    @for (i, s) in SPEED_LABELS.iter().enumerate() {
                        option value=(i) selected[i == state.speed] { (s) }
                    }
                }
                span class="clock-label" { (t("player.virtual_time")) }
                span class="clock" data-testid="clock" data-ms=(time_ms) { (clock_text) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, DEFAULT_SPEED};
    use crate::view::testing::discover;

    #[test]
    fn the_player_at_the_start_offers_play() {
        let state = discover();
        let len = state.layout.len();
        let html = player(&state).into_string();
        assert!(html
            .starts_with("<section class=\"player\" data-testid=\"player\" data-state=\"start\""));
        for (id, act) in [
            ("restart", "restart"),
            ("step-back", "back"),
            ("play", "play"),
            ("step-forward", "forward"),
            ("jump-end", "end"),
        ] {
            let at = html
                .find(&format!("data-testid=\"{id}\""))
                .unwrap_or_else(|| panic!("{id} in {html}"));
            let tag_end = html[at..].find('>').map_or(html.len(), |e| at + e);
            assert!(
                html[at..tag_end].contains(&format!("data-act=\"{act}\"")),
                "{id}"
            );
        }
        assert!(html.contains("id=\"play\""));
        assert!(!html.contains("disabled"), "{html}");
        assert!(html.contains(&format!(
            "<input id=\"scrubber\" type=\"range\" data-testid=\"scrubber\" min=\"0\" max=\"{len}\" step=\"1\" value=\"0\""
        )));
        assert!(html.contains(&format!(
            "<span class=\"step-count\" data-testid=\"step-count\">0/{len}</span>"
        )));
        assert!(html.contains("data-act=\"seek\""));
        assert!(html.contains("<select id=\"speed\" data-testid=\"speed\" data-act=\"speed\">"));
        assert!(html.contains(&format!("<option value=\"{DEFAULT_SPEED}\" selected>")));
        assert_eq!(html.matches("<option").count(), SPEED_LABELS.len());
        assert!(html.contains("data-testid=\"clock\" data-ms=\"0\">"));
        assert_eq!(html.matches("<svg class=\"icon\"").count(), 5);
    }

    #[test]
    fn playing_offers_pause_and_the_end_says_end() {
        let mut state = discover();
        state.update(Action::Play);
        let html = player(&state).into_string();
        assert!(html.contains("data-state=\"playing\""));
        assert!(html.contains("data-act=\"pause\""));
        assert!(html.contains(ICON_PAUSE));
        state.update(Action::JumpToEnd);
        let len = state.layout.len();
        let html = player(&state).into_string();
        assert!(html.contains("data-state=\"end\""));
        assert!(html.contains(&format!("value=\"{len}\"")));
        let ms = state.time().unwrap_or_default();
        assert!(html.contains(&format!("data-ms=\"{ms}\">{}</span>", clock(ms))));
    }

    #[test]
    fn the_states_of_the_player() {
        assert_eq!(play_state(0, 4, false), "start");
        assert_eq!(play_state(2, 4, true), "playing");
        assert_eq!(play_state(2, 4, false), "paused");
        assert_eq!(play_state(4, 4, true), "end");
        assert_eq!(play_state(0, 0, false), "start");
    }
}
