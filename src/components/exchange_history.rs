//! Every exchange sent from the editor, oldest first (pick one to show its
//! reply), and a line diff of any two replies. A view function of the
//! editor: its controls are handled by the editor's `data-act` handler.

use yew::prelude::*;

use crate::components::reply_pane::badge;
use crate::editor_model::line_diff;
use crate::editor_state::Sent;
use crate::el::{el, text};
use crate::model::Shared;

/// How many of the latest exchanges the list shows (all stay in the lane
/// and can be diffed by number): a long session never slows a send down.
pub const HISTORY_SHOWN: usize = 50;

/// The number of a reply on one side of the diff.
fn pick(side: &str, testid: &str, len: usize, at: usize) -> Html {
    el(
        "input",
        &[
            "type",
            "min",
            "max",
            "data-act",
            "data-arg",
            "data-testid",
            "aria-label",
            "value",
        ],
        &[
            "number",
            "1",
            &len.to_string(),
            "diff",
            side,
            testid,
            "Reply number",
            &(at + 1).to_string(),
        ],
        Vec::new(),
    )
}

/// The history list and the diff of replies `a` and `b`.
pub fn history(
    sent: &Shared<Vec<Shared<Sent>>>,
    shown: Option<usize>,
    (a, b): (usize, usize),
) -> Html {
    let len = sent.len();
    let mut items = Vec::new();
    let first = len.saturating_sub(HISTORY_SHOWN);
    for (i, s) in sent.iter().enumerate().skip(first) {
        items.push(el(
            "li",
            &[],
            &[],
            vec![el(
                "button",
                &["type", "class", "data-act", "data-arg", "aria-current"],
                &[
                    "button",
                    "history-item",
                    "show",
                    &i.to_string(),
                    if shown == Some(i) { "true" } else { "" },
                ],
                vec![
                    el(
                        "span",
                        &["class"],
                        &["mono"],
                        vec![text(format!("#{} {}", i + 1, s.method))],
                    ),
                    badge(&s.exchange.badge),
                ],
            )],
        ));
    }
    let mut body = vec![
        el("h3", &[], &[], vec![text("History")]),
        el("ol", &["class"], &["history-list"], items),
    ];
    if len == 0 || first > 0 {
        let note = if len == 0 {
            "Nothing sent yet.".to_string()
        } else {
            format!("{first} earlier exchanges are not listed; diff them by number.")
        };
        body.insert(1, el("p", &["class"], &["hint"], vec![text(note)]));
    }
    if let (Some(x), Some(y), true) = (sent.get(a), sent.get(b), len >= 2) {
        body.push(el(
            "p",
            &["class"],
            &["row"],
            vec![
                text("Diff replies "),
                pick("0", "diff-a", len, a),
                text(" and "),
                pick("1", "diff-b", len, b),
            ],
        ));
        body.push(match line_diff(&x.exchange.reply, &y.exchange.reply) {
            Some(lines) => el(
                "pre",
                &["class", "data-testid"],
                &["wire diff", "diff"],
                lines
                    .into_iter()
                    .map(|(c, line)| {
                        let class = match c {
                            '+' => "d-add",
                            '-' => "d-del",
                            _ => "",
                        };
                        el(
                            "span",
                            &["class"],
                            &[class],
                            vec![text(format!("{c} {line}\n"))],
                        )
                    })
                    .collect(),
            ),
            None => el(
                "p",
                &["class"],
                &["hint"],
                vec![text("Too long to diff here.")],
            ),
        });
    }
    el(
        "section",
        &["class", "data-testid"],
        &["history", "history"],
        body,
    )
}
