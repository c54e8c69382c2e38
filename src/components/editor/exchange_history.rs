//! Every exchange sent from the editor, oldest first (pick one to show its
//! reply), and a line diff of any two replies. A view function of the
//! editor.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::reply_pane::badge;
use super::{on_click, Dispatch};
use crate::editor_model::line_diff;
use crate::editor_state::{EditorAction, Sent};
use crate::i18n::{t, tf};
use crate::model::Shared;

/// How many of the latest exchanges the list shows (all stay in the lane
/// and can be diffed by number): a long session never slows a send down.
pub const HISTORY_SHOWN: usize = 50;

/// The number of the reply on one side of the diff (`first`: the left).
fn pick(d: &Dispatch, first: bool, len: usize, at: usize) -> Html {
    let onchange = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(index) = input
                .value()
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
            {
                d.dispatch(EditorAction::Diff(first, index));
            }
        })
    };
    html! {
        <input type="number" min="1" max={len.to_string()}
            data-testid={if first { "diff-a" } else { "diff-b" }} aria-label={t("editor.diff_pick_aria")}
            value={(at + 1).to_string()} {onchange} />
    }
}

/// The history list and the diff of replies `a` and `b`.
pub fn history(
    d: &Dispatch,
    sent: &Shared<Vec<Shared<Sent>>>,
    shown: Option<usize>,
    (a, b): (usize, usize),
) -> Html {
    let len = sent.len();
    let first = len.saturating_sub(HISTORY_SHOWN);
    let note = if len == 0 {
        Some(t("editor.nothing_sent"))
    } else {
        (first > 0).then(|| tf("editor.earlier_unlisted", &[("count", &first.to_string())]))
    };
    let items = sent.iter().enumerate().skip(first).map(|(i, s)| {
        html! {
            <li>
                <button type="button" class="history-item"
                    aria-current={(shown == Some(i)).then_some("true")}
                    onclick={on_click(d, move || EditorAction::Show(i))}>
                    <span class="mono">{ format!("#{} {}", i + 1, s.method) }</span>
                    { badge(&s.exchange.badge) }
                </button>
            </li>
        }
    });
    let diff = match (sent.get(a), sent.get(b), len >= 2) {
        (Some(x), Some(y), true) => {
            let lines = match line_diff(&x.exchange.reply, &y.exchange.reply) {
                Some(lines) => html! {
                    <pre class="wire diff" data-testid="diff">
                        { for lines.into_iter().map(|(c, line)| {
                            let class = match c {
                                '+' => Some("d-add"),
                                '-' => Some("d-del"),
                                _ => None,
                            };
                            html! { <span {class}>{ format!("{c} {line}\n") }</span> }
                        }) }
                    </pre>
                },
                None => html! { <p class="hint">{ t("editor.diff_too_long") }</p> },
            };
            html! {
                <>
                    <p class="row">
                        { t("editor.diff_replies") }
                        { " " }
                        { pick(d, true, len, a) }
                        { " " }
                        { t("editor.diff_and") }
                        { " " }
                        { pick(d, false, len, b) }
                    </p>
                    { lines }
                </>
            }
        }
        _ => html! {},
    };
    html! {
        <section class="history" data-testid="history">
            <h3>{ t("editor.history") }</h3>
            if let Some(note) = note {
                <p class="hint">{ note }</p>
            }
            <ol class="history-list">{ for items }</ol>
            { diff }
        </section>
    }
}
