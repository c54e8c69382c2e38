//! The check as text, read like a lesson's feedback: what failed first,
//! each with the rule, what was expected, what came, the exchange and the
//! spec link; then what passed, what was not exercised, what was skipped.
//! Every server-provided string is printed as text on one line.

use mcp_lanes_core::check::{self, Outcome, Report, Verdict};
use mcp_lanes_core::rules;
use mcp_lanes_core::sim::EventKind;

/// Control characters (a server's newlines, escapes) shown as spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// What the exchange's event is, for the reader: `#12 (tools/call answer)`.
fn exchange(report: &Report, v: &Verdict) -> String {
    let Some(index) = v.exchange else {
        return "the whole run".into();
    };
    let label = report
        .timeline
        .events
        .get(index)
        .and_then(|e| match &e.kind {
            EventKind::Message(m) => Some(format!("{} {}", m.from.name(), one_line(&m.label))),
            _ => None,
        })
        .unwrap_or_default();
    format!("exchange #{index} ({label})")
}

/// The flows that ran: their opening events in the merged timeline.
fn flows(report: &Report) -> Vec<String> {
    report
        .timeline
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Decision { .. }) && e.note.starts_with("Flow "))
        .map(|e| format!("  #{:<4} {}", e.index, one_line(&e.note)))
        .collect()
}

/// The first sentence of a rule summary ("e.g." does not end one).
fn first_sentence(text: &str) -> &str {
    let mut from = 0;
    while let Some(at) = text[from..].find(". ") {
        let end = from + at;
        if !text[..end].ends_with("e.g") && !text[..end].ends_with("i.e") {
            return &text[..=end];
        }
        from = end + 2;
    }
    text
}

/// The whole text report.
pub fn text(
    report: &Report,
    skipped: &[String],
    problems: &[String],
    stderr_tail: Option<&str>,
) -> String {
    let mut out = String::new();
    out.push_str(&format!("Checking {}\n", one_line(&report.target)));
    out.push_str(&format!("Era: {}\n\nFlows:\n", report.era));
    for line in flows(report) {
        out.push_str(&line);
        out.push('\n');
    }
    if !skipped.is_empty() {
        out.push_str("\nSkipped:\n");
        for s in skipped {
            out.push_str(&format!("  - {}\n", one_line(s)));
        }
    }
    if !problems.is_empty() {
        out.push_str("\nBelow the protocol:\n");
        for p in problems {
            out.push_str(&format!("  - {}\n", one_line(p)));
        }
    }
    let failed: Vec<&Verdict> = report
        .verdicts
        .iter()
        .filter(|v| v.verdict == Outcome::Fail)
        .collect();
    if !failed.is_empty() {
        out.push_str("\nWhat to fix:\n");
        for v in &failed {
            out.push_str(&format!("  FAIL {} at {}\n", v.rule, exchange(report, v)));
            out.push_str(&format!("       expected: {}\n", one_line(&v.expected)));
            out.push_str(&format!("       got:      {}\n", one_line(&v.got)));
            let url = v.spec_url();
            if !url.is_empty() {
                out.push_str(&format!("       spec:     {url}\n"));
            }
        }
    }
    let summary = check::summary(&report.verdicts);
    let passed: Vec<_> = summary
        .rules
        .iter()
        .filter(|c| c.outcome() == Outcome::Pass)
        .collect();
    if !passed.is_empty() {
        out.push_str("\nWhat the server got right:\n");
        for c in passed {
            let what = rules::find(&c.rule).map(|r| r.summary).unwrap_or("");
            let first = first_sentence(what);
            let times = if c.passed == 1 {
                "1 exchange".to_string()
            } else {
                format!("{} exchanges", c.passed)
            };
            out.push_str(&format!(
                "  pass {} ({times}): {}\n",
                c.rule,
                one_line(first)
            ));
        }
    }
    let not_exercised: Vec<&Verdict> = report
        .verdicts
        .iter()
        .filter(|v| {
            v.verdict == Outcome::NotApplicable
                && summary
                    .rules
                    .iter()
                    .any(|c| c.rule == v.rule && c.outcome() == Outcome::NotApplicable)
        })
        .collect();
    if !not_exercised.is_empty() {
        out.push_str("\nNot exercised (n/a):\n");
        let mut seen: Vec<&str> = Vec::new();
        for v in not_exercised {
            if seen.contains(&v.rule.as_str()) {
                continue;
            }
            seen.push(&v.rule);
            out.push_str(&format!("  n/a  {}: {}\n", v.rule, one_line(&v.got)));
        }
    }
    if let Some(tail) = stderr_tail.filter(|_| !failed.is_empty() || !problems.is_empty()) {
        out.push_str("\nThe server's stderr ended with:\n");
        let lines: Vec<&str> = tail.lines().collect();
        for line in &lines[lines.len().saturating_sub(5)..] {
            out.push_str(&format!("  | {}\n", one_line(line)));
        }
    }
    out.push_str(&format!(
        "\n{} rule(s) passed, {} failed, {} not exercised. {}\n",
        summary.passed,
        summary.failed,
        summary.not_applicable,
        if summary.failed == 0 {
            "Nothing to fix."
        } else {
            "Fix the first failure first: later ones often follow from it."
        }
    ));
    out
}
