//! A recorded or live check's verdicts as markup text: a mark on each
//! message the grader judged (in the lane's right margin, level with the
//! message, so it never covers an arrow or a label), the list of verdicts
//! in the inspector, and the summary above the lanes ("n rules passed, m
//! failed", "What to fix" with a button per failing exchange, each rule
//! linked to its spec section). Every string from the file (rule IDs, what
//! was expected, what came) is escaped.

use maud::{html, Markup};
use mcp_lanes_core::check::{Outcome, Verdict};
use mcp_lanes_core::sim::{EventKind, Timeline};

use super::{classes, num as f};
use crate::checked::{notice_text, overall, rule_link, summary_line, verdicts_at, Checked};
use crate::i18n::{self, t, tf};
use crate::model::{Layout, SERVER_X};

/// Where the marks sit: the middle of the margin right of the server column.
const MARK_X: f64 = SERVER_X + 22.0;
/// A mark's radius (rows are 30 px apart: marks never touch).
const MARK_R: f64 = 8.0;

fn word(outcome: Outcome) -> String {
    t(match outcome {
        Outcome::Pass => "verdict.pass",
        Outcome::Fail => "verdict.fail",
        Outcome::NotApplicable => "verdict.na",
        Outcome::ExpectedFailure => "verdict.expected_failure",
    })
}

fn class(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pass => "pass",
        Outcome::Fail => "fail",
        Outcome::NotApplicable => "na",
        Outcome::ExpectedFailure => "xfail",
    }
}

fn glyph(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pass => "\u{2713}",
        Outcome::Fail => "\u{2717}",
        Outcome::NotApplicable => "\u{2013}",
        Outcome::ExpectedFailure => "!",
    }
}

/// What the rule expected, in the page's language.
fn expected(v: &Verdict) -> String {
    i18n::note_text(&v.expected, v.expected_msg.as_ref())
}

/// What the server did, in the page's language (its own words as they are).
fn got(v: &Verdict) -> String {
    i18n::note_text(&v.got, v.got_msg.as_ref())
}

/// A rule ID, linked to its spec section when it has one.
fn rule(id: &str) -> Markup {
    html! {
        @match rule_link(id) {
            Some(url) => { a href=(url) target="_blank" rel="noopener noreferrer" { code { (id) } } }
            None => { code { (id) } }
        }
    }
}

/// The marks of lane `n` (row `n` of `layout`) for the events visible at
/// virtual time `time` (nothing for a lane without verdicts); `complete`:
/// each marked with the positions it shows at (`data-show`).
pub fn marks(
    n: usize,
    timeline: &Timeline,
    verdicts: &[Verdict],
    layout: &Layout,
    time: Option<u64>,
    complete: bool,
) -> Markup {
    html! {
        @if !verdicts.is_empty() {
            @for e in timeline.events.iter().filter(|e| time.is_some_and(|t| e.at_ms <= t)) {
                @let here = verdicts_at(verdicts, e.index);
                @if let Some(outcome) = overall(&here) {
                    @let y = layout.event_y(n, e.index);
                    @let rules: Vec<&str> = here.iter().map(|v| v.rule.as_str()).collect();
                    @let title: Vec<String> = here.iter().map(|v| format!("{} {}: {}", v.rule, word(v.verdict), got(v))).collect();
                    g class=(classes(&[Some("verdict"), Some(class(outcome))]))
                        data-testid=(format!("verdict-{n}-{}", e.index))
                        data-verdict=(outcome.as_str()) data-rules=(rules.join(" "))
                        data-show=[complete.then(|| format!("{} {}", layout.position_of(e.at_ms), layout.len()))]
                        aria-hidden="true" {
                        title { (title.join("\n")) }
                        circle cx=(f(MARK_X)) cy=(f(y)) r=(f(MARK_R)) {}
                        text x=(f(MARK_X)) y=(f(y + 4.0)) text-anchor="middle" { (glyph(outcome)) }
                    }
                }
            }
        }
    }
}

