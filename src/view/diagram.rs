//! One lane drawn as a sequence diagram in inline SVG, as markup text
//! (`data-act="inspect"` on what can be inspected); the page's lanes and
//! the editor's lane.

use super::{classes, num as f};
use crate::i18n::{self, t, tf};
use maud::{html, Markup};
use mcp_lanes_core::sim::{Actor, Event, EventKind, MessageEvent, Side, Timeline};

use crate::model::columns::{actor_name, event_actor, Columns};
use crate::model::labels::{self, Arrow, Rect, Spot};
use crate::model::{
    clock, duration, event_kind_name, event_title, fit_columns, kind_name, lock_spans, marker_text,
    text_width, truncate, Layout, CLIENT_X, LABEL_CHARS, SERVER_X, TOP,
};

/// What the diagram draws.
pub struct Diagram<'a> {
    /// Lane number in test ids.
    pub index: usize,
    /// Row in the layout.
    pub row: usize,
    /// Text before anything is drawn.
    pub hint: Option<&'a str>,
    /// The run.
    pub timeline: &'a Timeline,
    /// Rows shared by the lanes.
    pub layout: &'a Layout,
    /// Playback position.
    pub pos: usize,
    /// Real duration of one step.
    pub step_ms: u32,
    /// The inspected event.
    pub selected: Option<usize>,
    /// The complete figure (`view::figure`): every event drawn, each
    /// element that depends on the playback position marked with the
    /// positions it shows at (`data-show`), for the player script.
    pub complete: bool,
    /// A check's verdicts on the lane's events (marked in its margin).
    pub verdicts: &'a [mcp_lanes_core::check::Verdict],
}

/// `data-show` of an element drawn from position `from` to `to` (both
/// included) in the complete figure; `None` (no attribute) otherwise.
fn show(d: &Diagram, from: usize, to: usize) -> Option<String> {
    d.complete.then(|| format!("{from} {to}"))
}

/// Where a message's arrow ends (x, y), and whether it arrives.
pub fn arrow_end(
    cols: &Columns,
    layout: &Layout,
    message: &MessageEvent,
    y1: f64,
) -> (f64, f64, bool) {
    let (x1, x2) = cols.message_xs(message);
    match message.delivered_at_ms {
        Some(t) => (x2, layout.y_at(t).max(y1), true),
        None => ((x1 + x2) / 2.0, y1 + 14.0, false),
    }
}

/// The points of an arrow's head at (x2, y2), coming from (x1, y1).
pub fn arrow_head(x1: f64, y1: f64, x2: f64, y2: f64) -> String {
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(0.001);
    let (ux, uy) = (dx / len, dy / len);
    let (bx, by) = (x2 - ux * 8.0, y2 - uy * 8.0);
    let (nx, ny) = (-uy * 3.6, ux * 3.6);
    format!(
        "{},{} {},{} {},{}",
        f(x2),
        f(y2),
        f(bx + nx),
        f(by + ny),
        f(bx - nx),
        f(by - ny)
    )
}

/// The label text of an arrow (a warning sign on deliberately broken ones).
pub fn label_text(message: &MessageEvent) -> String {
    let label = crate::model::visible_controls(&truncate(&message.label, LABEL_CHARS));
    if message.violation.is_some() {
        format!("\u{26a0} {label}")
    } else {
        label
    }
}

/// Advance of one character of the 11px monospace label font.
pub const CHAR_W: f64 = 6.65;

/// A placed label: where it goes, its text and its chip's width.
#[derive(Debug, Clone)]
pub struct Label {
    /// Where it goes.
    pub spot: Spot,
    /// What it says.
    pub text: String,
    /// Its chip's width.
    pub width: f64,
}

/// A marker's glyph and words as boxes, for the labels to keep off.
fn marker_boxes(cols: &Columns, event: &Event, y: f64) -> [Rect; 2] {
    let (gx, tx, ty, anchor) = marker_spot(cols, event, y);
    let width = text_width(&marker_text(event));
    let left = if anchor == "end" { tx - width } else { tx };
    let glyph = if matches!(event.kind, EventKind::HostKill) {
        // The kill line runs between the columns, under its words.
        Rect {
            x: cols.first_x(),
            y: y - 7.0,
            w: cols.last_x() - cols.first_x(),
            h: 14.0,
        }
    } else {
        Rect {
            x: gx - 7.0,
            y: y - 7.0,
            w: 14.0,
            h: 14.0,
        }
    };
    [
        glyph,
        Rect {
            x: left,
            y: ty - 9.0,
            w: width,
            h: 12.0,
        },
    ]
}

