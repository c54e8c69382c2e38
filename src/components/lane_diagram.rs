//! One lane drawn as a sequence diagram in inline SVG: the client column on
//! the left, the server column on the right, time flowing down on the rows
//! shared by all lanes. Messages are arrows from the sender at `at_ms` to
//! the receiver at `delivered_at_ms` (a lost one ends in a cross); other
//! events are markers on their column. Only what happened up to the
//! playhead is drawn; the messages sent at the playhead carry an envelope
//! that travels along the arrow.

use crate::i18n::{self, t, tf};
use mcp_lanes_core::sim::{Event, EventKind, MessageEvent, Side, Timeline};
use yew::prelude::*;

use crate::model::{
    column_x, duration, event_kind_name, kind_name, lock_spans, marker_text, Layout, Shared,
    CLIENT_X, LANE_WIDTH, SERVER_X, TOP,
};
use crate::view::diagram::{
    arrow_end, arrow_head, chip, gap_width, glyph, label_spot, marker_aria, marker_spot,
    message_aria, message_class, step_class,
};
use crate::view::num as f;

#[derive(PartialEq, Properties)]
pub struct LaneDiagramProps {
    /// Lane number in test ids (`message-{index}-{event}`).
    pub index: usize,
    /// This lane's position in `layout` (a scenario lane's own index; the
    /// editor's lane is alone in its layout: 0).
    pub row: usize,
    /// What an empty lane says before anything is drawn (`None`: "press
    /// Play" in the page's language).
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    /// What the lane shows (compared by pointer: a new run is a new value).
    pub timeline: Shared<Timeline>,
    pub layout: Shared<Layout>,
    /// Playback position.
    pub pos: usize,
    /// Real duration of one step (the envelope's travel time).
    pub step_ms: u32,
    /// The event shown in the inspector, if it is in this lane.
    pub selected: Option<usize>,
    /// An event was picked (its position).
    pub oninspect: Callback<usize>,
    /// Drawn over the lane: a recorded check's verdict marks (in the
    /// margin right of the server column).
    #[prop_or_default]
    pub marks: Html,
}

/// Handlers that open the inspector on click, Enter or Space.
fn inspect_handlers(
    oninspect: &Callback<usize>,
    index: usize,
) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let onclick = oninspect.reform(move |_: MouseEvent| index);
    let oninspect = oninspect.clone();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            oninspect.emit(index);
        }
    });
    (onclick, onkeydown)
}

fn message_arrow(
    props: &LaneDiagramProps,
    event: &Event,
    message: &MessageEvent,
    y1: f64,
    time: u64,
) -> Html {
    let n = props.index;
    let x1 = column_x(message.from);
    let (x2, y2, delivered) = arrow_end(&props.layout, message, y1);
    let arrived = message.delivered_at_ms.is_some_and(|t| t <= time);
    let (_, label_y, _) = label_spot(&props.layout, message, y1);
    let selected = props.selected == Some(event.index);
    let (onclick, onkeydown) = inspect_handlers(&props.oninspect, event.index);
    let class = message_class(message, delivered, arrived, selected);
    let aria = message_aria(event, message, delivered);
    // What takes the clicks: a band along the shaft and the label's chip,
    // so an arrow drawn later never covers an earlier one.
    let (chip_x, _, chip_w) = chip(&props.layout, message, y1);
    html! {
        <g key={event.index} class={class} tabindex="0" role="button" aria-label={aria}
            data-testid={format!("message-{n}-{}", event.index)}
            data-label={message.label.clone()}
            data-kind={kind_name(message.kind)}
            data-delivered={if delivered { "true" } else { "false" }}
            data-sent-ms={event.at_ms.to_string()}
            data-delivered-ms={message.delivered_at_ms.map(|t| t.to_string())}
            {onclick} {onkeydown}>
            <title>{ format!("{} \u{2014} {}", message.label, i18n::event_note(event)) }</title>
            <line class="hit hit-band" x1={f(x1)} y1={f(y1)} x2={f(x2)} y2={f(y2)} />
            <rect class="hit" x={f(chip_x)} y={f(label_y - 10.5)} width={f(chip_w)} height="14" rx="3" />
            <line class="shaft" x1={f(x1)} y1={f(y1)} x2={f(x2)} y2={f(y2)} />
            if delivered {
                <polygon class="head" points={arrow_head(x1, y1, x2, y2)} />
            } else {
                <g class="lost-mark">
                    <line x1={f(x2 - 5.0)} y1={f(y2 - 5.0)} x2={f(x2 + 5.0)} y2={f(y2 + 5.0)} />
                    <line x1={f(x2 - 5.0)} y1={f(y2 + 5.0)} x2={f(x2 + 5.0)} y2={f(y2 - 5.0)} />
                    <text x={f(x2 + if message.from == Side::Client { 9.0 } else { -9.0 })} y={f(y2 + 4.0)}
                        text-anchor={if message.from == Side::Client { "start" } else { "end" }}>{ t("diagram.lost") }</text>
                </g>
            }
        </g>
    }
}

