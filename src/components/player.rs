//! Playback controls: restart, step back, play/pause, step forward, jump to
//! end, a scrubber over the playback positions, the speed and the virtual
//! clock.

use crate::i18n::{t, tf};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::model::clock;
use crate::state::SPEED_LABELS;
use crate::view::player::{
    play_state, ICON_BACK, ICON_END, ICON_FORWARD, ICON_PAUSE, ICON_PLAY, ICON_RESTART,
};

#[derive(PartialEq, Properties)]
pub struct PlayerProps {
    /// Current position (0 = start).
    pub pos: usize,
    /// Last position.
    pub len: usize,
    /// Virtual time at the position.
    pub time: Option<u64>,
    pub playing: bool,
    /// Index into the speeds.
    pub speed: usize,
    pub onplay: Callback<()>,
    pub onpause: Callback<()>,
    /// Steps by +1 or -1.
    pub onstep: Callback<i32>,
    pub onseek: Callback<usize>,
    pub onrestart: Callback<()>,
    pub onend: Callback<()>,
    pub onspeed: Callback<usize>,
}

fn icon(path: &'static str) -> Html {
    html! {
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d={path} />
        </svg>
    }
}

#[component]
pub fn Player(props: &PlayerProps) -> Html {
    let state = play_state(props.pos, props.len, props.playing);
    let time_ms = props.time.unwrap_or(0);
    let clock_text = clock(time_ms);

    let onplay_pause = {
        let (onplay, onpause, playing) =
            (props.onplay.clone(), props.onpause.clone(), props.playing);
        Callback::from(move |_: MouseEvent| {
            if playing {
                onpause.emit(())
            } else {
                onplay.emit(())
            }
        })
    };
    let onseek = props.onseek.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value().parse::<usize>().unwrap_or(0)
    });
    let onspeed = props.onspeed.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        select
            .value()
            .parse::<usize>()
            .unwrap_or(crate::state::DEFAULT_SPEED)
    });
    let (play_label, play_icon) = if props.playing {
        (t("player.pause_key"), ICON_PAUSE)
    } else {
        (t("player.play_key"), ICON_PLAY)
    };

    html! {
        <section class="player" data-testid="player" data-state={state} aria-label={t("player.region")}>
            <div class="player-buttons">
                <button type="button" data-testid="restart" aria-label={t("player.restart")} title={t("player.restart")}
                    onclick={props.onrestart.reform(|_: MouseEvent| ())}>
                    { icon(ICON_RESTART) }
                </button>
                <button type="button" data-testid="step-back" aria-label={t("player.back")} title={t("player.back_title")}
                    onclick={props.onstep.reform(|_: MouseEvent| -1)}>
                    { icon(ICON_BACK) }
                </button>
                <button type="button" class="primary" id="play" data-testid="play" aria-label={play_label.clone()} title={play_label}
                    disabled={props.len == 0}
                    onclick={onplay_pause}>
                    { icon(play_icon) }
                    <span class="button-text" aria-hidden="true">{ if props.playing { t("player.pause") } else { t("player.play") } }</span>
                </button>
                <button type="button" data-testid="step-forward" aria-label={t("player.forward")} title={t("player.forward_title")}
                    onclick={props.onstep.reform(|_: MouseEvent| 1)}>
                    { icon(ICON_FORWARD) }
                </button>
                <button type="button" data-testid="jump-end" aria-label={t("player.end")} title={t("player.end")}
                    onclick={props.onend.reform(|_: MouseEvent| ())}>
                    { icon(ICON_END) }
                </button>
            </div>
            <div class="player-scrub">
                <label for="scrubber" class="visually-hidden">{ t("player.position") }</label>
                <input id="scrubber" type="range" data-testid="scrubber"
                    min="0" max={props.len.to_string()} step="1"
                    value={props.pos.to_string()}
                    aria-valuetext={tf("player.step_of", &[("pos", &props.pos.to_string()), ("len", &props.len.to_string()), ("time", &clock_text)])}
                    oninput={onseek} />
                <span class="step-count" data-testid="step-count">{ format!("{}/{}", props.pos, props.len) }</span>
            </div>
            <div class="player-meta">
                <label for="speed">{ t("player.speed") }</label>
                <select id="speed" data-testid="speed" onchange={onspeed}>
                    { for SPEED_LABELS.iter().enumerate().map(|(i, s)| html! {
                        <option value={i.to_string()} selected={i == props.speed}>{ *s }</option>
                    }) }
                </select>
                <span class="clock-label">{ t("player.virtual_time") }</span>
                <span class="clock" data-testid="clock" data-ms={time_ms.to_string()}>{ clock_text }</span>
            </div>
        </section>
    }
}