/// Every arrow label of the lane, by event index, placed off the markers'
/// words, the gaps' pills and each other ([`labels::place`]); every event
/// counts, drawn yet or not, so a label stays put while the run plays.
pub fn labels(d: &Diagram) -> Vec<Option<Label>> {
    let (layout, n) = (d.layout, d.row);
    let cols = Columns::of(d.timeline);
    let mut obstacles: Vec<Rect> = Vec::new();
    for g in &layout.gaps {
        let width = gap_width(&tf("diagram.later", &[("time", &duration(g.ms))]));
        obstacles.push(Rect {
            x: cols.width() / 2.0 - width / 2.0,
            y: g.y - 8.0,
            w: width,
            h: 16.0,
        });
    }
    let mut arrows: Vec<(usize, Arrow, String)> = Vec::new();
    for e in &d.timeline.events {
        let y = layout.event_y(n, e.index);
        match e.message() {
            Some(m) if m.sender().is_some() => {
                let text = label_text(m);
                let width = text.chars().count() as f64 * CHAR_W + 6.0;
                let (x2, y2, delivered) = arrow_end(&cols, layout, m, y);
                let (x1, _) = cols.message_xs(m);
                if !delivered {
                    let lost = text_width(&t("diagram.lost"));
                    let left = if x2 >= x1 { x2 + 9.0 } else { x2 - 9.0 - lost };
                    obstacles.push(Rect {
                        x: left,
                        y: y2 - 5.0,
                        w: lost,
                        h: 12.0,
                    });
                }
                arrows.push((
                    e.index,
                    Arrow {
                        x1,
                        y1: y,
                        x2,
                        y2,
                        delivered,
                        width,
                        lane: cols.width(),
                    },
                    text,
                ));
            }
            Some(m) => {
                let width = (label_text(m).chars().count() + 2) as f64 * CHAR_W + 6.0;
                obstacles.push(Rect {
                    x: UNDECIDED_X - width / 2.0,
                    y: y - 7.0,
                    w: width,
                    h: 27.0,
                });
            }
            None => obstacles.extend(marker_boxes(&cols, e, y)),
        }
    }
    let spots = labels::place(
        &arrows.iter().map(|(_, a, _)| *a).collect::<Vec<_>>(),
        &obstacles,
    );
    let mut out: Vec<Option<Label>> = vec![None; d.timeline.events.len()];
    for ((index, a, text), spot) in arrows.into_iter().zip(spots) {
        if let Some(slot) = out.get_mut(index) {
            *slot = Some(Label {
                spot,
                text,
                width: a.width,
            });
        }
    }
    out
}

/// A message arrow's classes.
pub fn message_class(
    message: &MessageEvent,
    delivered: bool,
    arrived: bool,
    selected: bool,
) -> String {
    classes(&[
        Some("ev"),
        Some("msg"),
        Some(kind_name(message.kind)),
        message.violation.as_ref().map(|_| "violation"),
        (!delivered).then_some("lost"),
        (delivered && !arrived).then_some("in-flight"),
        selected.then_some("selected"),
    ])
}

/// The class that says how long a step lasts (the envelope's travel).
pub fn step_class(step_ms: u32) -> &'static str {
    match step_ms {
        3600 => "d3600",
        1800 => "d1800",
        450 => "d450",
        225 => "d225",
        _ => "",
    }
}

