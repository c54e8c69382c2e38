//! The check as text, read like a lesson's feedback: what failed first,
//! each with the rule, what was expected, what came, the exchange and the
//! spec link; then what passed, what was not exercised, what was skipped.
//! Every server-provided string is printed as text on one line.

use mcp_lanes_core::check::{self, Outcome, Report, Verdict};
use mcp_lanes_core::note::Note;
use mcp_lanes_core::rules;
use mcp_lanes_core::sim::EventKind;

use crate::i18n::Catalog;

/// Control characters (a server's newlines, escapes) shown as spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// What the exchange's event is, for the reader: `#12 (tools/call answer)`.
pub(super) fn exchange(report: &Report, v: &Verdict, lang: &Catalog) -> String {
    let Some(index) = v.exchange else {
        return lang.text("cli.check.whole_run", "the whole run");
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
    lang.fill(
        "cli.check.exchange",
        "exchange #{index} ({label})",
        &[("index", index.to_string()), ("label", label)],
    )
}

/// The flows that ran: their opening events in the merged timeline.
fn flows(report: &Report, lang: &Catalog) -> Vec<String> {
    report
        .timeline
        .events
        .iter()
        .filter(|e| {
            matches!(e.kind, EventKind::Decision { .. })
                && (e.note_msg.as_ref().and_then(|m| m.get("key"))
                    == Some(&serde_json::Value::from("check.flow"))
                    || e.note.starts_with("Flow "))
        })
        .map(|e| {
            let note = lang.note(&e.note, e.note_msg.as_ref());
            format!("  #{:<4} {}", e.index, one_line(&note))
        })
        .collect()
}

/// The first sentence of a rule summary ("e.g." does not end one; a
/// Chinese summary's ends at "。").
fn first_sentence(text: &str) -> &str {
    if let Some(at) = text.find('\u{3002}') {
        return &text[..at + '\u{3002}'.len_utf8()];
    }
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

/// The whole text report, in `lang`'s language (the verdicts' words and
/// the rules' summaries from its catalog; a server's words as they are).
pub fn text(
    report: &Report,
    skipped: &[Note],
    problems: &[Note],
    stderr_tail: Option<&str>,
    notices: &[Note],
    lang: &Catalog,
) -> String {
    let say = |key: &str, english: &str| lang.text(key, english);
    let fill = |key: &str, english: &str, args: &[(&str, String)]| lang.fill(key, english, args);
    let mut out = String::new();
    out.push_str(&fill(
        "cli.check.checking",
        "Checking {target}",
        &[("target", one_line(&report.target))],
    ));
    out.push('\n');
    out.push_str(&fill(
        "cli.check.era",
        "Era: {era}",
        &[("era", report.era.clone())],
    ));
    out.push('\n');
    let flows = flows(report, lang);
    if !flows.is_empty() {
        out.push('\n');
        out.push_str(&say("cli.check.flows", "Flows:"));
        out.push('\n');
        for line in flows {
            out.push_str(&line);
            out.push('\n');
        }
    }
    if !notices.is_empty() {
        out.push('\n');
        out.push_str(&say("cli.check.notices", "About the recording:"));
        out.push('\n');
        for n in notices {
            let msg = n.msg().map(mcp_lanes_core::note::Msg::to_value);
            out.push_str(&format!(
                "  - {}\n",
                one_line(&lang.note(n.text(), msg.as_ref()))
            ));
        }
    }
    if !skipped.is_empty() {
        out.push('\n');
        out.push_str(&say("cli.check.skipped", "Skipped:"));
        out.push('\n');
        for s in skipped {
            let msg = s.msg().map(mcp_lanes_core::note::Msg::to_value);
            out.push_str(&format!(
                "  - {}\n",
                one_line(&lang.note(s.text(), msg.as_ref()))
            ));
        }
    }
    if !problems.is_empty() {
        out.push('\n');
        out.push_str(&say("cli.check.below", "Below the protocol:"));
        out.push('\n');
        for p in problems {
            let msg = p.msg().map(mcp_lanes_core::note::Msg::to_value);
            out.push_str(&format!(
                "  - {}\n",
                one_line(&lang.note(p.text(), msg.as_ref()))
            ));
        }
    }
    let failed: Vec<&Verdict> = report
        .verdicts
        .iter()
        .filter(|v| v.verdict == Outcome::Fail)
        .collect();
    if !failed.is_empty() {
        out.push('\n');
        out.push_str(&say("cli.check.to_fix", "What to fix:"));
        out.push('\n');
        for v in &failed {
            let at = exchange(report, v, lang);
            out.push_str("  ");
            out.push_str(&fill(
                "cli.check.fail_at",
                "FAIL {rule} at {exchange}",
                &[("rule", v.rule.clone()), ("exchange", at)],
            ));
            out.push('\n');
            let expected = lang.note(&v.expected, v.expected_msg.as_ref());
            let got = lang.note(&v.got, v.got_msg.as_ref());
            out.push_str("       ");
            out.push_str(&fill(
                "cli.check.expected",
                "expected: {text}",
                &[("text", one_line(&expected))],
            ));
            out.push_str("\n       ");
            out.push_str(&fill(
                "cli.check.got",
                "got:      {text}",
                &[("text", one_line(&got))],
            ));
            out.push('\n');
            let url = v.spec_url();
            if !url.is_empty() {
                out.push_str("       ");
                out.push_str(&fill(
                    "cli.check.spec",
                    "spec:     {url}",
                    &[("url", url.to_string())],
                ));
                out.push('\n');
            }
        }
    }
    let expected: Vec<&Verdict> = report
        .verdicts
        .iter()
        .filter(|v| v.verdict == Outcome::ExpectedFailure)
        .collect();
    if !expected.is_empty() {
        out.push('\n');
        out.push_str(&say(
            "cli.check.expected_failures",
            "Expected failures (at messages the recording marks as deliberate violations):",
        ));
        out.push('\n');
        for v in &expected {
            let at = exchange(report, v, lang);
            let got = lang.note(&v.got, v.got_msg.as_ref());
            out.push_str("  ");
            out.push_str(&fill(
                "cli.check.expected_failure",
                "expected failure {rule} at {exchange}: {got}",
                &[
                    ("rule", v.rule.clone()),
                    ("exchange", at),
                    ("got", one_line(&got)),
                ],
            ));
            out.push('\n');
        }
    }
    let summary = check::summary(&report.verdicts);
    let passed: Vec<_> = summary
        .rules
        .iter()
        .filter(|c| c.outcome() == Outcome::Pass)
        .collect();
    if !passed.is_empty() {
        out.push('\n');
        out.push_str(&say("cli.check.got_right", "What the server got right:"));
        out.push('\n');
        for c in passed {
            let what = rules::find(&c.rule).map(|r| r.summary).unwrap_or("");
            let what = lang.rule(&c.rule, what);
            let times = if c.passed == 1 {
                say("cli.check.one_exchange", "1 exchange")
            } else {
                fill(
                    "cli.check.exchanges",
                    "{count} exchanges",
                    &[("count", c.passed.to_string())],
                )
            };
            out.push_str("  ");
            out.push_str(&fill(
                "cli.check.pass",
                "pass {rule} ({times}): {summary}",
                &[
                    ("rule", c.rule.clone()),
                    ("times", times),
                    ("summary", one_line(first_sentence(&what))),
                ],
            ));
            out.push('\n');
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
        out.push('\n');
        out.push_str(&say("cli.check.not_exercised", "Not exercised (n/a):"));
        out.push('\n');
        let mut seen: Vec<&str> = Vec::new();
        for v in not_exercised {
            if seen.contains(&v.rule.as_str()) {
                continue;
            }
            seen.push(&v.rule);
            let got = lang.note(&v.got, v.got_msg.as_ref());
            out.push_str("  ");
            out.push_str(&fill(
                "cli.check.na",
                "n/a  {rule}: {why}",
                &[("rule", v.rule.clone()), ("why", one_line(&got))],
            ));
            out.push('\n');
        }
    }
    if let Some(tail) = stderr_tail.filter(|_| !failed.is_empty() || !problems.is_empty()) {
        out.push('\n');
        out.push_str(&say("cli.check.stderr", "The server's stderr ended with:"));
        out.push('\n');
        let lines: Vec<&str> = tail.lines().collect();
        for line in &lines[lines.len().saturating_sub(5)..] {
            out.push_str(&format!("  | {}\n", one_line(line)));
        }
    }
    let advice = if summary.failed == 0 {
        say("cli.check.nothing_to_fix", "Nothing to fix.")
    } else {
        say(
            "cli.check.fix_first",
            "Fix the first failure first: later ones often follow from it.",
        )
    };
    out.push('\n');
    out.push_str(&fill(
        "cli.check.summary",
        "{passed} rule(s) passed, {failed} failed, {na} not exercised. {advice}",
        &[
            ("passed", summary.passed.to_string()),
            ("failed", summary.failed.to_string()),
            ("na", summary.not_applicable.to_string()),
            ("advice", advice),
        ],
    ));
    if summary.expected_failures > 0 {
        out.push(' ');
        out.push_str(&fill(
            "cli.check.summary_expected",
            "{count} rule(s) broken only where the recording says so (expected failures).",
            &[("count", summary.expected_failures.to_string())],
        ));
    }
    out.push('\n');
    out
}
