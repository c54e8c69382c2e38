//! View models built from the core's timelines: the row layout the lanes
//! share, the playhead, markers' short texts, clock and duration formats,
//! and the words for a setting. Nothing here decides protocol behaviour: it
//! only arranges what a [`Timeline`] recorded.

use crate::i18n::{t, tf};
use std::ops::Deref;
use std::rc::Rc;

use mcp_lanes_core::sim::{Event, EventKind, MessageEvent, MessageKind, Side, Timeline};

pub mod columns;
pub mod labels;

/// Width of a lane's diagram in SVG user units (it scales with its box).
pub const LANE_WIDTH: f64 = 320.0;
/// x of the client column.
pub const CLIENT_X: f64 = 42.0;
/// x of the server column.
pub const SERVER_X: f64 = 278.0;
/// Height of one event slot.
pub const ROW_H: f64 = 30.0;
/// Space above the first row (column heads).
pub const TOP: f64 = 46.0;
/// Extra space for a "later" break between rows far apart in time.
pub const GAP_H: f64 = 26.0;
/// Space below the last row.
pub const BOTTOM: f64 = 18.0;
/// Rows at least this far apart in virtual time get a visible break.
pub const GAP_MS: u64 = 1_000;
/// Where in its slot an event sits (fraction of [`ROW_H`]).
const ANCHOR: f64 = 0.6;
/// Where in a group's first slot a message arrives: a little above the
/// first event there, so the arrowhead and that event's glyph stay apart.
const ARRIVE: f64 = 0.3;

/// An `Rc` compared by pointer: cheap equality for props holding big values
/// that are replaced, never mutated.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Shared<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Self {
        Shared(Rc::new(value))
    }
}

impl<T: Default> Default for Shared<T> {
    fn default() -> Self {
        Shared::new(T::default())
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A visible break between two rows far apart in virtual time.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    /// Middle of the break.
    pub y: f64,
    /// How much virtual time passes.
    pub ms: u64,
}

/// Rows shared by every lane: one group of slots per distinct time at
/// which something is sent, happens or arrives, as tall as the busiest lane
/// at that time, so lanes line up on the virtual clock.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Distinct times of all lanes' events and deliveries, ascending: the
    /// playback sequence.
    pub times: Vec<u64>,
    /// Top of each time's group.
    pub row_top: Vec<f64>,
    /// Slots in each time's group.
    pub row_slots: Vec<usize>,
    /// Breaks for long quiet stretches.
    pub gaps: Vec<Gap>,
    /// Total height.
    pub height: f64,
    /// The y of every event, per lane, by event position.
    pub event_y: Vec<Vec<f64>>,
}