/// Where a marker's glyph and words go: (glyph x, text x, text y, anchor):
/// beside its actor's column, to the left of the last one. The host kill
/// spans every column: its words sit above the line.
pub fn marker_spot(cols: &Columns, event: &Event, y: f64) -> (f64, f64, f64, &'static str) {
    match event_actor(event) {
        Some(actor) if cols.is_last(actor) => {
            let x = cols.x(actor);
            (x - 13.0, x - 23.0, y + 3.5, "end")
        }
        Some(actor) => {
            let x = cols.x(actor);
            (x + 13.0, x + 23.0, y + 3.5, "start")
        }
        None => (CLIENT_X + 13.0, CLIENT_X + 23.0, y - 5.0, "start"),
    }
}

/// A marker's accessible name (a decision's says what was decided).
pub fn marker_aria(event: &Event) -> String {
    tf(
        "diagram.event",
        &[
            ("event", &event_title(event)),
            ("time", &clock(event.at_ms)),
        ],
    )
}

/// The width of a time gap's label: a wide (CJK) character takes about
/// two narrow ones.
pub fn gap_width(words: &str) -> f64 {
    let columns: usize = words
        .chars()
        .map(|c| if c > '\u{2e7f}' { 2 } else { 1 })
        .sum();
    columns as f64 * 6.1 + 14.0
}

/// A message's accessible name: what, which way, when, lost or broken.
pub fn message_aria(event: &Event, message: &MessageEvent, delivered: bool) -> String {
    // "result: server to client", not "result result: ...".
    let kind = kind_name(message.kind);
    let label = if message.label == kind {
        kind.to_string()
    } else {
        format!("{kind} {}", message.label)
    };
    let (from, to) = message.ends();
    let (from, to) = (actor_name(from), actor_name(to));
    tf(
        if !message.is_mcp() {
            "diagram.message_between"
        } else if message.from == Side::Client {
            "diagram.message_to_server"
        } else {
            "diagram.message_to_client"
        },
        &[
            ("message", &label),
            ("from", &from),
            ("to", &to),
            ("time", &clock(event.at_ms)),
            (
                "lost",
                &if delivered {
                    String::new()
                } else {
                    t("diagram.never_arrives")
                },
            ),
            (
                "broken",
                &if message.violation.is_some() {
                    t("diagram.breaking")
                } else {
                    String::new()
                },
            ),
        ],
    )
}

fn message_arrow(
    d: &Diagram,
    event: &Event,
    message: &MessageEvent,
    y1: f64,
    time: u64,
    label: Option<&Label>,
) -> Markup {
    let n = d.index;
    let cols = Columns::of(d.timeline);
    let (x1, _) = cols.message_xs(message);
    let (x2, y2, delivered) = arrow_end(&cols, d.layout, message, y1);
    let rightwards = cols.message_xs(message).1 > x1;
    let arrived = message.delivered_at_ms.is_some_and(|t| t <= time);
    let (chip_x, label_y, chip_w) =
        label.map_or((x1, y1, 0.0), |l| (l.spot.left, l.spot.y, l.width));
    let selected = d.selected == Some(event.index);
    let class = message_class(message, delivered, arrived, selected);
    let kind = kind_name(message.kind);
    let aria = message_aria(event, message, delivered);
    let from = d.layout.position_of(event.at_ms);
    let to = d.layout.len();
    let flight = match message.delivered_at_ms {
        Some(t) if d.complete && d.layout.position_of(t) > from => {
            Some(format!("{from} {}", d.layout.position_of(t)))
        }
        _ => None,
    };
    html! {
        g class=(class) tabindex="0" role="button" aria-label=(aria)
            data-show=[show(d, from, to)] data-flight=[flight]
            data-testid=(format!("message-{n}-{}", event.index))
            data-act="inspect" data-arg=(format!("{n}:{}", event.index))
            data-label=(message.label)
            data-kind=(kind)
            data-delivered=(if delivered { "true" } else { "false" })
            data-sent-ms=(event.at_ms)
            data-delivered-ms=[message.delivered_at_ms] {
            title { (message.label) " \u{2014} " (i18n::event_note(event)) }
            line class="hit hit-band" x1=(f(x1)) y1=(f(y1)) x2=(f(x2)) y2=(f(y2)) {}
            rect class="hit" x=(f(chip_x)) y=(f(label_y - 10.5)) width=(f(chip_w)) height="14" rx="3" {}
            line class="shaft" x1=(f(x1)) y1=(f(y1)) x2=(f(x2)) y2=(f(y2)) {}
            @if delivered {
                polygon class="head" points=(arrow_head(x1, y1, x2, y2)) {}
            } @else {
                g class="lost-mark" {
                    line x1=(f(x2 - 5.0)) y1=(f(y2 - 5.0)) x2=(f(x2 + 5.0)) y2=(f(y2 + 5.0)) {}
                    line x1=(f(x2 - 5.0)) y1=(f(y2 + 5.0)) x2=(f(x2 + 5.0)) y2=(f(y2 - 5.0)) {}
                    text x=(f(x2 + if rightwards { 9.0 } else { -9.0 })) y=(f(y2 + 4.0))
                        text-anchor=(if rightwards { "start" } else { "end" }) { (t("diagram.lost")) }
                }
            }
        }
    }
}

