//! The complete figure: a recorded run as one static document, drawn by the
//! same views as the live page, natively at build time (`mcp-lanes-figures`,
//! `mcp-lanes export --figure`), so that a reader sees and can step through
//! it before any WebAssembly loads, or with none at all.
//!
//! It is the page at the end of the run, every event drawn, plus:
//!
//! - on every element whose presence depends on the playback position,
//!   `data-show="FROM TO"`: the positions it is drawn at (both included);
//!   a message still on its way has `data-flight="SENT ARRIVED"`, a lock
//!   still held grows with the playhead from `data-grow` (its top);
//! - the whole run after the lanes ([`transcript`]): one `li` per
//!   position with its narration and, for each event that happens there,
//!   a `<details>` with the inspector's content for it (rules and their
//!   links included). Each `li` carries what the player shows at that
//!   position (`data-ms`, `data-clock`, `data-valuetext`, `data-playhead`)
//!   and the permalink's fragment (`data-link`).
//!
//! `www/figure.js` (no framework) plays it: it takes the transcript out of
//! the page and shows the elements of the current position. Without
//! scripts, and in print, the lanes show the whole run and the transcript
//! every step's narration and every message's content.

use maud::{html, Markup};

use super::inspector::{explained, heading, transcribed};
use super::narration::lines;
use super::page::page;
use super::Ui;
use crate::i18n::{t, tf};
use crate::model::{clock, kind_name};
use crate::state::{step_ms, Action, Selection, State, SPEEDS};
use mcp_lanes_core::sim::{MessageKind, Side};

/// What `figure.js` needs besides the markup: the player's words, the
/// length of a step at each speed and the keys (`state::keys::KEYS`), as a
/// JSON attribute.
fn words() -> String {
    serde_json::json!({
        "play": t("player.play"),
        "pause": t("player.pause"),
        "playKey": t("player.play_key"),
        "pauseKey": t("player.pause_key"),
        "copied": t("share.copied"),
        "noClipboard": t("share.no_clipboard"),
        "textToCopy": t("share.text_to_copy"),
        "skip": t("page.skip"),
        "handOverFailed": crate::state::HAND_OVER_FAILED,
        "langs": crate::i18n::languages().into_iter().map(|l| l.tag).collect::<Vec<_>>(),
        "stepMs": (0..SPEEDS.len()).map(step_ms).collect::<Vec<_>>(),
        "keys": crate::state::keys::KEYS
            .iter()
            .map(|(k, act)| (k.to_string(), serde_json::Value::from(*act)))
            .collect::<serde_json::Map<_, _>>(),
        "offControl": crate::state::keys::OFF_CONTROL,
    })
    .to_string()
}

/// `state` with `selection` in the inspector.
fn inspecting(state: &State, selection: Selection) -> State {
    let mut inspected = state.clone();
    inspected.update(Action::Inspect(Some(selection)));
    inspected
}

/// `state` moved to `pos` (and returned, for the template).
fn at_pos(state: &mut State, pos: usize) -> &State {
    state.update(Action::Seek(pos));
    state
}

/// One position of the run: what the player and narration show there,
/// and the events that happen there with their inspector content.
/// `explain`: each field with its explanation (the print view), else each
/// key only marked (`<i data-f>`, figure.js explains it on demand).
fn step(state: &State, pos: usize, explain: bool) -> Markup {
    let layout = &state.layout;
    let len = layout.len();
    let ms = state.time().unwrap_or(0);
    let clock_text = clock(ms);
    let (pos_text, len_text) = (pos.to_string(), len.to_string());
    let time = state.time();
    let events: Vec<(usize, usize)> = state
        .lanes
        .iter()
        .enumerate()
        .flat_map(|(n, lane)| {
            lane.timeline
                .events
                .iter()
                .filter(|e| time == Some(e.at_ms))
                .map(move |e| (n, e.index))
        })
        .collect();
    // The server's replies drawn at this position (a figure's
    // `mcp-lanes:reply` events): lane, label, kind.
    let replies: Vec<serde_json::Value> = events
        .iter()
        .filter_map(|(n, i)| {
            let m = state.lanes.get(*n)?.timeline.events.get(*i)?.message()?;
            (m.sender() == Some(Side::Server)
                && matches!(m.kind, MessageKind::Result | MessageKind::Error))
            .then(|| serde_json::json!([n, m.label, kind_name(m.kind)]))
        })
        .collect();
    html! {
        li id=(format!("step-{pos}")) data-pos=(pos)
            data-replies=[(!replies.is_empty()).then(|| serde_json::Value::from(replies).to_string())] data-ms=(ms) data-clock=(clock_text)
            data-valuetext=(tf("player.step_of", &[("pos", &pos_text), ("len", &len_text), ("time", &clock_text)]))
            data-playhead=(super::num(layout.playhead_y(pos)))
            data-link=(mcp_lanes_core::share::to_fragment(&state.share())) {
            div class="step-narration" {
                @for line in lines(state) { p { (line) } }
            }
            @for (lane, event) in events {
                @let inspected = inspecting(state, Selection { lane, event });
                @if let Some(e) = state.lanes.get(lane).and_then(|l| l.timeline.events.get(event)) {
                    details class="step-event" open id=(format!("event-{lane}-{event}")) data-event=(format!("{lane}:{event}")) {
                        summary { (heading(e)) }
                        @if explain { (explained(&inspected)) } @else { (transcribed(&inspected)) }
                    }
                }
            }
        }
    }
}

