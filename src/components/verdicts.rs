//! A recorded check's verdicts: a mark on each message the grader judged
//! (in the lane's right margin, level with the message, so it never
//! covers an arrow or a label), the list of verdicts in the inspector, and
//! the summary above the lanes ("n rules passed, m failed", each rule
//! linked to its spec section). Linked in the full bundle only (through
//! `bundle::panels`). Every string from the file (rule IDs, what was
//! expected, what came) is rendered as text.

use mcp_lanes_core::check::{Outcome, Verdict};
use mcp_lanes_core::sim::{EventKind, Timeline};
use yew::prelude::*;

use crate::state::{Action, Selection, State};

use crate::checked::{overall, rule_link, summary_line, verdicts_at, Checked};
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
    })
}

fn class(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pass => "pass",
        Outcome::Fail => "fail",
        Outcome::NotApplicable => "na",
    }
}

fn glyph(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pass => "\u{2713}",
        Outcome::Fail => "\u{2717}",
        Outcome::NotApplicable => "\u{2013}",
    }
}

/// One coordinate with one decimal.
fn f(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    format!("{}.{}", tenths / 10, (tenths % 10).abs())
}

/// The marks of lane `n` for the events visible at virtual time `time`.
pub fn marks(
    n: usize,
    timeline: &Timeline,
    verdicts: &[Verdict],
    layout: &Layout,
    time: Option<u64>,
) -> Html {
    if verdicts.is_empty() {
        return html! {};
    }
    timeline
        .events
        .iter()
        .filter(|e| time.is_some_and(|t| e.at_ms <= t))
        .filter_map(|e| {
            let here = verdicts_at(verdicts, e.index);
            let outcome = overall(&here)?;
            let y = layout.event_y(n, e.index);
            let rules: Vec<&str> = here.iter().map(|v| v.rule.as_str()).collect();
            let title: Vec<String> = here
                .iter()
                .map(|v| format!("{} {}: {}", v.rule, word(v.verdict), got(v)))
                .collect();
            Some(html! {
                <g class={classes!("verdict", class(outcome))} data-testid={format!("verdict-{n}-{}", e.index)}
                    data-verdict={outcome.as_str()} data-rules={rules.join(" ")} aria-hidden="true">
                    <title>{ title.join("\n") }</title>
                    <circle cx={f(MARK_X)} cy={f(y)} r={f(MARK_R)} />
                    <text x={f(MARK_X)} y={f(y + 4.0)} text-anchor="middle">{ glyph(outcome) }</text>
                </g>
            })
        })
        .collect()
}

/// What the rule expected, in the page's language.
fn expected(v: &Verdict) -> String {
    i18n::note_text(&v.expected, v.expected_msg.as_ref())
}

/// What the server did, in the page's language (its own words as they are).
fn got(v: &Verdict) -> String {
    i18n::note_text(&v.got, v.got_msg.as_ref())
}

/// The verdicts on one event, for the inspector.
pub fn list(verdicts: &[Verdict], index: usize) -> Html {
    let mut here = verdicts_at(verdicts, index);
    if here.is_empty() {
        return html! {};
    }
    // What to fix first: failures before passes before n/a (stable).
    here.sort_by_key(|v| match v.verdict {
        Outcome::Fail => 0,
        Outcome::Pass => 1,
        Outcome::NotApplicable => 2,
    });
    html! {
        <section class="verdicts" data-testid="inspector-verdicts" aria-label={t("verdict.verdicts")}>
            <h4>{ t("verdict.verdicts") }</h4>
            <ul>{ for here.iter().map(|v| item(v)) }</ul>
        </section>
    }
}

/// One verdict: its outcome, its rule (linked), what was expected and what
/// came.
fn item(v: &Verdict) -> Html {
    let rule = match rule_link(&v.rule) {
        Some(url) => {
            html! { <a href={url} target="_blank" rel="noopener noreferrer"><code>{ v.rule.clone() }</code></a> }
        }
        None => html! { <code>{ v.rule.clone() }</code> },
    };
    html! {
        <li class={classes!("verdict-item", class(v.verdict))} data-verdict={v.verdict.as_str()} data-rule={v.rule.clone()}>
            <span class="verdict-word">{ word(v.verdict) }</span>{ " " }{ rule }
            <dl>
                <dt>{ t("verdict.expected") }</dt><dd>{ expected(v) }</dd>
                <dt>{ t("verdict.got") }</dt><dd>{ got(v) }</dd>
            </dl>
        </li>
    }
}

/// Where a verdict points, in words: the message judged ("server
/// -32602", "client tools/list"), or the whole run.
fn place(checked: &Checked, lane: usize, v: &Verdict) -> String {
    let label = v.exchange.and_then(|index| {
        let run = checked.runs.get(lane)?;
        match &run.timeline.events.get(index)?.kind {
            EventKind::Message(m) => Some(format!(
                "#{index} {} {}",
                crate::model::side(m.from),
                m.label
            )),
            _ => Some(format!("#{index}")),
        }
    });
    match label {
        Some(label) => label,
        None => tf("verdict.whole_run", &[("rule", &v.rule)]),
    }
}