/// The x of a message whose sender is not known: the middle of the lane,
/// between the two lifelines (it is drawn from neither).
pub const UNDECIDED_X: f64 = (CLIENT_X + SERVER_X) / 2.0;

/// Characters of the note under an undecided message (9px font).
const UNDECIDED_NOTE_CHARS: usize = 44;

/// Why the sender of `message` is not known, in the page's language.
pub fn undecided_why(message: &MessageEvent) -> Option<String> {
    let why = message.undecided.as_ref()?;
    Some(i18n::note_text(why, message.undecided_msg.as_ref()))
}

/// A message whose sender the recording does not settle
/// (`MessageEvent::sender` is `None`): drawn in the middle of the lane, as
/// a chip with a question mark and the reason under it, never as an
/// arrow from either side (its `from` is only a placeholder).
fn undecided_message(d: &Diagram, event: &Event, message: &MessageEvent, y: f64) -> Markup {
    let n = d.index;
    let selected = d.selected == Some(event.index);
    let kind = kind_name(message.kind);
    let why = undecided_why(message).unwrap_or_default();
    let text = format!("? {}", label_text(message));
    let width = text.chars().count() as f64 * CHAR_W + 6.0;
    let note = tf("diagram.undecided_note", &[("why", &why)]);
    let from = d.layout.position_of(event.at_ms);
    let aria = tf(
        "diagram.message_undecided",
        &[
            ("message", &message.label),
            ("time", &clock(event.at_ms)),
            ("why", &why),
        ],
    );
    html! {
        g class=(classes(&[Some("ev"), Some("msg"), Some("undecided"), Some(kind),
                message.violation.as_ref().map(|_| "violation"), selected.then_some("selected")]))
            tabindex="0" role="button" aria-label=(aria)
            data-show=[show(d, from, d.layout.len())]
            data-testid=(format!("message-{n}-{}", event.index))
            data-act="inspect" data-arg=(format!("{n}:{}", event.index))
            data-label=(message.label) data-kind=(kind) data-undecided="true"
            data-sent-ms=(event.at_ms) {
            title { (message.label) " \u{2014} " (note) }
            rect class="hit" x=(f(CLIENT_X + 8.0)) y=(f(y - 9.0)) width=(f(SERVER_X - CLIENT_X - 16.0)) height="29" rx="4" {}
            g class="chip undecided-chip" {
                rect x=(f(UNDECIDED_X - width / 2.0)) y=(f(y - 7.0)) width=(f(width)) height="14" rx="7" {}
                text x=(f(UNDECIDED_X)) y=(f(y + 3.5)) text-anchor="middle" { (text) }
            }
            text class="undecided-note" data-testid=(format!("undecided-note-{n}-{}", event.index))
                x=(f(UNDECIDED_X)) y=(f(y + 16.5)) text-anchor="middle" {
                (fit_columns(&note, UNDECIDED_NOTE_CHARS))
            }
        }
    }
}

