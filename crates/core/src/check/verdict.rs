//! What the grader says about one rule at one exchange, and the counts
//! per rule that the page's summary and the CLI's last line show.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::note::Note;
use crate::rules::{self, RuleId};

/// The outcome of one rule at one exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Outcome {
    /// The server did what the rule says.
    #[serde(rename = "pass")]
    Pass,
    /// The server departed from the rule.
    #[serde(rename = "fail")]
    Fail,
    /// Nothing in the run exercised the rule.
    #[serde(rename = "n/a")]
    NotApplicable,
    /// The message departed from the rule, and the recording said it would:
    /// the message is marked as a deliberate violation (a transcript's
    /// `"violation": "why"`). Not a failure of the recording.
    #[serde(rename = "expected-failure")]
    ExpectedFailure,
}

impl Outcome {
    /// `pass`, `fail`, `n/a` or `expected-failure`, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::NotApplicable => "n/a",
            Outcome::ExpectedFailure => "expected-failure",
        }
    }

    /// Reads what [`Outcome::as_str`] wrote.
    pub fn from_name(name: &str) -> Option<Outcome> {
        Some(match name {
            "pass" => Outcome::Pass,
            "fail" => Outcome::Fail,
            "n/a" => Outcome::NotApplicable,
            "expected-failure" => Outcome::ExpectedFailure,
            _ => return None,
        })
    }
}

/// One rule judged at one exchange.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// The rule ID of `spec/RULES.md` (e.g. `M-UNKNOWN-TOOL`).
    pub rule: String,
    /// Pass, fail or n/a.
    pub verdict: Outcome,
    /// What the rule asks for here, in a few words (English).
    pub expected: String,
    /// What the server did (English, with server-provided text; rendered
    /// as text).
    pub got: String,
    /// `expected` as a catalog message (see [`crate::note`]), so a view
    /// can say it in another language; absent in reports of before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_msg: Option<Value>,
    /// `got` as a catalog message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub got_msg: Option<Value>,
    /// The index in `timeline.events` ([`crate::sim::Event::index`]) of
    /// the message judged: the server's answer, or the client's request
    /// when no answer came. `None` for a verdict about the whole run
    /// (a rule nothing exercised).
    pub exchange: Option<usize>,
}

impl Verdict {
    /// A verdict on `rule`.
    pub fn new(
        rule: RuleId,
        verdict: Outcome,
        expected: impl Into<Note>,
        got: impl Into<Note>,
        exchange: Option<usize>,
    ) -> Verdict {
        let (expected, expected_msg) = expected.into().into_parts();
        let (got, got_msg) = got.into().into_parts();
        Verdict {
            rule: rule.to_string(),
            verdict,
            expected,
            got,
            expected_msg,
            got_msg,
            exchange,
        }
    }

    /// Pass when `ok`, else fail.
    pub fn judge(
        rule: RuleId,
        ok: bool,
        expected: impl Into<Note>,
        got: impl Into<Note>,
        exchange: usize,
    ) -> Verdict {
        let outcome = if ok { Outcome::Pass } else { Outcome::Fail };
        Verdict::new(rule, outcome, expected, got, Some(exchange))
    }

    /// The spec link of the verdict's rule (empty for a lesson rule or an
    /// unknown ID).
    pub fn spec_url(&self) -> &'static str {
        rules::find(&self.rule).map(|r| r.spec_url).unwrap_or("")
    }
}

/// The counts of one rule across a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleCount {
    /// The rule ID.
    pub rule: String,
    /// Exchanges that passed it.
    pub passed: usize,
    /// Exchanges that failed it.
    pub failed: usize,
    /// Verdicts that said n/a.
    pub not_applicable: usize,
    /// Exchanges that broke it where the recording said they would
    /// ([`Outcome::ExpectedFailure`]); absent in reports of before.
    #[serde(default)]
    pub expected_failures: usize,
}

impl RuleCount {
    /// The rule's outcome over the run: fail if any exchange failed it,
    /// else expected failure if a marked violation broke it, else pass if
    /// any passed it, else n/a.
    pub fn outcome(&self) -> Outcome {
        if self.failed > 0 {
            Outcome::Fail
        } else if self.expected_failures > 0 {
            Outcome::ExpectedFailure
        } else if self.passed > 0 {
            Outcome::Pass
        } else {
            Outcome::NotApplicable
        }
    }
}

/// Counts per rule, in rule-ID order, and how many rules passed, failed
/// or were not exercised ("n rules passed, m failed").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// One entry per rule that has a verdict, sorted by rule ID.
    pub rules: Vec<RuleCount>,
    /// Rules with at least one pass and no fail.
    pub passed: usize,
    /// Rules with at least one fail.
    pub failed: usize,
    /// Rules with n/a verdicts only.
    pub not_applicable: usize,
    /// Rules broken only where the recording said they would be.
    #[serde(default)]
    pub expected_failures: usize,
}

/// Counts the verdicts per rule.
pub fn summary(verdicts: &[Verdict]) -> Summary {
    let mut counts: Vec<RuleCount> = Vec::new();
    for v in verdicts {
        let at = match counts.binary_search_by(|c| c.rule.as_str().cmp(&v.rule)) {
            Ok(at) => at,
            Err(at) => {
                counts.insert(
                    at,
                    RuleCount {
                        rule: v.rule.clone(),
                        passed: 0,
                        failed: 0,
                        not_applicable: 0,
                        expected_failures: 0,
                    },
                );
                at
            }
        };
        let count = &mut counts[at];
        match v.verdict {
            Outcome::Pass => count.passed += 1,
            Outcome::Fail => count.failed += 1,
            Outcome::NotApplicable => count.not_applicable += 1,
            Outcome::ExpectedFailure => count.expected_failures += 1,
        }
    }
    let mut out = Summary::default();
    for c in &counts {
        match c.outcome() {
            Outcome::Pass => out.passed += 1,
            Outcome::Fail => out.failed += 1,
            Outcome::NotApplicable => out.not_applicable += 1,
            Outcome::ExpectedFailure => out.expected_failures += 1,
        }
    }
    out.rules = counts;
    out
}