/// The verdicts on one event, for the inspector (failures first).
pub fn list(verdicts: &[Verdict], index: usize) -> Markup {
    let mut here = verdicts_at(verdicts, index);
    here.sort_by_key(|v| match v.verdict {
        Outcome::Fail => 0,
        Outcome::ExpectedFailure => 1,
        Outcome::Pass => 2,
        Outcome::NotApplicable => 3,
    });
    html! {
        @if !here.is_empty() {
            section class="verdicts" data-testid="inspector-verdicts" aria-label=(t("verdict.verdicts")) {
                h4 { (t("verdict.verdicts")) }
                ul {
                    @for v in &here {
                        li class=(classes(&[Some("verdict-item"), Some(class(v.verdict))]))
                            data-verdict=(v.verdict.as_str()) data-rule=(v.rule) {
                            span class="verdict-word" { (word(v.verdict)) } " " (rule(&v.rule))
                            dl {
                                dt { (t("verdict.expected")) } dd { (expected(v)) }
                                dt { (t("verdict.got")) } dd { (got(v)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Where a verdict points, in words: the message judged ("server
/// -32602", "client tools/list"), or the whole run.
fn place(checked: &Checked, lane: usize, v: &Verdict) -> String {
    let label = v.exchange.and_then(|index| {
        let run = checked.runs.get(lane)?;
        match &run.timeline.events.get(index)?.kind {
            EventKind::Message(m) => Some(match m.sender() {
                Some(from) => format!("#{index} {} {}", crate::model::side(from), m.label),
                None => format!("#{index} {}", m.label),
            }),
            _ => Some(format!("#{index}")),
        }
    });
    label.unwrap_or_else(|| tf("verdict.whole_run", &[("rule", &v.rule)]))
}

/// "What to fix": every failing verdict, in the order `mcp-lanes check`
/// prints them, each with what was expected and what came, its spec link,
/// and a button that shows the failing message (`data-act="show-failure"`:
/// selected, drawn, inspected).
fn to_fix(checked: &Checked) -> Markup {
    let failing: Vec<(usize, &Verdict)> = checked
        .runs
        .iter()
        .enumerate()
        .flat_map(|(lane, run)| {
            run.verdicts
                .iter()
                .filter(|v| v.verdict == Outcome::Fail)
                .map(move |v| (lane, v))
        })
        .collect();
    html! {
        @if !failing.is_empty() {
            section class="to-fix" data-testid="check-to-fix" aria-labelledby="to-fix-title" {
                h3 id="to-fix-title" { (t("verdict.to_fix")) }
                ol {
                    @for (n, (lane, v)) in failing.iter().enumerate() {
                        li class="verdict-item fail" data-testid=(format!("to-fix-{n}")) data-rule=(v.rule) {
                            span class="verdict-word" { (word(v.verdict)) } " " (rule(&v.rule)) " "
                            @match v.exchange {
                                Some(event) => {
                                    button type="button" class="show-failure" data-testid=(format!("to-fix-show-{n}"))
                                        data-lane=(lane) data-event=(event)
                                        data-act="show-failure" data-arg=(format!("{lane}:{event}")) {
                                        (tf("verdict.show", &[("place", &place(checked, *lane, v))]))
                                    }
                                }
                                None => { span { (place(checked, *lane, v)) } }
                            }
                            dl {
                                dt { (t("verdict.expected")) } dd { (expected(v)) }
                                dt { (t("verdict.got")) } dd { (got(v)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The check's heading and summary: what was checked, the era, "n rules
/// passed, m failed", what to fix, and each rule with its counts and spec
/// link.
pub fn summary(checked: &Checked) -> Markup {
    let summary = checked.summary();
    let about = match &checked.era {
        Some(era) => tf(
            "verdict.era_recorded_in",
            &[("era", era), ("source", &checked.source)],
        ),
        None => tf("verdict.recorded_in", &[("source", &checked.source)]),
    };
    let whole_run: Vec<Verdict> = checked
        .verdicts()
        .into_iter()
        .filter(|v| v.exchange.is_none() && v.verdict == Outcome::Fail)
        .collect();
    html! {
        div class="check-summary" data-testid="check-summary"
            data-passed=(summary.passed) data-failed=(summary.failed) {
            h2 id="scenario-title" data-testid="scenario-title" data-check="1" {
                (tf("verdict.check_of", &[("target", &checked.target)]))
            }
            p class="summary" { (about) }
            p class=(classes(&[Some("check-line"), (summary.failed > 0).then_some("has-fail")]))
                data-testid="check-summary-line" { (summary_line(&summary)) }
            @if checked.graded_here {
                p class="note" { (t("verdict.graded_here")) }
            }
            @if !checked.notices.is_empty() {
                section class="import-notices" data-testid="import-notices" aria-label=(t("check.notices")) {
                    ul {
                        @for (i, notice) in checked.notices.iter().enumerate() {
                            li data-testid=(format!("import-notice-{i}")) data-lane=(notice.lane)
                                data-entry=[notice.entry] {
                                (notice_text(notice, checked.runs.len()))
                            }
                        }
                    }
                }
            }
            (to_fix(checked))
            details class="check-rules" data-testid="check-rules" {
                summary { (tf("verdict.rules", &[("count", &summary.rules.len().to_string())])) }
                ul {
                    @for r in &summary.rules {
                        @let outcome = r.outcome();
                        li class=(classes(&[Some("rule-count"), Some(class(outcome))]))
                            data-rule=(r.rule) data-verdict=(outcome.as_str()) {
                            span class="verdict-word" { (glyph(outcome)) } " " (rule(&r.rule))
                            (format!(" {}", tf("verdict.counts", &[
                                ("passed", &r.passed.to_string()),
                                ("failed", &r.failed.to_string()),
                                ("na", &r.not_applicable.to_string()),
                            ])))
                        }
                    }
                }
                @if !whole_run.is_empty() {
                    ul class="whole-run" {
                        @for v in &whole_run {
                            li { (tf("verdict.whole_run", &[("rule", &v.rule)])) ": " (got(v)) }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use mcp_lanes_core::check::{Outcome, Verdict};

    use crate::checked::{Checked, GradedRun};
    use crate::state::{Action, Selection, State};
    use crate::view::testing::{escaped, lite, HOSTILE};

    /// A check of the recorded runs of `elicitation-unchecked`: one failing
    /// verdict on event 1 of lane 0 and one on the whole run, their words
    /// hostile; one passing verdict on event 1 of lane 1.
    fn check() -> State {
        let recorded = lite("elicitation-unchecked");
        let verdict = |outcome, exchange| Verdict {
            rule: HOSTILE.into(),
            verdict: outcome,
            expected: HOSTILE.into(),
            got: HOSTILE.into(),
            expected_msg: None,
            got_msg: None,
            exchange,
        };
        let runs = recorded
            .lanes
            .iter()
            .enumerate()
            .map(|(i, lane)| GradedRun {
                timeline: Rc::clone(&lane.timeline),
                verdicts: Rc::new(match i {
                    0 => vec![
                        verdict(Outcome::Fail, Some(1)),
                        verdict(Outcome::Fail, None),
                    ],
                    _ => vec![verdict(Outcome::Pass, Some(1))],
                }),
            })
            .collect();
        let mut state = State::load(None, Some(crate::runs::Simulator::CORE));
        state.update(Action::OpenChecked(Rc::new(Checked {
            source: HOSTILE.into(),
            target: HOSTILE.into(),
            era: None,
            runs,
            graded_here: true,
            notices: Vec::new(),
        })));
        state
    }

    #[test]
    fn the_summary_says_what_to_fix_and_shows_it() {
        let state = check();
        let checked = state.checked.clone().expect("open");
        let html = super::summary(&checked).into_string();
        assert!(html.starts_with(
            "<div class=\"check-summary\" data-testid=\"check-summary\" data-passed="
        ));
        assert!(html.contains("data-failed=") && !html.contains("data-failed=\"0\""));
        assert!(html.contains("data-testid=\"scenario-title\" data-check=\"1\""));
        assert!(
            html.contains("<p class=\"check-line has-fail\" data-testid=\"check-summary-line\">")
        );
        assert!(html.contains("data-testid=\"check-to-fix\""));
        // The failing exchange has a button that shows it; the whole run a place.
        assert!(html.contains(
            "data-testid=\"to-fix-show-0\" data-lane=\"0\" data-event=\"1\" data-act=\"show-failure\" data-arg=\"0:1\""
        ));
        assert!(!html.contains("to-fix-show-1"));
        assert!(html.contains("data-testid=\"to-fix-1\""));
        assert!(html.contains("data-testid=\"check-rules\""));
        escaped(&html);
    }

    #[test]
    fn marks_and_the_inspector_show_the_verdicts() {
        let mut state = check();
        state.update(Action::JumpToEnd);
        let lane = crate::view::lane::lane(&state, 0, false, true).into_string();
        assert!(lane.contains(
            "<g class=\"verdict fail\" data-testid=\"verdict-0-1\" data-verdict=\"fail\""
        ));
        // A lane of a check has no settings.
        assert!(!lane.contains("settings-0"));
        escaped(&lane);
        let other = crate::view::lane::lane(&state, 1, false, true).into_string();
        assert!(other.contains("data-testid=\"verdict-1-1\" data-verdict=\"pass\""));
        state.update(Action::Inspect(Some(Selection { lane: 0, event: 1 })));
        let inspector = crate::view::inspector::inspector(&state).into_string();
        assert!(inspector.contains("data-testid=\"inspector-verdicts\""));
        assert!(inspector.contains("<li class=\"verdict-item fail\" data-verdict=\"fail\""));
        escaped(&inspector);
        // Before the run starts, no marks.
        state.update(Action::Restart);
        let lane = crate::view::lane::lane(&state, 0, false, true).into_string();
        assert!(!lane.contains("verdict-0-"));
    }
}
