//! Recorded conversations from outside the simulator, as timelines the
//! page draws and the grader judges: a transcript (a JSON array of
//! JSON-RPC messages, bare or wrapped as [`crate::transcript`] writes
//! them), the `run --format json` document (a lane per set-up), a HAR 1.2
//! capture of Streamable HTTP traffic, and, as before, timelines
//! (`client --out`) and check reports (`check --out`).
//!
//! One entry point, [`read`]: the format is recognised from the content
//! (`detect`), each format read by its module (`transcript`, `har`), the
//! messages turned into a [`Timeline`] per lane (`build`): who sent each
//! (`direction`), its era and revision, its times. Sans-IO and
//! deterministic like the rest of the core; bounded ([`MAX_BYTES`],
//! [`MAX_MESSAGES`]); never a panic on input.
//!
//! **One policy for bad input.** A file that is not recognisable as one of
//! the formats is refused whole ([`ImportError`], naming the first entry
//! that does not fit and why). In a recognised file, a malformed entry
//! ends its lane: the lane is drawn up to the entry before it, and a
//! [`Notice`] names the entry and why.
//!
//! Grading: [`Imported::report`] (one [`Report`], lanes merged, as
//! `check` prints it) or [`crate::check::grade_recorded`] per lane.

mod build;
mod detect;
mod direction;
mod era;
mod har;
pub mod replay;
mod sessions;
mod time;
mod transcript;

use serde_json::Value;

use crate::check::{self, Report, Verdict};
use crate::note::Note;
use crate::sim::Timeline;

pub use detect::is_recording;

/// The largest file read: 4 MiB.
pub const MAX_BYTES: usize = 4 * 1024 * 1024;
/// The most messages read from one file, over every lane.
pub const MAX_MESSAGES: usize = 10_000;
/// The time between two messages when the recording gives none: the
/// simulator's one-way latency (20 ms), so an imported transcript is
/// spaced as a simulated run is.
pub const STEP_MS: u64 = 20;

/// Which format a file was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// A JSON array of JSON-RPC messages (or `{"message": …}` wrappers).
    Transcript,
    /// The `run --format json` document: `{"scenario", "setups": [{"label",
    /// "transcript"}]}`, one lane per set-up.
    RunDocument,
    /// A HAR 1.2 capture (`{"log": {"entries": […]}}`).
    Har,
    /// Timelines as `client --out` writes them (one, or an array).
    Timelines,
    /// A check report as `check --out` writes it (its verdicts kept).
    Report,
}

impl Format {
    /// The format's name (`transcript`, `run-document`, `har`,
    /// `timelines`, `report`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Transcript => "transcript",
            Format::RunDocument => "run-document",
            Format::Har => "har",
            Format::Timelines => "timelines",
            Format::Report => "report",
        }
    }
}

/// Something the reader wants said about a file it read: a malformed
/// entry that ended a lane, HAR entries left out, a body not captured.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The lane it is about (an index into [`Imported::lanes`]).
    pub lane: usize,
    /// The entry it names (its index in the file's array: the transcript's,
    /// or `log.entries` of a HAR), if it names one.
    pub entry: Option<usize>,
    /// What to tell the reader (English, and a catalog message for another
    /// language: [`Note::text`], [`Note::msg`]).
    pub note: Note,
}

/// A file read: its lanes, ready to draw and grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The format it was read as.
    pub format: Format,
    /// One timeline per lane (a transcript, a HAR: one; a run document: one
    /// per set-up).
    pub lanes: Vec<Timeline>,
    /// What the reader should be told (empty for a clean file).
    pub notices: Vec<Notice>,
    /// A check report read as it was written (its verdicts are the
    /// report's, not graded again); `None` for every other format.
    pub report: Option<Report>,
}

/// Why a file was refused whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportErrorKind {
    /// Larger than [`MAX_BYTES`].
    TooLarge,
    /// Not JSON text.
    NotJson,
    /// More than [`MAX_MESSAGES`] messages.
    TooManyMessages,
    /// JSON, but none of the formats.
    Unrecognised,
    /// A recognised format holding no message.
    Empty,
}

/// A file refused whole, with the one sentence that says why.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportError {
    /// Why, as a kind.
    pub kind: ImportErrorKind,
    /// Why, for the reader (names the file, and the first entry that does
    /// not fit, with its index).
    pub note: Note,
}