/// An arrow's label on a small chip, drawn above every line and marker so it
/// stays readable where things cross. Decoration only: the arrow itself
/// carries the accessible name and takes the clicks.
fn message_label(props: &LaneDiagramProps, event: &Event, message: &MessageEvent, y1: f64) -> Html {
    let (x, y, anchor) = label_spot(&props.layout, message, y1);
    let (left, text, width) = chip(&props.layout, message, y1);
    let selected = props.selected == Some(event.index);
    html! {
        <g class={classes!("chip", kind_name(message.kind), message.violation.as_ref().map(|_| "violation"),
            selected.then_some("selected"))}>
            <rect x={f(left)} y={f(y - 10.5)} width={f(width)} height="14" rx="3" />
            <text x={f(x)} y={f(y)} text-anchor={anchor}>{ text }</text>
        </g>
    }
}

/// The envelope that travels along an arrow sent at the playhead, without
/// a `style` attribute (a strict `style-src` forbids them): an invisible
/// copy of it at the arrow's end makes the group's box span the whole path,
/// so style.css moves it by that box's size (`transform-box: fill-box`,
/// percentages), back when the arrow points left; the class `d<ms>` says
/// how long a step lasts.
fn envelope(props: &LaneDiagramProps, message: &MessageEvent, y1: f64) -> Html {
    let x1 = column_x(message.from);
    let (x2, y2, _) = arrow_end(&props.layout, message, y1);
    let duration = step_class(props.step_ms);
    html! {
        <g class={classes!("envelope", duration, (x2 < x1).then_some("back"))} aria-hidden="true">
            <rect class="env-end" x={f(x2 - 7.0)} y={f(y2 - 5.0)} width="14" height="10" />
            <rect x={f(x1 - 7.0)} y={f(y1 - 5.0)} width="14" height="10" rx="1.5" />
            <polyline points={format!("{},{} {},{} {},{}", f(x1 - 7.0), f(y1 - 5.0), f(x1), f(y1 + 1.0), f(x1 + 7.0), f(y1 - 5.0))} />
        </g>
    }
}

fn marker(props: &LaneDiagramProps, event: &Event, y: f64) -> Html {
    let n = props.index;
    let kind_class = event_kind_name(&event.kind);
    let selected = props.selected == Some(event.index);
    let (onclick, onkeydown) = inspect_handlers(&props.oninspect, event.index);
    let (gx, tx, ty, anchor) = marker_spot(&event.kind, y);
    let text = marker_text(event);
    let aria = marker_aria(event);
    html! {
        <g key={event.index} class={format!("ev mark {kind_class}{}", if selected { " selected" } else { "" })}
            tabindex="0" role="button" aria-label={aria}
            data-testid={format!("event-{n}-{}", event.index)}
            data-kind={kind_class}
            {onclick} {onkeydown}>
            <title>{ i18n::event_note(event) }</title>
            <rect class="hit" x={f(CLIENT_X - 6.0)} y={f(y - 11.0)} width={f(SERVER_X - CLIENT_X + 12.0)} height="19" rx="4" />
            if matches!(event.kind, EventKind::HostKill) {
                <line class="kill-line" x1={f(CLIENT_X)} y1={f(y)} x2={f(SERVER_X)} y2={f(y)} />
            }
            <path class="glyph" d={glyph(&event.kind, gx, y)} />
            <text x={f(tx)} y={f(ty)} text-anchor={anchor}>{ text }</text>
        </g>
    }
}

