//! Conversations recorded outside the page and graded rule by rule: what
//! `mcp-lanes check --out FILE` writes (a check report, with its verdicts),
//! what `mcp-lanes client --out FILE` writes (an array of timelines), a
//! single timeline, a transcript (a JSON array of JSON-RPC messages), the
//! `run --format json` document or a HAR capture: whatever the core's
//! importer (`mcp_lanes_core::import`) reads. A file without verdicts is
//! graded here with the core's grader (`check::grade_recorded`): the page
//! judges nothing itself.
//!
//! Data layer: plain Rust over the core, built and tested natively.

use std::rc::Rc;

use mcp_lanes_core::check::{self, Outcome, Summary, Verdict};
use mcp_lanes_core::import::{self, Imported, Notice};
use mcp_lanes_core::sim::Timeline;

use crate::i18n::{self, tf};

/// One graded run: a lane.
#[derive(Debug, Clone, PartialEq)]
pub struct GradedRun {
    /// What happened.
    pub timeline: Rc<Timeline>,
    /// The verdicts on its events ([`Verdict::exchange`] indexes them).
    pub verdicts: Rc<Vec<Verdict>>,
}

/// A recorded check, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// Where it came from (a file name or a URL), shown as the title.
    pub source: String,
    /// The server checked (from a report, else the first timeline's
    /// server label).
    pub target: String,
    /// The era the check found (a report's), if known.
    pub era: Option<String>,
    /// The runs, one lane each.
    pub runs: Vec<GradedRun>,
    /// Whether the verdicts were computed here (the file had none).
    pub graded_here: bool,
    /// What the importer wants the reader told (a malformed entry that
    /// ended a lane, a message whose sender is not known, HAR entries
    /// left out); rendered in the page's language by [`notice_text`].
    pub notices: Vec<Notice>,
}

impl Checked {
    /// Every verdict of every run.
    pub fn verdicts(&self) -> Vec<Verdict> {
        self.runs
            .iter()
            .flat_map(|r| r.verdicts.iter().cloned())
            .collect()
    }

    /// The counts per rule over every run.
    pub fn summary(&self) -> Summary {
        check::summary(&self.verdicts())
    }
}

/// Reads a recorded conversation from the text of a file called `source`:
/// every format the core's importer recognises ([`import::read`]: a
/// transcript, the `run --format json` document, a HAR capture, timelines,
/// a check report). A report keeps its verdicts; every other format is
/// graded here by the core ([`Imported::verdicts`], the grader of
/// `mcp-lanes check --transcript`). An error says what is wrong, in words
/// for the reader (the page's language).
pub fn read(source: &str, text: &str) -> Result<Checked, String> {
    let imported = import::read(source, text).map_err(|e| i18n::note(&e.note))?;
    let verdicts = imported.verdicts();
    Ok(from_imported(source, imported, verdicts))
}

/// Reads a conversation still going on (`?tap=`) as [`read`] does, graded
/// by the core as one (`check::grade_so_far`): a request whose answer has
/// not come yet is no failure.
pub fn read_so_far(source: &str, text: &str) -> Result<Checked, String> {
    let imported = import::read(source, text).map_err(|e| i18n::note(&e.note))?;
    let verdicts = match &imported.report {
        Some(_) => imported.verdicts(),
        None => imported.lanes.iter().map(check::grade_so_far).collect(),
    };
    Ok(from_imported(source, imported, verdicts))
}

/// A file the importer read, as the page draws it, with its verdicts.
fn from_imported(source: &str, imported: Imported, verdicts: Vec<Vec<Verdict>>) -> Checked {
    let graded_here = imported.report.is_none();
    let (target, era) = match &imported.report {
        Some(report) => (report.target.clone(), Some(report.era.clone())),
        None => (
            match imported.format {
                // A recording names no server: the file does.
                import::Format::Timelines => imported
                    .lanes
                    .first()
                    .map(|t| t.server_label.clone())
                    .unwrap_or_default(),
                _ => source.to_string(),
            },
            None,
        ),
    };
    let runs = match imported.report {
        Some(report) => vec![GradedRun {
            timeline: Rc::new(report.timeline),
            verdicts: Rc::new(report.verdicts),
        }],
        None => imported
            .lanes
            .into_iter()
            .zip(verdicts)
            .map(|(t, v)| GradedRun {
                timeline: Rc::new(t),
                verdicts: Rc::new(v),
            })
            .collect(),
    };
    Checked {
        source: source.to_string(),
        target,
        era,
        runs,
        graded_here,
        notices: imported.notices,
    }
}

/// A notice of the importer in the page's language, with the lane it is
/// about when there are several.
pub fn notice_text(notice: &Notice, lanes: usize) -> String {
    let text = i18n::note(&notice.note);
    if lanes > 1 {
        tf(
            "check.notice_lane",
            &[("lane", &(notice.lane + 1).to_string()), ("text", &text)],
        )
    } else {
        text
    }
}

/// "3 rules passed, 1 failed" (and how many were not exercised).
pub fn summary_line(summary: &Summary) -> String {
    let key = if summary.passed == 1 {
        "check.summary_one"
    } else {
        "check.summary_many"
    };
    let mut line = tf(
        key,
        &[
            ("passed", &summary.passed.to_string()),
            ("failed", &summary.failed.to_string()),
        ],
    );
    if summary.expected_failures > 0 {
        line.push_str(&tf(
            "check.expected_failures",
            &[("count", &summary.expected_failures.to_string())],
        ));
    }
    if summary.not_applicable > 0 {
        line.push_str(&tf(
            "check.not_exercised",
            &[("count", &summary.not_applicable.to_string())],
        ));
    }
    line
}

