//! `check --format junit`: the report as JUnit XML, the format every CI
//! system and most autograders read. One `<testcase>` per rule the check
//! graded, in rule order: a failed rule carries one `<failure>` listing each
//! failing exchange (expected, got, the exchange, the spec link); a rule
//! no exchange exercised is `<skipped>` with the reason. Server-provided
//! text is escaped by the writer, and characters XML 1.0 cannot carry are
//! replaced with U+FFFD.

use std::time::Duration;

use mcp_lanes_core::check::{self, Outcome, Report};
use mcp_lanes_core::rules;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use crate::i18n::Catalog;

/// The report as a JUnit XML document (English, as CI logs are).
pub fn xml(report: &Report, took: Duration) -> String {
    let lang = Catalog::or_english(None);
    let summary = check::summary(&report.verdicts);
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let tests = summary.rules.len().to_string();
    let failures = summary.failed.to_string();
    // An expected failure is reported as pytest reports an xfail: skipped,
    // with its own type.
    let skipped = (summary.not_applicable + summary.expected_failures).to_string();
    let time = format!("{:.3}", took.as_secs_f64());
    let suite_name = format!("mcp-lanes check {}", clean(&report.target));
    let _ = w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    let counts = [
        ("tests", tests.as_str()),
        ("failures", failures.as_str()),
        ("errors", "0"),
        ("skipped", skipped.as_str()),
        ("time", time.as_str()),
    ];
    let mut suites = BytesStart::new("testsuites");
    suites.push_attribute(("name", "mcp-lanes check"));
    suites.extend_attributes(counts);
    let _ = w.write_event(Event::Start(suites));
    let mut suite = BytesStart::new("testsuite");
    suite.push_attribute(("name", suite_name.as_str()));
    suite.extend_attributes(counts);
    let _ = w.write_event(Event::Start(suite));
    let era = clean(&report.era);
    let target = clean(&report.target);
    let _ = w.write_event(Event::Start(BytesStart::new("properties")));
    for (name, value) in [("target", target.as_str()), ("era", era.as_str())] {
        let mut p = BytesStart::new("property");
        p.push_attribute(("name", name));
        p.push_attribute(("value", value));
        let _ = w.write_event(Event::Empty(p));
    }
    let _ = w.write_event(Event::End(BytesEnd::new("properties")));
    for count in &summary.rules {
        let summary_text = rules::find(&count.rule).map(|r| r.summary).unwrap_or("");
        let name = format!("{}: {}", count.rule, first_sentence(summary_text));
        let mut case = BytesStart::new("testcase");
        case.push_attribute(("classname", "mcp-lanes.check"));
        case.push_attribute(("name", clean(&name).as_str()));
        case.push_attribute(("time", "0"));
        let verdicts: Vec<_> = report
            .verdicts
            .iter()
            .filter(|v| v.rule == count.rule)
            .collect();
        match count.outcome() {
            Outcome::Pass => {
                let _ = w.write_event(Event::Empty(case));
            }
            Outcome::NotApplicable => {
                let why = verdicts.first().map(|v| v.got.as_str()).unwrap_or("");
                let _ = w.write_event(Event::Start(case));
                let mut skip = BytesStart::new("skipped");
                skip.push_attribute(("message", clean(why).as_str()));
                let _ = w.write_event(Event::Empty(skip));
                let _ = w.write_event(Event::End(BytesEnd::new("testcase")));
            }
            Outcome::ExpectedFailure => {
                let why = verdicts
                    .iter()
                    .find(|v| v.verdict == Outcome::ExpectedFailure)
                    .map(|v| {
                        format!(
                            "expected failure at {}: {}",
                            super::render::exchange(report, v, &lang),
                            v.got
                        )
                    })
                    .unwrap_or_default();
                let _ = w.write_event(Event::Start(case));
                let mut skip = BytesStart::new("skipped");
                skip.push_attribute(("type", "expected-failure"));
                skip.push_attribute(("message", clean(&why).as_str()));
                let _ = w.write_event(Event::Empty(skip));
                let _ = w.write_event(Event::End(BytesEnd::new("testcase")));
            }
            Outcome::Fail => {
                let failed: Vec<_> = verdicts
                    .iter()
                    .filter(|v| v.verdict == Outcome::Fail)
                    .collect();
                let mut body = String::new();
                for v in &failed {
                    body.push_str(&format!(
                        "at {}\n  expected: {}\n  got:      {}\n",
                        super::render::exchange(report, v, &lang),
                        v.expected,
                        v.got
                    ));
                    let url = v.spec_url();
                    if !url.is_empty() {
                        body.push_str(&format!("  spec:     {url}\n"));
                    }
                }
                let message = failed
                    .first()
                    .map(|v| format!("expected {}; got {}", v.expected, v.got))
                    .unwrap_or_default();
                let _ = w.write_event(Event::Start(case));
                let mut failure = BytesStart::new("failure");
                failure.push_attribute(("message", clean(&message).as_str()));
                failure.push_attribute(("type", count.rule.as_str()));
                let _ = w.write_event(Event::Start(failure));
                let _ = w.write_event(Event::Text(BytesText::new(&clean(&body))));
                let _ = w.write_event(Event::End(BytesEnd::new("failure")));
                let _ = w.write_event(Event::End(BytesEnd::new("testcase")));
            }
        }
    }
    let _ = w.write_event(Event::End(BytesEnd::new("testsuite")));
    let _ = w.write_event(Event::End(BytesEnd::new("testsuites")));
    let mut out = String::from_utf8(w.into_inner()).unwrap_or_default();
    out.push('\n');
    out
}