/// "What to fix": every failing verdict, in the order `mcp-lanes check`
/// prints them (run-wide first, then by exchange), each with what was
/// expected and what came, its spec link, and a button that shows the
/// failing message (selected, drawn, inspected).
fn to_fix(checked: &Checked, dispatcher: &UseReducerDispatcher<State>) -> Html {
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
    if failing.is_empty() {
        return html! {};
    }
    html! {
        <section class="to-fix" data-testid="check-to-fix" aria-labelledby="to-fix-title">
            <h3 id="to-fix-title">{ t("verdict.to_fix") }</h3>
            <ol>
                { for failing.iter().enumerate().map(|(n, (lane, v))| {
                    let rule = match rule_link(&v.rule) {
                        Some(url) => html! { <a href={url} target="_blank" rel="noopener noreferrer"><code>{ v.rule.clone() }</code></a> },
                        None => html! { <code>{ v.rule.clone() }</code> },
                    };
                    let show = v.exchange.map(|event| {
                        let d = dispatcher.clone();
                        let selection = Selection { lane: *lane, event };
                        let onclick = Callback::from(move |e: MouseEvent| {
                            d.dispatch(Action::ShowFailure(selection));
                            if let Some(button) = e.target_dyn_into::<web_sys::Element>() {
                                crate::browser::scroll_to_test_id(&button, format!("message-{}-{}", selection.lane, selection.event));
                            }
                        });
                        html! {
                            <button type="button" class="show-failure" data-testid={format!("to-fix-show-{n}")}
                                data-lane={lane.to_string()} data-event={event.to_string()} {onclick}>
                                { tf("verdict.show", &[("place", &place(checked, *lane, v))]) }
                            </button>
                        }
                    });
                    html! {
                        <li class="verdict-item fail" data-testid={format!("to-fix-{n}")} data-rule={v.rule.clone()}>
                            <span class="verdict-word">{ word(v.verdict) }</span>{ " " }{ rule }{ " " }
                            { show.unwrap_or_else(|| html! { <span>{ place(checked, *lane, v) }</span> }) }
                            <dl>
                                <dt>{ t("verdict.expected") }</dt><dd>{ expected(v) }</dd>
                                <dt>{ t("verdict.got") }</dt><dd>{ got(v) }</dd>
                            </dl>
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}

/// The check's heading and summary: what was checked, the era, "n rules
/// passed, m failed", what to fix (the failing rules first), and each rule
/// with its counts and spec link.
pub fn summary(checked: &Checked, dispatcher: &UseReducerDispatcher<State>) -> Html {
    let summary = checked.summary();
    let title = tf("verdict.check_of", &[("target", &checked.target)]);
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
        <div class="check-summary" data-testid="check-summary"
            data-passed={summary.passed.to_string()} data-failed={summary.failed.to_string()}>
            <h2 id="scenario-title" data-testid="scenario-title" data-check="1">{ title }</h2>
            <p class="summary">{ about }</p>
            <p class={classes!("check-line", (summary.failed > 0).then_some("has-fail"))} data-testid="check-summary-line">
                { summary_line(&summary) }
            </p>
            if checked.graded_here {
                <p class="note">{ t("verdict.graded_here") }</p>
            }
            { to_fix(checked, dispatcher) }
            <details class="check-rules" data-testid="check-rules">
                <summary>{ tf("verdict.rules", &[("count", &summary.rules.len().to_string())]) }</summary>
                <ul>
                    { for summary.rules.iter().map(|r| {
                        let outcome = r.outcome();
                        let counts = format!(" {}", tf("verdict.counts", &[("passed", &r.passed.to_string()), ("failed", &r.failed.to_string()), ("na", &r.not_applicable.to_string())]));
                        let rule = match rule_link(&r.rule) {
                            Some(url) => html! { <a href={url} target="_blank" rel="noopener noreferrer"><code>{ r.rule.clone() }</code></a> },
                            None => html! { <code>{ r.rule.clone() }</code> },
                        };
                        html! {
                            <li class={classes!("rule-count", class(outcome))} data-rule={r.rule.clone()} data-verdict={outcome.as_str()}>
                                <span class="verdict-word">{ glyph(outcome) }</span>{ " " }{ rule }{ counts }
                            </li>
                        }
                    }) }
                </ul>
                if !whole_run.is_empty() {
                    <ul class="whole-run">
                        { for whole_run.iter().map(|v| html! { <li>{ tf("verdict.whole_run", &[("rule", &v.rule)]) }{ ": " }{ got(v) }</li> }) }
                    </ul>
                }
            </details>
        </div>
    }
}