/// The verdicts on event `index`, in their order.
pub fn verdicts_at(verdicts: &[Verdict], index: usize) -> Vec<&Verdict> {
    verdicts
        .iter()
        .filter(|v| v.exchange == Some(index))
        .collect()
}

/// What one mark on a message says: fail if any verdict there failed, else
/// pass if any passed, else n/a.
pub fn overall(verdicts: &[&Verdict]) -> Option<Outcome> {
    if verdicts.is_empty() {
        None
    } else if verdicts.iter().any(|v| v.verdict == Outcome::Fail) {
        Some(Outcome::Fail)
    } else if verdicts
        .iter()
        .any(|v| v.verdict == Outcome::ExpectedFailure)
    {
        Some(Outcome::ExpectedFailure)
    } else if verdicts.iter().any(|v| v.verdict == Outcome::Pass) {
        Some(Outcome::Pass)
    } else {
        Some(Outcome::NotApplicable)
    }
}

/// Where a rule is explained: its spec link, if the catalog has one.
pub fn rule_link(rule: &str) -> Option<&'static str> {
    mcp_lanes_core::rules::find(rule)
        .map(|r| r.spec_url)
        .filter(|u| !u.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_lanes_core::check::Report;
    use serde_json::Value;

    fn timeline_json() -> String {
        let setups = mcp_lanes_core::scenarios::setups("discover").unwrap_or_default();
        let runs: Vec<Timeline> = setups.iter().map(mcp_lanes_core::sim::run).collect();
        serde_json::to_string(&runs).unwrap_or_default()
    }

    #[test]
    fn client_timelines_are_graded_here() {
        let text = timeline_json();
        let checked = read("run.json", &text).expect("timelines read");
        assert!(checked.graded_here);
        assert!(!checked.runs.is_empty());
        assert!(checked.runs.iter().all(|r| !r.verdicts.is_empty()));
        // The discover scenario's server is correct: nothing fails.
        assert_eq!(checked.summary().failed, 0, "{:?}", checked.verdicts());
        // A single timeline reads too.
        let one: Value = serde_json::from_str(&text).expect("json");
        let one = one[0].to_string();
        assert_eq!(read("one.json", &one).map(|c| c.runs.len()), Ok(1));
    }

    #[test]
    fn reports_keep_their_verdicts() {
        let text = timeline_json();
        let timelines = Timeline::from_json(&text).unwrap_or_default();
        let first = timelines.into_iter().next().expect("a run");
        let report = Report::new("http://127.0.0.1:1/mcp", first);
        let checked = read("check.json", &report.to_json()).expect("report read");
        assert!(!checked.graded_here);
        assert_eq!(checked.target, "http://127.0.0.1:1/mcp");
        assert_eq!(checked.runs[0].verdicts.as_ref(), &report.verdicts);
    }

    #[test]
    fn bad_files_say_what_they_are() {
        for (text, says) in [
            ("nope", "not JSON"),
            ("{\"verdicts\": 3}", "check report"),
            ("{\"a\": 1}", "not a recording"),
            ("[]", "no message"),
            ("[1, 2]", "entry 0"),
        ] {
            let err = read("f.json", text).expect_err(text);
            assert!(err.contains(says), "{text}: {err}");
        }
        let big = " ".repeat(import::MAX_BYTES + 1);
        assert!(read("big.json", &big).is_err_and(|e| e.contains("limit")));
    }

    #[test]
    fn transcripts_read_with_their_notices() {
        let fixture = |name: &str| {
            let path = format!(
                "{}/tests/fixtures/import/{name}",
                env!("CARGO_MANIFEST_DIR")
            );
            std::fs::read_to_string(path).unwrap_or_default()
        };
        let checked = read("undecided.json", &fixture("undecided.json")).expect("a transcript");
        assert!(checked.graded_here);
        assert_eq!(checked.target, "undecided.json");
        assert_eq!(checked.runs.len(), 1);
        assert!(!checked.notices.is_empty(), "the undecided message is said");
        assert!(notice_text(&checked.notices[0], 1).contains("between the two sides"));
        let har = read("c.har", &fixture("chromium-streamable-http.har")).expect("a HAR");
        assert!(har.runs[0].timeline.messages().count() > 4);
        // A malformed entry mid-file: the lane ends before it, with a notice.
        let cut = r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":1,"result":{"tools":[]}},{"nope":true}]"#;
        let checked = read("cut.json", cut).expect("read up to the bad entry");
        assert_eq!(checked.runs[0].timeline.messages().count(), 2);
        assert!(
            checked.notices.iter().any(|n| n.entry == Some(2)),
            "{:?}",
            checked.notices
        );
    }

    #[test]
    fn summaries_read_like_feedback() {
        let summary = Summary {
            rules: Vec::new(),
            passed: 3,
            failed: 1,
            not_applicable: 2,
            expected_failures: 0,
        };
        assert_eq!(
            summary_line(&summary),
            "3 rules passed, 1 failed, 2 not exercised"
        );
        let marked = Summary {
            expected_failures: 1,
            ..summary.clone()
        };
        assert_eq!(
            summary_line(&marked),
            "3 rules passed, 1 failed, 1 expected to fail (marked violations), 2 not exercised"
        );
        let v = |o| Verdict {
            rule: "S-ANSWER".into(),
            verdict: o,
            expected: String::new(),
            got: String::new(),
            expected_msg: None,
            got_msg: None,
            exchange: Some(4),
        };
        let all = [v(Outcome::Pass), v(Outcome::Fail)];
        let at: Vec<&Verdict> = verdicts_at(&all, 4);
        assert_eq!(overall(&at), Some(Outcome::Fail));
        assert_eq!(overall(&verdicts_at(&all, 5)), None);
    }
}