impl Layout {
    /// Lays out the given timelines side by side.
    pub fn new<'a>(timelines: impl IntoIterator<Item = &'a Timeline>) -> Layout {
        Layout::of(timelines.into_iter().collect())
    }

    /// [`Layout::new`] once collected: one copy of the work in the bundle,
    /// whichever iterator a caller has.
    fn of(timelines: Vec<&Timeline>) -> Layout {
        // Every send and every delivery is a playback position: a run ends
        // when its last message arrives, not when it is sent.
        // Kept sorted as they come (a few hundred at most): smaller in the
        // lite bundle than a sort, which it would link for this alone.
        let mut times: Vec<u64> = Vec::new();
        let mut add = |t: u64| {
            if let Err(i) = times.binary_search(&t) {
                times.insert(i, t);
            }
        };
        for e in timelines.iter().flat_map(|t| &t.events) {
            add(e.at_ms);
            if let Some(t) = e.message().and_then(|m| m.delivered_at_ms) {
                add(t);
            }
        }

        // Each event's position among the same-time events of its lane.
        let ordinals: Vec<Vec<usize>> = timelines
            .iter()
            .map(|t| {
                let mut out = Vec::with_capacity(t.events.len());
                let mut prev: Option<u64> = None;
                let mut n = 0;
                for e in &t.events {
                    if prev == Some(e.at_ms) {
                        n += 1;
                    } else {
                        n = 0;
                        prev = Some(e.at_ms);
                    }
                    out.push(n);
                }
                out
            })
            .collect();

        let mut row_slots = vec![1usize; times.len()];
        for (t, ords) in timelines.iter().zip(&ordinals) {
            for (e, ord) in t.events.iter().zip(ords) {
                if let Ok(k) = times.binary_search(&e.at_ms) {
                    if let Some(slots) = row_slots.get_mut(k) {
                        *slots = (*slots).max(ord + 1);
                    }
                }
            }
        }

        let mut row_top = Vec::with_capacity(times.len());
        let mut gaps = Vec::new();
        let mut y = TOP;
        for (k, t) in times.iter().enumerate() {
            if k > 0 {
                let prev = times[k - 1];
                if t - prev >= GAP_MS {
                    gaps.push(Gap {
                        y: y + GAP_H / 2.0,
                        ms: t - prev,
                    });
                    y += GAP_H;
                }
            }
            row_top.push(y);
            y += row_slots[k] as f64 * ROW_H;
        }
        let height = y + BOTTOM;

        let event_y = timelines
            .iter()
            .zip(&ordinals)
            .map(|(t, ords)| {
                t.events
                    .iter()
                    .zip(ords)
                    .map(|(e, ord)| {
                        let top = times
                            .binary_search(&e.at_ms)
                            .ok()
                            .and_then(|k| row_top.get(k).copied())
                            .unwrap_or(TOP);
                        top + (*ord as f64 + ANCHOR) * ROW_H
                    })
                    .collect()
            })
            .collect();

        Layout {
            times,
            row_top,
            row_slots,
            gaps,
            height,
            event_y,
        }
    }

    /// Number of playback positions after the start (position 0 shows nothing).
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether there is nothing to play.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Virtual time at a playback position (`None` before the first event).
    pub fn time_at(&self, pos: usize) -> Option<u64> {
        pos.checked_sub(1).and_then(|k| self.times.get(k).copied())
    }

    /// The position showing everything up to virtual time `t`.
    pub fn position_of(&self, t: u64) -> usize {
        self.times.partition_point(|&x| x <= t)
    }

    /// The y where something happening at virtual time `t` is drawn (the
    /// first slot of its group, or in between groups).
    pub fn y_at(&self, t: u64) -> f64 {
        match self.times.binary_search(&t) {
            Ok(k) => self.row_top[k] + ARRIVE * ROW_H,
            Err(0) => TOP + ARRIVE * ROW_H,
            Err(k) => {
                let before = k - 1;
                let end_before = self.row_top[before] + (self.row_slots[before] as f64) * ROW_H;
                match self.times.get(k) {
                    Some(&next) => {
                        let t0 = self.times[before];
                        let next_y = self.row_top[k] + ARRIVE * ROW_H;
                        let f = (t - t0) as f64 / (next - t0).max(1) as f64;
                        end_before + (next_y - end_before) * f
                    }
                    None => end_before + ROW_H * 0.3,
                }
            }
        }
    }

    /// The y of the playhead line at a position (below everything shown).
    pub fn playhead_y(&self, pos: usize) -> f64 {
        match pos.checked_sub(1) {
            None => TOP - 4.0,
            Some(k) => match (self.row_top.get(k), self.row_slots.get(k)) {
                (Some(top), Some(slots)) => top + *slots as f64 * ROW_H - 3.0,
                _ => self.height - BOTTOM,
            },
        }
    }

    /// The y of event `index` of lane `lane`.
    pub fn event_y(&self, lane: usize, index: usize) -> f64 {
        self.event_y
            .get(lane)
            .and_then(|ys| ys.get(index))
            .copied()
            .unwrap_or(TOP)
    }
}

/// The x of a side's column.
pub fn column_x(side: Side) -> f64 {
    match side {
        Side::Client => CLIENT_X,
        Side::Server => SERVER_X,
    }
}

/// "client" or "server", in the page's language.
pub fn side(side: Side) -> String {
    t(match side {
        Side::Client => "side.client",
        Side::Server => "side.server",
    })
}

/// `"600.000 s"`: virtual milliseconds as seconds with three decimals.
pub fn clock(ms: u64) -> String {
    format!("{}.{:03} s", ms / 1000, ms % 1000)
}

/// A duration in words for breaks and ttl: `"1 h"`, `"2 min 30 s"`, `"3 s"`, `"250 ms"`.
pub fn duration(ms: u64) -> String {
    if ms < 1_000 {
        return format!("{ms} ms");
    }
    let total_s = ms / 1000;
    let rest_ms = ms % 1000;
    let (h, m, s) = (total_s / 3600, (total_s % 3600) / 60, total_s % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if s > 0 || rest_ms > 0 {
        if rest_ms > 0 && h == 0 {
            let tenths = rest_ms / 100;
            parts.push(format!("{s}.{tenths} s"));
        } else {
            parts.push(format!("{s} s"));
        }
    }
    parts.join(" ")
}

/// CSS class and `data-kind` of a message kind.
pub fn kind_name(kind: MessageKind) -> &'static str {
    match kind {
        MessageKind::Request => "request",
        MessageKind::Notification => "notification",
        MessageKind::Result => "result",
        MessageKind::Error => "error",
        MessageKind::Other => "other",
    }
}

