//! The reply to one sent request, as the core described it: a badge, the
//! HTTP status and headers, the reply pretty-printed (as text), whether it
//! matches its schema type, the note and the rules that produced it with
//! spec links, messages the server sent on its own (each answerable), and
//! "Answer and retry" for an input_required reply. A view function of the
//! editor: its buttons are handled by the editor's `data-act` handler.

use mcp_lanes_core::editor::{self, Badge};
use yew::prelude::*;

use crate::components::inspector::{headers_table, rule_list};
use crate::editor_state::Sent;
use crate::el::{button, el, text};

/// A reply badge, coloured by kind.
pub fn badge(b: &Badge) -> Html {
    let class = match b {
        Badge::Result => "reply-badge result",
        Badge::InputRequired => "reply-badge input",
        Badge::NoReply => "reply-badge",
        _ => "reply-badge error",
    };
    el("span", &["class"], &[class], vec![text(b.label())])
}

/// The reply pane for exchange `n` (or how to get one).
pub fn reply_pane(sent: Option<(usize, &Sent)>) -> Html {
    let heading = el("h2", &[], &[], vec![text("Reply")]);
    let Some((n, sent)) = sent else {
        return el(
            "section",
            &["class", "data-testid"],
            &["reply", "reply"],
            vec![
                heading,
                el(
                    "p",
                    &["class"],
                    &["hint"],
                    vec![text(
                        "Send the request (Ctrl+Enter) to see what the server answers, and why.",
                    )],
                ),
            ],
        );
    };
    let ex = &sent.exchange;
    let valid = ex.reply_problems.is_empty();
    let mut body = vec![
        heading,
        el(
            "p",
            &["class", "data-testid", "aria-live"],
            &["reply-head", "reply-badge", "polite"],
            vec![
                badge(&ex.badge),
                ex.status
                    .map(|s| {
                        el(
                            "span",
                            &["class", "data-testid"],
                            &["mono", "reply-status"],
                            vec![text(format!("HTTP {s}"))],
                        )
                    })
                    .unwrap_or_default(),
                el(
                    "span",
                    &["class"],
                    &["hint"],
                    vec![text(format!(
                        "#{} {} \u{b7} {}",
                        n + 1,
                        sent.method,
                        ex.revision
                    ))],
                ),
            ],
        ),
        el(
            "p",
            &["class", "data-testid"],
            &["note", "reply-note"],
            vec![text(ex.note.clone())],
        ),
    ];
    if ex.badge == Badge::InputRequired {
        body.push(button(
            "primary",
            "retry",
            &n.to_string(),
            "answer-retry",
            "Answer and retry",
        ));
    }
    let reply = if ex.reply.is_empty() {
        "(no reply)".to_string()
    } else {
        ex.reply.clone()
    };
    body.push(el(
        "pre",
        &["class", "data-testid", "tabindex"],
        &["wire", "reply-json", "0"],
        vec![text(reply)],
    ));
    if ex.reply_json.is_some() {
        let (class, words) = if valid {
            ("validity", "\u{2713} matches its schema type".to_string())
        } else {
            (
                "validity bad",
                format!("\u{2717} {}", ex.reply_problems.join("; ")),
            )
        };
        body.push(el(
            "p",
            &["class", "data-testid", "data-valid"],
            &[class, "reply-valid", if valid { "true" } else { "false" }],
            vec![text(words)],
        ));
    }
    if !ex.response_headers.is_empty() {
        body.push(el(
            "details",
            &[],
            &[],
            vec![
                el("summary", &[], &[], vec![text("Response headers")]),
                headers_table(&ex.response_headers),
            ],
        ));
    }
    if !ex.side_effects.is_empty() {
        let mut items = Vec::new();
        for (i, m) in ex.side_effects.iter().enumerate() {
            let mut item = vec![
                el("p", &["class"], &["note"], vec![text(m.note.clone())]),
                el("pre", &["class"], &["wire"], vec![text(m.text.clone())]),
            ];
            if m.message
                .as_ref()
                .and_then(editor::answer_server_request)
                .is_some()
            {
                item.push(button(
                    "small",
                    "answer",
                    &(n * 1000 + i).to_string(),
                    "answer-server",
                    "Answer it in the editor",
                ));
            }
            items.push(el("li", &[], &[], item));
        }
        body.push(el(
            "h3",
            &[],
            &[],
            vec![text("Sent by the server on its own")],
        ));
        body.push(el(
            "ul",
            &["class", "data-testid"],
            &["server-messages", "server-messages"],
            items,
        ));
    }
    body.push(rule_list(&ex.rules, "reply-rules"));
    el(
        "section",
        &["class", "data-testid", "data-index"],
        &["reply", "reply", &n.to_string()],
        body,
    )
}