#[component]
pub fn LaneDiagram(props: &LaneDiagramProps) -> Html {
    let layout = &props.layout;
    let timeline: &Timeline = &props.timeline;
    let n = props.row;
    let time = layout.time_at(props.pos);
    let playhead_y = layout.playhead_y(props.pos);
    let height = layout.height;
    let visible = |e: &Event| time.is_some_and(|t| e.at_ms <= t);

    // Held locks: a bar on the server column from taken to released (or to
    // the playhead while still held).
    let locks = lock_spans(timeline)
        .into_iter()
        .filter(|s| timeline.events.get(s.taken).is_some_and(visible))
        .map(|s| {
            let y1 = layout.event_y(n, s.taken);
            let released = s
                .released
                .filter(|r| timeline.events.get(*r).is_some_and(visible));
            let y2 = match released {
                Some(r) => layout.event_y(n, r),
                None => playhead_y,
            };
            let held = released.is_none();
            html! {
                <rect class={classes!("lock-bar", held.then_some("held"))}
                    x={f(SERVER_X - 4.0)} y={f(y1)} width="8" height={f((y2 - y1).max(2.0))} rx="2">
                    <title>{ tf(if held { "diagram.lock_held" } else { "diagram.lock_until" }, &[("lock", &s.name)]) }</title>
                </rect>
            }
        })
        .collect::<Html>();

    let gaps = layout
        .gaps
        .iter()
        .map(|g| {
            let words = tf("diagram.later", &[("time", &duration(g.ms))]);
            let width = gap_width(&words);
            html! {
                <g class="gap" aria-hidden="true">
                    <line x1="4" y1={f(g.y - 3.0)} x2={f(LANE_WIDTH - 4.0)} y2={f(g.y - 3.0)} />
                    <line x1="4" y1={f(g.y + 3.0)} x2={f(LANE_WIDTH - 4.0)} y2={f(g.y + 3.0)} />
                    <rect x={f(LANE_WIDTH / 2.0 - width / 2.0)} y={f(g.y - 8.0)} width={f(width)} height="16" rx="8" />
                    <text x={f(LANE_WIDTH / 2.0)} y={f(g.y + 3.5)} text-anchor="middle">{ words }</text>
                </g>
            }
        })
        .collect::<Html>();

    let events = timeline
        .events
        .iter()
        .filter(|e| visible(e))
        .map(|e| {
            let y = layout.event_y(n, e.index);
            match (&e.kind, time) {
                (EventKind::Message(m), Some(t)) => message_arrow(props, e, m, y, t),
                _ => marker(props, e, y),
            }
        })
        .collect::<Html>();

    let labels = timeline
        .events
        .iter()
        .filter(|e| visible(e))
        .filter_map(|e| {
            e.message()
                .map(|m| message_label(props, e, m, layout.event_y(n, e.index)))
        })
        .collect::<Html>();

    let envelopes = timeline
        .events
        .iter()
        .filter(|e| Some(e.at_ms) == time)
        .filter_map(|e| {
            e.message()
                .map(|m| html! { <g key={format!("{}-{}", props.pos, e.index)}>{ envelope(props, m, layout.event_y(n, e.index)) }</g> })
        })
        .collect::<Html>();

    let transport = timeline.transport.name();
    html! {
        <svg class="lane-svg" viewBox={format!("0 0 {} {}", f(LANE_WIDTH), f(height))}
            width={f(LANE_WIDTH)} height={f(height)}
            role="group" aria-label={tf("diagram.label", &[("lane", &i18n::setup_label(&timeline.label))])}>
            <g class="heads" aria-hidden="true">
                <rect class="process" x={f(CLIENT_X - 32.0)} y="6" width="64" height="22" rx="3" />
                <text class="head-text" x={f(CLIENT_X)} y="21" text-anchor="middle">{ t("side.client") }</text>
                <rect class="process" x={f(SERVER_X - 32.0)} y="6" width="64" height="22" rx="3" />
                <text class="head-text" x={f(SERVER_X)} y="21" text-anchor="middle">{ t("side.server") }</text>
                <line class="transport-line" x1={f(CLIENT_X + 36.0)} y1="17" x2={f(SERVER_X - 36.0)} y2="17" />
                <text class="transport-text" x={f(LANE_WIDTH / 2.0)} y="13" text-anchor="middle">{ transport }</text>
            </g>
            <line class="lifeline" x1={f(CLIENT_X)} y1="28" x2={f(CLIENT_X)} y2={f(height)} />
            <line class="lifeline" x1={f(SERVER_X)} y1="28" x2={f(SERVER_X)} y2={f(height)} />
            { gaps }
            { locks }
            if props.pos > 0 {
                <line class="playhead" data-playhead="true" x1="2" y1={f(playhead_y)} x2={f(LANE_WIDTH - 2.0)} y2={f(playhead_y)} />
            } else {
                <text class="start-hint" x={f(LANE_WIDTH / 2.0)} y={f(TOP + 16.0)} text-anchor="middle">{ props.hint.as_ref().map_or_else(|| t("diagram.press_play"), |h| h.to_string()) }</text>
            }
            { events }
            <g class="labels" aria-hidden="true">{ labels }</g>
            <g class="verdicts">{ props.marks.clone() }</g>
            { envelopes }
        </svg>
    }
}