/// `data-kind` of a non-message event.
pub fn event_kind_name(kind: &EventKind) -> &'static str {
    match kind {
        EventKind::Message(m) => kind_name(m.kind),
        EventKind::Timeout { .. } => "timeout",
        EventKind::Dropped { .. } => "dropped",
        EventKind::Disconnected { .. } => "disconnected",
        EventKind::CacheHit { .. } => "cache-hit",
        EventKind::CacheMiss { .. } => "cache-miss",
        EventKind::CacheExpired { .. } => "cache-expired",
        EventKind::CacheStored { .. } => "cache-stored",
        EventKind::LockTaken { .. } => "lock-taken",
        EventKind::LockReleased { .. } => "lock-released",
        EventKind::HostKill => "host-kill",
        EventKind::Decision { .. } => "decision",
        _ => "event",
    }
}

/// The column an event's marker sits on (`None`: across both).
pub fn event_side(kind: &EventKind) -> Option<Side> {
    match kind {
        // A message whose sender is not known sits across both.
        EventKind::Message(m) => m.sender(),
        EventKind::Timeout { side, .. }
        | EventKind::Dropped { side, .. }
        | EventKind::Disconnected { side }
        | EventKind::Decision { side } => Some(*side),
        EventKind::CacheHit { .. }
        | EventKind::CacheMiss { .. }
        | EventKind::CacheExpired { .. }
        | EventKind::CacheStored { .. } => Some(Side::Client),
        EventKind::LockTaken { .. } | EventKind::LockReleased { .. } => Some(Side::Server),
        EventKind::HostKill => None,
        _ => None,
    }
}

/// A short title for an event (inspector heading, tooltips).
pub fn event_title(event: &Event) -> String {
    match &event.kind {
        EventKind::Message(m) if m.sender().is_none() => {
            tf("event.message_undecided", &[("message", &m.label)])
        }
        EventKind::Message(m) => tf(
            "event.message",
            &[
                ("side", &columns::actor_name(m.ends().0)),
                ("message", &m.label),
            ],
        ),
        EventKind::Timeout { side, request_id } => tf(
            "event.timeout",
            &[
                ("side", &self::side(*side)),
                ("id", &request_id.to_string()),
            ],
        ),
        EventKind::Dropped { side, what } => tf(
            "event.dropped",
            &[("side", &self::side(*side)), ("what", what)],
        ),
        EventKind::Disconnected { side } => {
            tf("event.disconnects", &[("side", &self::side(*side))])
        }
        EventKind::CacheHit { key } => tf("event.cache_hit", &[("key", key)]),
        EventKind::CacheMiss { key } => tf("event.cache_miss", &[("key", key)]),
        EventKind::CacheExpired { key } => tf("event.cache_expired", &[("key", key)]),
        EventKind::CacheStored { key, ttl_ms } => {
            tf("event.cached", &[("key", key), ("ttl", &duration(*ttl_ms))])
        }
        EventKind::LockTaken { name } => tf("event.lock_taken", &[("lock", name)]),
        EventKind::LockReleased { name } => tf("event.lock_released", &[("lock", name)]),
        EventKind::HostKill => t("event.host_kill"),
        // A decision's name says what was decided, not only who decided.
        EventKind::Decision { side } => tf(
            "event.decides",
            &[
                (
                    "side",
                    &event
                        .actor
                        .map_or_else(|| self::side(*side), columns::actor_name),
                ),
                ("what", &first_clause(&crate::i18n::event_note(event))),
            ],
        ),
        // A kind the page does not name yet: what its note says first.
        _ => first_clause(&crate::i18n::event_note(event)),
    }
}

/// The short text next to a marker in the diagram (the inspector, the
/// narration and the tooltip have the whole note).
pub fn marker_text(event: &Event) -> String {
    let text = match &event.kind {
        EventKind::Timeout { request_id, .. } => {
            tf("marker.timeout", &[("id", &request_id.to_string())])
        }
        EventKind::Dropped { what, .. } => tf("marker.drops", &[("what", what)]),
        EventKind::Disconnected { .. } => t("marker.disconnects"),
        EventKind::CacheHit { key } => tf("event.cache_hit", &[("key", key)]),
        EventKind::CacheMiss { key } => tf("event.cache_miss", &[("key", key)]),
        EventKind::CacheExpired { key } => tf("marker.expired", &[("key", key)]),
        EventKind::CacheStored { key, ttl_ms } => tf(
            "marker.cached",
            &[("key", key), ("ttl", &duration(*ttl_ms))],
        ),
        EventKind::LockTaken { name } => tf("marker.takes", &[("lock", name)]),
        EventKind::LockReleased { name } => tf("marker.releases", &[("lock", name)]),
        EventKind::HostKill => tf("marker.host_kill", &[("time", &clock(event.at_ms))]),
        EventKind::Decision { .. } => first_clause(&crate::i18n::event_note(event)),
        EventKind::Message(m) => m.label.clone(),
        _ => first_clause(&crate::i18n::event_note(event)),
    };
    fit_columns(&text, MARKER_CHARS)
}