fn message_label(d: &Diagram, event: &Event, message: &MessageEvent, label: &Label) -> Markup {
    let Spot { x, y, anchor, left } = label.spot;
    let (text, width) = (&label.text, label.width);
    let selected = d.selected == Some(event.index);
    let class = classes(&[
        Some("chip"),
        Some(kind_name(message.kind)),
        message.violation.as_ref().map(|_| "violation"),
        selected.then_some("selected"),
    ]);
    let from = d.layout.position_of(event.at_ms);
    html! {
        g class=(class) data-show=[show(d, from, d.layout.len())]
            data-for=[d.complete.then(|| format!("{}:{}", d.index, event.index))] {
            rect x=(f(left)) y=(f(y - labels::CHIP_ABOVE)) width=(f(width)) height=(f(labels::CHIP_H)) rx="3" {}
            text x=(f(x)) y=(f(y)) text-anchor=(anchor) { (text) }
        }
    }
}

fn envelope(d: &Diagram, message: &MessageEvent, y1: f64) -> Markup {
    let cols = Columns::of(d.timeline);
    let (x1, _) = cols.message_xs(message);
    let (x2, y2, _) = arrow_end(&cols, d.layout, message, y1);
    let class = classes(&[
        Some("envelope"),
        Some(step_class(d.step_ms)),
        (x2 < x1).then_some("back"),
    ]);
    html! {
        g class=(class) aria-hidden="true" {
            rect class="env-end" x=(f(x2 - 7.0)) y=(f(y2 - 5.0)) width="14" height="10" {}
            rect x=(f(x1 - 7.0)) y=(f(y1 - 5.0)) width="14" height="10" rx="1.5" {}
            polyline points=(format!("{},{} {},{} {},{}", f(x1 - 7.0), f(y1 - 5.0), f(x1), f(y1 + 1.0), f(x1 + 7.0), f(y1 - 5.0))) {}
        }
    }
}

/// The width of a column's head box: 64 for a short name, wider for a
/// long one (a wide, CJK character takes about two narrow ones).
pub fn head_width(name: &str) -> f64 {
    let columns: usize = name
        .chars()
        .map(|c| if c > '\u{2e7f}' { 2 } else { 1 })
        .sum();
    (columns as f64 * 7.2 + 12.0).max(64.0)
}

/// A small glyph for a marker, centred on (x, y), as one path.
pub fn glyph(kind: &EventKind, x: f64, y: f64) -> String {
    let (l, t) = (f(x - 5.0), f(y - 6.0));
    match kind {
        EventKind::Timeout { .. } => format!("M{l} {t}h10l-10 12h10z"),
        EventKind::Dropped { .. } => format!("M{l} {}l10 10m0 -10l-10 10", f(y - 5.0)),
        EventKind::Disconnected { .. } => format!(
            "M{l} {}l4 -3 2 6 4 -3M{} {}v8m14 0v-8",
            f(y),
            f(x - 7.0),
            f(y - 4.0)
        ),
        EventKind::CacheHit { .. }
        | EventKind::CacheMiss { .. }
        | EventKind::CacheExpired { .. }
        | EventKind::CacheStored { .. } => {
            format!(
                "M{l} {}a5 2 0 1 0 10 0a5 2 0 1 0 -10 0v8a5 2 0 0 0 10 0v-8",
                f(y - 4.0)
            )
        }
        EventKind::LockTaken { .. } => {
            format!("M{l} {}h10v7h-10zm2 0v-3a3 3 0 0 1 6 0v3", f(y - 1.0))
        }
        EventKind::LockReleased { .. } => {
            format!("M{l} {}h10v7h-10zm2 0v-3a3 3 0 0 1 6 0", f(y - 1.0))
        }
        EventKind::HostKill => format!(
            "M{} {}a6 6 0 1 0 12 0a6 6 0 1 0 -12 0m3 -3l6 6m0 -6l-6 6",
            f(x - 6.0),
            f(y)
        ),
        EventKind::Decision { .. } => format!("M{l} {t}h7l3 3v9h-10zm7 0v3h3"),
        EventKind::Message(_) => String::new(),
        // A kind without a glyph of its own yet: a dot.
        _ => format!("M{l} {}a5 5 0 1 0 10 0a5 5 0 1 0 -10 0", f(y)),
    }
}

