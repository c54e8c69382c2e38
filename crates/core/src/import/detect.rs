//! Which format a file is, from its content: an object with `verdicts` is
//! a check report, with `log` a HAR capture, with `setups` the
//! `run --format json` document, with `events` a timeline; an array of
//! timelines is `client --out`'s, any other array a transcript. Anything
//! else is refused with one sentence naming what was expected.

use serde_json::Value;

use super::{har, transcript, Format, ImportError, ImportErrorKind, Imported, MAX_MESSAGES};
use crate::check::Report;
use crate::note::Note;
use crate::sim::Timeline;

/// Whether `value` is a recording this module reads rather than a scenario
/// file (for `run --file`, which then points at `check --transcript`): a
/// transcript, a HAR capture or a `run --format json` document.
pub fn is_recording(value: &Value) -> bool {
    match value {
        Value::Array(entries) => entries.first().is_some_and(|e| transcript::fits(e).is_ok()),
        Value::Object(map) => {
            map.get("log").is_some_and(|l| l.get("entries").is_some())
                || map
                    .get("setups")
                    .and_then(|s| s.get(0))
                    .and_then(|s| s.get("transcript"))
                    .is_some_and(Value::is_array)
        }
        _ => false,
    }
}

/// The sentence of a file none of the formats fits, with `why` (which
/// entry does not fit, and how).
pub(super) fn unrecognised(source: &str, why: Note) -> ImportError {
    ImportError::new(
        ImportErrorKind::Unrecognised,
        crate::note!(
            "import.unrecognised",
            "{source} is not a recording mcp-lanes reads: {why}. Expected a transcript (a JSON array of JSON-RPC messages, or of {{\"message\": …}} wrappers), the `run --format json` document, a HAR capture, timelines (`client --out`) or a check report (`check --out`).",
            source = source,
            why = why
        ),
    )
}

/// The error for more than [`MAX_MESSAGES`] messages.
pub(super) fn too_many(source: &str) -> ImportError {
    ImportError::new(
        ImportErrorKind::TooManyMessages,
        crate::note!(
            "import.too_many",
            "{source} holds more than {limit} messages, the most a recording may have.",
            source = source,
            limit = MAX_MESSAGES
        ),
    )
}

/// The error for a recognised format holding nothing.
pub(super) fn empty(source: &str) -> ImportError {
    ImportError::new(
        ImportErrorKind::Empty,
        crate::note!(
            "import.empty",
            "{source} holds no message.",
            source = source
        ),
    )
}

/// A JSON type's name, for a sentence ("a number").
pub(super) fn type_name(v: &Value) -> Note {
    match v {
        Value::Null => crate::note!("import.type_null", "null"),
        Value::Bool(_) => crate::note!("import.type_bool", "a boolean"),
        Value::Number(_) => crate::note!("import.type_number", "a number"),
        Value::String(_) => crate::note!("import.type_string", "a string"),
        Value::Array(_) => crate::note!("import.type_array", "an array"),
        Value::Object(_) => crate::note!("import.type_object", "an object"),
    }
}

/// Reads `value` (the parsed `text`) in the format it has.
pub(super) fn read(source: &str, text: &str, value: &Value) -> Result<Imported, ImportError> {
    match value {
        Value::Object(map) if map.contains_key("verdicts") => {
            let report = Report::from_json(text).ok_or_else(|| {
                unrecognised(
                    source,
                    crate::note!(
                        "import.bad_report",
                        "it has verdicts like a check report, but not its fields ({{\"target\", \"era\", \"verdicts\", \"timeline\"}})"
                    ),
                )
            })?;
            if report.timeline.events.len() > MAX_MESSAGES {
                return Err(too_many(source));
            }
            Ok(Imported {
                format: Format::Report,
                lanes: vec![report.timeline.clone()],
                notices: Vec::new(),
                report: Some(report),
            })
        }
        Value::Object(map) if map.contains_key("log") => har::read(source, value),
        Value::Object(map) if map.contains_key("setups") => transcript::run_document(source, value),
        Value::Object(map) if map.contains_key("events") => {
            timelines(source, std::slice::from_ref(value))
        }
        Value::Object(map) if map.contains_key("jsonrpc") || map.contains_key("method") => {
            Err(unrecognised(
                source,
                crate::note!(
                    "import.single_message",
                    "it is a single JSON-RPC message, and a transcript is a JSON array of them"
                ),
            ))
        }
        Value::Object(_) => Err(unrecognised(
            source,
            crate::note!(
                "import.unknown_object",
                "it is an object without `log`, `setups`, `events` or `verdicts`"
            ),
        )),
        Value::Array(entries) if entries.is_empty() => Err(empty(source)),
        Value::Array(entries) if entries[0].is_object() && entries[0].get("events").is_some() => {
            timelines(source, entries)
        }
        Value::Array(entries) => transcript::read(source, entries),
        other => Err(unrecognised(
            source,
            crate::note!("import.not_array", "it is {kind}", kind = type_name(other)),
        )),
    }
}

/// Timelines as `client --out` writes them.
fn timelines(source: &str, entries: &[Value]) -> Result<Imported, ImportError> {
    let mut lanes = Vec::new();
    let mut count = 0usize;
    for (index, entry) in entries.iter().enumerate() {
        let Some(timeline) = Timeline::from_value(entry) else {
            return Err(unrecognised(
                source,
                crate::note!(
                    "import.bad_timeline",
                    "entry {index} looks like a timeline (it has events) but cannot be read as one",
                    index = index
                ),
            ));
        };
        count = count.saturating_add(timeline.events.len());
        if count > MAX_MESSAGES {
            return Err(too_many(source));
        }
        lanes.push(timeline);
    }
    Ok(Imported {
        format: Format::Timelines,
        lanes,
        notices: Vec::new(),
        report: None,
    })
}