/// The first clause of a sentence (up to a colon or semicolon), or the
/// sentence when that is short anyway.
fn first_clause(note: &str) -> String {
    let cut = note
        .find([':', ';'])
        .filter(|&i| i > 0 && i <= MARKER_CHARS)
        .unwrap_or(note.len());
    note[..cut].trim_end_matches('.').to_string()
}

/// How many columns of a marker text fit beside its column (a wide, CJK
/// character takes two).
pub const MARKER_CHARS: usize = 30;
/// How many characters of an arrow label fit between the columns.
pub const LABEL_CHARS: usize = 34;

/// Cuts `text` to `max` characters, ending with an ellipsis when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// Whether a character takes two columns (CJK and other wide scripts).
fn wide(c: char) -> bool {
    c > '\u{2e7f}'
}

/// `text` cut to `columns` columns (a wide, CJK character takes two),
/// with an ellipsis when cut.
pub fn fit_columns(text: &str, columns: usize) -> String {
    let width = |c: char| if wide(c) { 2 } else { 1 };
    if text.chars().map(width).sum::<usize>() <= columns {
        return text.to_string();
    }
    let mut used = 0;
    let mut out = String::new();
    for c in text.chars() {
        used += width(c);
        if used > columns.saturating_sub(1) {
            break;
        }
        out.push(c);
    }
    out.push('\u{2026}');
    out
}

/// About how wide `text` is in the diagram's 11px monospace font, in SVG
/// units (a wide character as its font draws it, under two narrow ones).
pub fn text_width(text: &str) -> f64 {
    text.chars()
        .map(|c| if wide(c) { 11.6 } else { 6.65 })
        .sum()
}

/// The wire text pretty-printed when it is JSON, else as it is; a
/// bidirectional control character (an RTL override, an isolate) shown as
/// its `\uXXXX` escape, so that a message cannot reorder what is drawn
/// after it (in JSON text the escape means the same character).
pub fn pretty_wire(message: &MessageEvent) -> String {
    if message.wire.is_empty() {
        return "(no body)".to_string();
    }
    let text = serde_json::from_str::<serde_json::Value>(&message.wire)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| message.wire.clone());
    visible_controls(&text)
}

/// `text` with each bidirectional control character written `\uXXXX`.
pub fn visible_controls(text: &str) -> String {
    let bidi = |c: char| matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !text.chars().any(bidi) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if bidi(c) {
                format!("\\u{:04x}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Locks held in a lane at virtual time `t` (taken and not yet released).
pub fn held_locks(timeline: &Timeline, t: Option<u64>) -> Vec<String> {
    let Some(t) = t else {
        return Vec::new();
    };
    let mut held: Vec<String> = Vec::new();
    for e in timeline.events.iter().take_while(|e| e.at_ms <= t) {
        match &e.kind {
            EventKind::LockTaken { name } => held.push(name.clone()),
            EventKind::LockReleased { name } => {
                if let Some(i) = held.iter().position(|n| n == name) {
                    held.remove(i);
                }
            }
            _ => {}
        }
    }
    held
}

/// A lock's held span in a lane: taken at event `taken`, released at event
/// `released` (if ever).
#[derive(Debug, Clone, PartialEq)]
pub struct LockSpan {
    /// Event position of LockTaken.
    pub taken: usize,
    /// Event position of the matching LockReleased.
    pub released: Option<usize>,
    /// Lock name.
    pub name: String,
}

/// Every lock span of a lane.
pub fn lock_spans(timeline: &Timeline) -> Vec<LockSpan> {
    let mut spans: Vec<LockSpan> = Vec::new();
    for (i, e) in timeline.events.iter().enumerate() {
        match &e.kind {
            EventKind::LockTaken { name } => spans.push(LockSpan {
                taken: i,
                released: None,
                name: name.clone(),
            }),
            EventKind::LockReleased { name } => {
                if let Some(span) = spans
                    .iter_mut()
                    .find(|s| s.released.is_none() && &s.name == name)
                {
                    span.released = Some(i);
                }
            }
            _ => {}
        }
    }
    spans
}
