//! A check's report as data and as JSON, and the merging of a check's
//! flows into the one timeline the report carries.

use serde::Serialize;
use serde_json::Value;

use super::verdict::{Outcome, Verdict};
use crate::note::Note;
use crate::sim::{Event, EventKind, Side, Summary, Timeline};

/// What `mcp-lanes check` found: serialized as
/// `{"target", "era", "verdicts": [{"rule", "verdict", "expected", "got",
/// "exchange"}], "timeline": {...}}`, `timeline` in the page's format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The server checked (a URL, or `stdio: COMMAND`).
    pub target: String,
    /// The era it showed ([`super::era`]).
    pub era: String,
    /// Every verdict, sorted by exchange then rule ([`super::grade`]).
    pub verdicts: Vec<Verdict>,
    /// The check's flows merged into one timeline ([`merge`]);
    /// [`Verdict::exchange`] indexes its events.
    pub timeline: Timeline,
}

impl Report {
    /// Grades `timeline` and makes the report.
    pub fn new(target: impl Into<String>, timeline: Timeline) -> Report {
        Report {
            target: target.into(),
            era: super::era(&timeline).as_str().to_string(),
            verdicts: super::grade(&timeline),
            timeline,
        }
    }

    /// Whether any verdict failed.
    pub fn failed(&self) -> bool {
        self.verdicts.iter().any(|v| v.verdict == Outcome::Fail)
    }

    /// The report as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads what [`Report::to_json`] wrote. Read by hand from a `Value`
    /// like [`Timeline::from_json`] (derived readers cost WebAssembly
    /// size). `None` if anything is missing or mistyped.
    pub fn from_json(text: &str) -> Option<Report> {
        let value: Value = serde_json::from_str(text).ok()?;
        Some(Report {
            target: value.get("target")?.as_str()?.to_string(),
            era: value.get("era")?.as_str()?.to_string(),
            verdicts: value
                .get("verdicts")?
                .as_array()?
                .iter()
                .map(read_verdict)
                .collect::<Option<_>>()?,
            timeline: Timeline::from_value(value.get("timeline")?)?,
        })
    }
}

/// Reads a JSON array of verdicts (what [`Verdict`]'s `Serialize` writes,
/// e.g. the page's schema worker's answer). `None` if anything is missing
/// or mistyped.
pub fn verdicts_from_json(text: &str) -> Option<Vec<Verdict>> {
    let value: Value = serde_json::from_str(text).ok()?;
    value.as_array()?.iter().map(read_verdict).collect()
}

fn read_verdict(v: &Value) -> Option<Verdict> {
    let text = |key: &str| v.get(key)?.as_str().map(str::to_string);
    Some(Verdict {
        rule: text("rule")?,
        verdict: Outcome::from_name(v.get("verdict")?.as_str()?)?,
        expected: text("expected")?,
        got: text("got")?,
        expected_msg: v.get("expected_msg").cloned(),
        got_msg: v.get("got_msg").cloned(),
        exchange: match v.get("exchange") {
            None | Some(Value::Null) => None,
            Some(n) => Some(n.as_u64()?.try_into().ok()?),
        },
    })
}

/// Joins a check's flows into one timeline, in run order: each flow is
/// opened by a client `Decision` event naming it, its events follow with
/// times shifted to start where the previous flow ended, and indexes run
/// on. The lane headers are the first flow's; `label` names the whole.
pub fn merge(label: &str, flows: &[Timeline]) -> Option<Timeline> {
    merge_labelled(label, flows, &[])
}

/// [`merge`], each flow named by a note (`labels[n]`, a catalog message a
/// view can say in another language; a flow without one is named by its
/// timeline's label, as it is).
pub fn merge_labelled(label: &str, flows: &[Timeline], labels: &[Note]) -> Option<Timeline> {
    let first = flows.first()?;
    let mut events: Vec<Event> = Vec::new();
    let mut offset = 0u64;
    let mut leaked = 0u32;
    let mut outcomes = Vec::new();
    let mut outcome_msgs = Vec::new();
    for (n, flow) in flows.iter().enumerate() {
        let (note, note_msg) = crate::note!(
            "check.flow",
            "Flow {n} of {count}: {label}",
            n = n + 1,
            count = flows.len(),
            label = labels
                .get(n)
                .cloned()
                .unwrap_or_else(|| Note::from(flow.label.clone()))
        )
        .into_parts();
        events.push(Event {
            index: events.len(),
            at_ms: offset,
            kind: EventKind::Decision { side: Side::Client },
            rules: Vec::new(),
            note,
            note_msg,
            narration: None,
            actor: None,
        });
        for event in &flow.events {
            let mut event = event.clone();
            event.index = events.len();
            event.at_ms = event.at_ms.saturating_add(offset);
            if let EventKind::Message(m) = &mut event.kind {
                m.delivered_at_ms = m.delivered_at_ms.map(|t| t.saturating_add(offset));
            }
            events.push(event);
        }
        offset = offset.saturating_add(flow.summary.ended_at_ms);
        leaked = leaked.saturating_add(flow.summary.leaked_locks);
        // A sentence several flows end with (a live run's) is said once.
        if !outcomes.contains(&flow.summary.outcome) {
            outcomes.push(flow.summary.outcome.clone());
            outcome_msgs.push(flow.summary.outcome_msg.clone());
        }
    }
    Some(Timeline {
        label: label.to_string(),
        transport: first.transport,
        client_label: first.client_label.clone(),
        actors: first.actors.clone(),
        server_label: first.server_label.clone(),
        events,
        summary: Summary {
            leaked_locks: leaked,
            ended_at_ms: offset,
            outcome: outcomes.join(" "),
            // The flows' outcomes one after the other (a sentence each),
            // when every flow's can be said in another language.
            outcome_msg: outcome_msgs
                .into_iter()
                .collect::<Option<Vec<Value>>>()
                .map(Value::Array),
        },
    })
}