/// `text` with every character XML 1.0 cannot carry (most control
/// characters, lone surrogates cannot occur in a `str`, U+FFFE/U+FFFF)
/// replaced with U+FFFD.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// The first sentence of a rule's summary.
fn first_sentence(text: &str) -> &str {
    match text.find(". ") {
        Some(end) => &text[..=end],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_lanes_core::check::Verdict;
    use mcp_lanes_core::sim::{Summary, Timeline};
    use mcp_lanes_core::transport::TransportKind;

    fn report(verdicts: Vec<Verdict>) -> Report {
        Report {
            target: "stdio: evil <server> & \u{1}".into(),
            era: "modern".into(),
            verdicts,
            timeline: Timeline {
                label: "t".into(),
                transport: TransportKind::Stdio,
                client_label: "c".into(),
                server_label: "s".into(),
                actors: Vec::new(),
                events: Vec::new(),
                summary: Summary::default(),
            },
        }
    }

    #[test]
    fn s_answer_junit_has_a_testcase_per_rule_failures_and_skips() {
        let xml = xml(
            &report(vec![
                Verdict::new(
                    rules::S_ANSWER,
                    Outcome::Fail,
                    "an answer",
                    "<none> & \"quotes\"",
                    None,
                ),
                Verdict::new(
                    rules::M_VERSION,
                    Outcome::NotApplicable,
                    "x",
                    "not exercised",
                    None,
                ),
                Verdict::new(rules::M_DISCOVER, Outcome::Pass, "x", "y", None),
            ]),
            Duration::from_millis(1500),
        );
        assert!(
            xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
            "{xml}"
        );
        assert_eq!(xml.matches("<testcase ").count(), 3, "{xml}");
        assert!(xml.contains("failures=\"1\""), "{xml}");
        assert!(xml.contains("skipped=\"1\""), "{xml}");
        assert!(xml.contains("&lt;none&gt; &amp;"), "{xml}");
        assert!(xml.contains("evil &lt;server&gt; &amp; \u{FFFD}"), "{xml}");
        assert!(!xml.contains('\u{1}'));
        assert!(xml.contains("type=\"S-ANSWER\""), "{xml}");
        assert!(xml.contains("time=\"1.500\""), "{xml}");
    }
}