impl ImportError {
    fn new(kind: ImportErrorKind, note: Note) -> ImportError {
        ImportError { kind, note }
    }
}

/// Reads a recorded conversation from the text of a file called `source`
/// (its name is only said in messages). Recognises the format from the
/// content.
pub fn read(source: &str, text: &str) -> Result<Imported, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::new(
            ImportErrorKind::TooLarge,
            crate::note!(
                "import.too_large",
                "{source} is {size} bytes, over the {limit}-byte limit for a recording.",
                source = source,
                size = text.len(),
                limit = MAX_BYTES
            ),
        ));
    }
    // serde_json refuses nesting deeper than 128 levels: hostile depth is
    // an error here, not a stack overflow.
    let value: Value = serde_json::from_str(text).map_err(|e| {
        ImportError::new(
            ImportErrorKind::NotJson,
            crate::note!(
                "import.not_json",
                "{source} is not JSON ({error}), so it is no recorded conversation.",
                source = source,
                error = e.to_string()
            ),
        )
    })?;
    detect::read(source, text, &value)
}

/// A notice for each message of `lane` (lane `n`) whose sender is not
/// known; `by_entry`: its event index is its entry's index in the file.
fn undecided_notices(n: usize, lane: &Timeline, by_entry: bool, out: &mut Vec<Notice>) {
    for (event, message) in lane.messages() {
        if let Some(why) = &message.undecided {
            let why = match &message.undecided_msg {
                Some(msg) => Note::from_parts(why.clone(), crate::note::Msg::from_value(msg)),
                None => Note::from(why.clone()),
            };
            out.push(Notice {
                lane: n,
                entry: by_entry.then_some(event.index),
                note: crate::note!(
                    "import.undecided_notice",
                    "Message {index} ({label}) is drawn between the two sides and left out of the grading: {why}.",
                    index = event.index,
                    label = message.label.clone(),
                    why = why
                ),
            });
        }
    }
}

impl Imported {
    /// Every lane graded by the grader `check` uses, with the rules a
    /// recording shows ([`check::grade_recorded`]); a check report's own
    /// verdicts for a report.
    pub fn verdicts(&self) -> Vec<Vec<Verdict>> {
        match &self.report {
            Some(report) => vec![report.verdicts.clone()],
            None => self.lanes.iter().map(check::grade_recorded).collect(),
        }
    }

    /// The one report `check --transcript` prints: a check report as it
    /// was; else every lane graded on its own ([`check::grade_recorded`]),
    /// the lanes merged into one timeline as a check's flows are
    /// ([`check::merge`], each lane opened by a `Decision` naming it) and
    /// each verdict pointed at its event there. `target` names the
    /// recording (its file).
    pub fn report(&self, target: &str) -> Report {
        if let Some(report) = &self.report {
            return report.clone();
        }
        let graded = self.verdicts();
        if let [lane] = self.lanes.as_slice() {
            return Report {
                target: target.to_string(),
                era: check::era(lane).as_str().to_string(),
                verdicts: graded.into_iter().next().unwrap_or_default(),
                timeline: lane.clone(),
            };
        }
        let labels: Vec<Note> = self
            .lanes
            .iter()
            .map(|t| Note::from(t.label.clone()))
            .collect();
        let Some(timeline) = check::merge_labelled(target, &self.lanes, &labels) else {
            return Report {
                target: target.to_string(),
                era: check::UNKNOWN.to_string(),
                verdicts: Vec::new(),
                timeline: build::empty(target),
            };
        };
        let mut verdicts = Vec::new();
        let mut start = 0usize;
        for (lane, lane_verdicts) in self.lanes.iter().zip(graded) {
            // The lane's opening Decision, then its events.
            let first = start + 1;
            for mut v in lane_verdicts {
                v.exchange = v.exchange.map(|i| first + i);
                verdicts.push(v);
            }
            start = first + lane.events.len();
        }
        check::sort(&mut verdicts);
        Report {
            target: target.to_string(),
            era: check::era(&timeline).as_str().to_string(),
            verdicts,
            timeline,
        }
    }
}

#[cfg(test)]
mod tests;