/// The whole run, position by position (see the module's comment).
pub fn transcript(state: &State) -> Markup {
    let mut at = state.clone();
    at.selected = None;
    let len = at.layout.len();
    html! {
        section class="transcript" data-testid="transcript" aria-labelledby="transcript-heading"
            data-words=(words()) data-len=(len) {
            h2 id="transcript-heading" { (t("figure.whole_run")) }
            ol class="steps" {
                @for pos in 0..=len {
                    (step(at_pos(&mut at, pos), pos, false))
                }
            }
        }
    }
}

/// The whole run for print, as the bundles draw it while the page prints
/// (`Ui::print`): every position's narration and every event's inspector
/// content, each field of a message with its explanation beneath it
/// (style.css shows it only in print).
pub fn print_run(state: &State) -> Markup {
    let mut at = state.clone();
    at.selected = None;
    let len = at.layout.len();
    html! {
        section class="transcript print-run" data-testid="print-run" aria-labelledby="print-heading" {
            h2 id="print-heading" { (t("figure.whole_run")) }
            ol class="steps" {
                @for pos in 0..=len {
                    (step(at_pos(&mut at, pos), pos, true))
                }
            }
        }
    }
}

/// The complete figure of `state`'s run, as `view::page::page` draws the
/// page (or a figure, per `ui.config`) at its end, with the whole run.
pub fn complete(state: &State, ui: &Ui) -> Markup {
    let transcript = transcript(state);
    let mut end = state.clone();
    end.update(Action::JumpToEnd);
    end.selected = None;
    page(
        &end,
        &Ui {
            transcript: Some(&transcript),
            ..*ui
        },
    )
}

/// The element a complete figure is drawn in: the page's root
/// (`app-root`), marked `data-static` (a bundle that renders the page
/// replaces it, `figure.js` plays it).
pub fn root(figure: Markup) -> String {
    html! { div class="app-root" data-static="" { (figure) } }.into_string()
}

/// The complete figure for a page or figure `config` (its scenario, or
/// the first one), in the installed language, run by the core's
/// simulator (natively: the build's prerender and `mcp-lanes export`).
#[cfg(not(target_arch = "wasm32"))]
pub fn of_config(config: &crate::config::Config) -> String {
    let state = State::load(
        config.scenario.as_deref(),
        Some(crate::runs::Simulator::CORE),
    );
    drawn(&state, config)
}

/// The complete figure of a scenario file: its set-ups run by the core's
/// simulator, drawn as a figure (`mcp-lanes export --figure`).
#[cfg(not(target_arch = "wasm32"))]
pub fn of_file(
    file: mcp_lanes_core::scenarios::file::ScenarioFile,
    config: &crate::config::Config,
) -> String {
    let mut state = State::load(None, Some(crate::runs::Simulator::CORE));
    state.open_file(std::rc::Rc::new(file));
    drawn(&state, config)
}

/// `state`'s complete figure in its root, as `config` shows it (light
/// theme, nothing copied).
#[cfg(not(target_arch = "wasm32"))]
fn drawn(state: &State, config: &crate::config::Config) -> String {
    let copied = super::Copied::default();
    let ui = Ui {
        config,
        dark: false,
        copied: &copied,
        transcript: None,
        print: None,
        islands: false,
        marked: false,
    };
    root(complete(state, &ui))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::view::testing::{discover, escaped, hostile_discover};
    use crate::view::Copied;

    fn draw(state: &State) -> String {
        let config = Config::from_url(|_| None, "");
        complete(
            state,
            &Ui {
                config: &config,
                dark: false,
                copied: &Copied::default(),
                transcript: None,
                print: None,
                islands: false,
                marked: false,
            },
        )
        .into_string()
    }

    #[test]
    fn every_event_is_drawn_with_the_positions_it_shows_at() {
        let state = discover();
        let html = draw(&state);
        let len = state.layout.len();
        let messages: usize = state
            .lanes
            .iter()
            .map(|l| {
                l.timeline
                    .events
                    .iter()
                    .filter(|e| e.message().is_some())
                    .count()
            })
            .sum();
        assert!(messages > 0);
        assert_eq!(html.matches("data-testid=\"message-").count(), messages);
        assert!(
            html.contains(&format!("data-show=\"1 {len}\"")),
            "the playhead"
        );
        assert!(html.contains("class=\"start-hint\" data-show=\"0 0\""));
        assert!(html.contains(&format!(
            "data-testid=\"outcome-0\" data-show=\"{len} {len}\""
        )));
        for pos in 0..=len {
            assert!(
                html.contains(&format!("<li id=\"step-{pos}\" data-pos=\"{pos}\"")),
                "{pos}"
            );
        }
        assert_eq!(
            html.matches("<details class=\"step-event\"").count(),
            state
                .lanes
                .iter()
                .map(|l| l.timeline.events.len())
                .sum::<usize>()
        );
        assert!(html.contains("data-words=\"{"));
    }

    #[test]
    fn the_print_view_explains_every_field_of_every_message() {
        let state = discover();
        let print = print_run(&state).into_string();
        let events: usize = state.lanes.iter().map(|l| l.timeline.events.len()).sum();
        assert_eq!(
            print.matches("<details class=\"step-event\"").count(),
            events
        );
        assert!(
            print.starts_with("<section class=\"transcript print-run\" data-testid=\"print-run\"")
        );
        assert!(print.contains("class=\"fk\" tabindex=\"0\" data-path=\"result.ttlMs\""));
        assert!(!print.contains("<i"));
        assert!(!print.contains("fx-link"), "no field links in print");
        // The drawn figure's transcript marks keys only (figure.js explains them).
        let drawn = transcript(&state).into_string();
        assert!(drawn.contains("<i>&quot;ttlMs&quot;</i>"));
        assert!(!drawn.contains("class=\"fk\" tabindex"));
    }

    #[test]
    fn hostile_labels_stay_text_in_the_complete_figure() {
        escaped(&draw(&hostile_discover()));
    }
}