fn marker(d: &Diagram, event: &Event, y: f64) -> Markup {
    let n = d.index;
    let kind_class = event_kind_name(&event.kind);
    let selected = d.selected == Some(event.index);
    let cols = Columns::of(d.timeline);
    let (left, right) = (cols.first_x(), cols.last_x());
    let (gx, tx, ty, anchor) = marker_spot(&cols, event, y);
    let aria = marker_aria(event);
    let from = d.layout.position_of(event.at_ms);
    html! {
        g class=(format!("ev mark {kind_class}{}", if selected { " selected" } else { "" }))
            data-show=[show(d, from, d.layout.len())]
            tabindex="0" role="button" aria-label=(aria)
            data-testid=(format!("event-{n}-{}", event.index)) data-act="inspect" data-arg=(format!("{n}:{}", event.index))
            data-kind=(kind_class) {
            title { (i18n::event_note(event)) }
            rect class="hit" x=(f(left - 6.0)) y=(f(y - 11.0)) width=(f(right - left + 12.0)) height="19" rx="4" {}
            @if matches!(event.kind, EventKind::HostKill) {
                line class="kill-line" x1=(f(left)) y1=(f(y)) x2=(f(right)) y2=(f(y)) {}
            }
            path class="glyph" d=(glyph(&event.kind, gx, y)) {}
            text x=(f(tx)) y=(f(ty)) text-anchor=(anchor) { (marker_text(event)) }
        }
    }
}

/// Every lock span of the complete figure: while held, a bar that grows
/// with the playhead (`data-grow`: its top); once released, the bar
/// to the release.
fn complete_locks(d: &Diagram) -> Markup {
    let (layout, n, len) = (d.layout, d.row, d.layout.len());
    let server_x = Columns::of(d.timeline).x(Actor::Server);
    let at = |i: usize| {
        d.timeline
            .events
            .get(i)
            .map(|e| layout.position_of(e.at_ms))
    };
    html! {
        @for s in lock_spans(d.timeline) {
            @let y1 = layout.event_y(n, s.taken);
            @let from = at(s.taken).unwrap_or(len);
            @let released = s.released.and_then(|r| at(r).map(|p| (r, p)));
            @let until = released.map_or(len, |(_, p)| p.saturating_sub(1));
            // Drawn to where it ends (without scripts it stays so).
            @let y2 = released.map_or(layout.playhead_y(len), |(r, _)| layout.event_y(n, r));
            @if from <= until {
                rect class="lock-bar held" data-show=(format!("{from} {until}")) data-grow=(f(y1))
                    x=(f(server_x - 4.0)) y=(f(y1)) width="8" height=(f((y2 - y1).max(2.0))) rx="2" {
                    title { (tf("diagram.lock_held", &[("lock", &s.name)])) }
                }
            }
            @if let Some((r, p)) = released {
                @let y2 = layout.event_y(n, r);
                rect class="lock-bar" data-show=(format!("{p} {len}"))
                    x=(f(server_x - 4.0)) y=(f(y1)) width="8" height=(f((y2 - y1).max(2.0))) rx="2" {
                    title { (tf("diagram.lock_until", &[("lock", &s.name)])) }
                }
            }
        }
    }
}

/// The lane's diagram.
pub fn diagram(d: &Diagram) -> Markup {
    let layout = d.layout;
    let timeline = d.timeline;
    let n = d.row;
    let time = layout.time_at(d.pos);
    let playhead_y = layout.playhead_y(d.pos);
    let height = layout.height;
    let visible = |e: &Event| d.complete || time.is_some_and(|t| e.at_ms <= t);
    let len = layout.len();
    let placed = labels(d);
    let label_of = |e: &Event| placed.get(e.index).and_then(Option::as_ref);
    let transport = timeline.transport.name();
    let cols = Columns::of(timeline);
    let width = cols.width();
    let server_x = cols.x(Actor::Server);
    let heads: Vec<(f64, f64, String)> = cols
        .actors
        .iter()
        .map(|a| {
            let name = actor_name(*a);
            (cols.x(*a), head_width(&name), name)
        })
        .collect();
    html! {
        svg class=(classes(&[Some("lane-svg"), cols.class()])) viewBox=(format!("0 0 {} {}", f(width), f(height)))
            width=(f(width)) height=(f(height))
            role="group" aria-label=(tf("diagram.label", &[("lane", &i18n::setup_label(&timeline.label))])) {
            g class="heads" aria-hidden="true" {
                @for (x, w, name) in &heads {
                    rect class="process" x=(f(x - w / 2.0)) y="6" width=(f(*w)) height="22" rx="3" {}
                    text class="head-text" x=(f(*x)) y="21" text-anchor="middle" { (name) }
                }
                @for pair in heads.windows(2) {
                    @let ((x1, w1, _), (x2, w2, _)) = (&pair[0], &pair[1]);
                    line class="transport-line" x1=(f(x1 + w1 / 2.0 + 4.0)) y1="17" x2=(f(x2 - w2 / 2.0 - 4.0)) y2="17" {}
                    text class="transport-text" x=(f((x1 + x2) / 2.0)) y="13" text-anchor="middle" { (transport) }
                }
            }
            @for (x, _, _) in &heads {
                line class="lifeline" x1=(f(*x)) y1="28" x2=(f(*x)) y2=(f(height)) {}
            }
            @for g in &layout.gaps {
                @let words = tf("diagram.later", &[("time", &duration(g.ms))]);
                @let words_w = gap_width(&words);
                g class="gap" aria-hidden="true" {
                    line x1="4" y1=(f(g.y - 3.0)) x2=(f(width - 4.0)) y2=(f(g.y - 3.0)) {}
                    line x1="4" y1=(f(g.y + 3.0)) x2=(f(width - 4.0)) y2=(f(g.y + 3.0)) {}
                    rect x=(f(width / 2.0 - words_w / 2.0)) y=(f(g.y - 8.0)) width=(f(words_w)) height="16" rx="8" {}
                    text x=(f(width / 2.0)) y=(f(g.y + 3.5)) text-anchor="middle" { (words) }
                }
            }
            @if d.complete {
                (complete_locks(d))
            } @else {
                @for s in lock_spans(timeline).into_iter().filter(|s| timeline.events.get(s.taken).is_some_and(visible)) {
                    @let y1 = layout.event_y(n, s.taken);
                    @let released = s.released.filter(|r| timeline.events.get(*r).is_some_and(visible));
                    @let y2 = match released { Some(r) => layout.event_y(n, r), None => playhead_y };
                    @let held = released.is_none();
                    rect class=(if held { "lock-bar held" } else { "lock-bar" })
                        x=(f(server_x - 4.0)) y=(f(y1)) width="8" height=(f((y2 - y1).max(2.0))) rx="2" {
                        title { (tf(if held { "diagram.lock_held" } else { "diagram.lock_until" }, &[("lock", &s.name)])) }
                    }
                }
            }
            @if d.pos > 0 || d.complete {
                line class="playhead" data-playhead="true" data-show=[show(d, 1, len)]
                    x1="2" y1=(f(playhead_y)) x2=(f(width - 2.0)) y2=(f(playhead_y)) {}
            }
            @if d.pos == 0 || d.complete {
                text class="start-hint" data-show=[show(d, 0, 0)] x=(f(width / 2.0)) y=(f(TOP + 16.0)) text-anchor="middle" {
                    (d.hint.map_or_else(|| t("diagram.press_play"), str::to_string))
                }
            }
            @for e in timeline.events.iter().filter(|e| visible(e)) {
                @let y = layout.event_y(n, e.index);
                @match (&e.kind, time) {
                    (EventKind::Message(m), Some(_)) if m.sender().is_none() => { (undecided_message(d, e, m, y)) }
                    (EventKind::Message(m), Some(t)) => { (message_arrow(d, e, m, y, t, label_of(e))) }
                    _ => { (marker(d, e, y)) }
                }
            }
            g class="labels" aria-hidden="true" {
                @for e in timeline.events.iter().filter(|e| visible(e)) {
                    @if let (Some(m), Some(l)) = (e.message().filter(|m| m.sender().is_some()), label_of(e)) { (message_label(d, e, m, l)) }
                }
            }
            g class="verdicts" {
                @if crate::bundle::CHECKS {
                    (super::check::marks(n, timeline, d.verdicts, layout, time, d.complete))
                }
            }
            @for e in timeline.events.iter().filter(|e| d.complete || Some(e.at_ms) == time) {
                @if let Some(m) = e.message().filter(|m| m.sender().is_some()) {
                    @let at = layout.position_of(e.at_ms);
                    g data-key=(format!("{}-{}", if d.complete { at } else { d.pos }, e.index))
                        data-show=[show(d, at, at)] {
                        (envelope(d, m, layout.event_y(n, e.index)))
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undecided_message_is_drawn_in_the_middle_with_its_reason() {
        let text = include_str!("../../tests/fixtures/import/undecided.json");
        let checked = crate::checked::read("undecided.json", text).expect("a transcript");
        let timeline = &checked.runs[0].timeline;
        let layout = Layout::new([timeline.as_ref()]);
        let d = Diagram {
            index: 0,
            row: 0,
            hint: None,
            timeline,
            layout: &layout,
            pos: layout.len(),
            step_ms: 0,
            selected: None,
            complete: false,
            verdicts: &checked.runs[0].verdicts,
        };
        let svg = diagram(&d).into_string();
        let undecided: Vec<usize> = timeline
            .messages()
            .filter(|(_, m)| m.sender().is_none())
            .map(|(e, _)| e.index)
            .collect();
        assert!(!undecided.is_empty());
        for i in undecided {
            let at = svg
                .find(&format!("data-testid=\"message-0-{i}\""))
                .expect("drawn");
            // Up to the next element with a test id (the next message).
            let end = at
                + 1
                + svg[at + 1..]
                    .find("data-testid=\"message-")
                    .unwrap_or(svg.len() - at - 1);
            let g = &svg[at..end];
            assert!(g.contains("data-undecided=\"true\""), "{g}");
            assert!(!g.contains("class=\"shaft\""), "no arrow: {g}");
            assert!(g.contains(&format!("x=\"{}\"", f(UNDECIDED_X))), "{g}");
            assert!(svg.contains(&format!("undecided-note-0-{i}")));
        }
        assert!(svg.contains("sender unknown: "));
    }

    #[test]
    fn each_message_is_drawn_between_its_two_actors_columns() {
        let text = include_str!("../../tests/fixtures/actors/three-actors.json");
        let timeline = &Timeline::from_json(text).expect("a timeline")[0];
        let layout = Layout::new([timeline]);
        let d = Diagram {
            index: 0,
            row: 0,
            hint: None,
            timeline,
            layout: &layout,
            pos: layout.len(),
            step_ms: 0,
            selected: None,
            complete: false,
            verdicts: &[],
        };
        let svg = diagram(&d).into_string();
        let cols = Columns::of(timeline);
        assert!(svg.contains("class=\"lane-svg cols-3\""), "{svg}");
        assert!(svg.contains(&format!("width=\"{}\"", f(cols.width()))));
        for (e, m) in timeline.messages() {
            let (x1, x2) = cols.message_xs(m);
            let at = svg
                .find(&format!("data-testid=\"message-0-{}\"", e.index))
                .expect("drawn");
            let shaft = &svg[at + svg[at..].find("class=\"shaft\"").unwrap()..];
            let shaft = &shaft[..shaft.find("/>").or(shaft.find("</line>")).unwrap()];
            assert!(shaft.contains(&format!("x1=\"{}\"", f(x1))), "{shaft}");
            assert!(shaft.contains(&format!("x2=\"{}\"", f(x2))), "{shaft}");
        }
        // The auth server's decision sits beside its column, words to its left.
        let (gx, _, _, anchor) = marker_spot(&cols, &timeline.events[6], 0.0);
        assert_eq!((gx, anchor), (cols.x(Actor::AuthServer) - 13.0, "end"));
        assert!(svg.contains(">auth server</text>"));
    }

    #[test]
    fn bidi_controls_are_shown_not_obeyed() {
        assert_eq!(
            crate::model::visible_controls("a\u{202e}b\u{2066}"),
            "a\\u202eb\\u2066"
        );
        assert_eq!(crate::model::visible_controls("plain 文字"), "plain 文字");
        assert_eq!(fit_columns("文字文字", 4), "文\u{2026}");
        assert_eq!(fit_columns("abcd", 4), "abcd");
    }
}
