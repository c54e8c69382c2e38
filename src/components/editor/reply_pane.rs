//! The reply to one sent request, as the core described it: a badge, the
//! HTTP status and headers, the reply pretty-printed (as text), whether it
//! matches its schema type, the note and the rules that produced it with
//! spec links, messages the server sent on its own (each answerable), and
//! "Answer and retry" for an input_required reply. A view function of the
//! editor.

use mcp_lanes_core::editor::{self, Badge};
use yew::prelude::*;

use super::{on_click, Dispatch};
use crate::editor_state::{EditorAction, Sent};
use crate::i18n;

/// A reply badge, coloured by kind.
pub fn badge(b: &Badge) -> Html {
    let class = match b {
        Badge::Result => "reply-badge result",
        Badge::InputRequired => "reply-badge input",
        Badge::NoReply => "reply-badge",
        _ => "reply-badge error",
    };
    html! { <span {class}>{ b.label() }</span> }
}

/// The reply pane for exchange `n` (or how to get one).
pub fn reply_pane(d: &Dispatch, sent: Option<(usize, &Sent)>) -> Html {
    let Some((n, sent)) = sent else {
        return html! {
            <section class="reply" data-testid="reply">
                <h2>{ i18n::t("editor.reply") }</h2>
                <p class="hint">{ i18n::t("editor.reply_empty") }</p>
            </section>
        };
    };
    let ex = &sent.exchange;
    let valid = ex.reply_problems.is_empty();
    let reply = if ex.reply.is_empty() {
        i18n::t("editor.no_reply")
    } else {
        ex.reply.clone()
    };
    let validity = ex.reply_json.is_some().then(|| {
        let (class, words) = if valid {
            ("validity", format!("\u{2713} {}", i18n::t("editor.reply_valid")))
        } else {
            (
                "validity bad",
                format!("\u{2717} {}", ex.reply_problems.join("; ")),
            )
        };
        html! {
            <p {class} data-testid="reply-valid" data-valid={if valid { "true" } else { "false" }}>{ words }</p>
        }
    });
    let side_effects = ex.side_effects.iter().enumerate().map(|(i, m)| {
        let answerable = m
            .message
            .as_ref()
            .and_then(editor::answer_server_request)
            .is_some();
        html! {
            <li>
                <p class="note">{ i18n::note(&m.note) }</p>
                <pre class="wire">{ m.text.clone() }</pre>
                if answerable {
                    <button type="button" class="small" data-testid="answer-server"
                        onclick={on_click(d, move || EditorAction::Answer(n, i))}>
                        { i18n::t("editor.answer_in_editor") }
                    </button>
                }
            </li>
        }
    });
    html! {
        <section class="reply" data-testid="reply" data-index={n.to_string()}>
            <h2>{ i18n::t("editor.reply") }</h2>
            <p class="reply-head" data-testid="reply-badge" aria-live="polite">
                { badge(&ex.badge) }
                if let Some(status) = ex.status {
                    <span class="mono" data-testid="reply-status">{ format!("HTTP {status}") }</span>
                }
                <span class="hint" data-testid="reply-versions">{ versions(n, &sent.method, ex) }</span>
            </p>
            <p class="note" data-testid="reply-note">{ i18n::note(&ex.note) }</p>
            if let Some(at) = ex.wire_error {
                <p class="note" data-testid="reply-wire-error" data-line={at.typed.0.to_string()} data-column={at.typed.1.to_string()}>
                    { i18n::tf("editor.wire_error", &[
                        ("sent_line", &at.sent.0.to_string()), ("sent_column", &at.sent.1.to_string()),
                        ("line", &at.typed.0.to_string()), ("column", &at.typed.1.to_string()),
                    ]) }
                </p>
            }
            { raw(crate::view::fields::reply_code(ex)) }
            if ex.badge == Badge::InputRequired {
                <button type="button" class="primary" data-testid="answer-retry"
                    onclick={on_click(d, move || EditorAction::AnswerAndRetry(n))}>{ i18n::t("editor.answer_retry") }</button>
            }
            <pre class="wire" data-testid="reply-json" tabindex="0">{
                match &ex.reply_json {
                    Some(json) => raw(crate::view::fields::json(json, crate::view::fields::Draw {
                        explain: true,
                        open: None,
                        link: None,
                    })),
                    None => html! { { reply } },
                }
            }</pre>
            { for validity }
            if !ex.response_headers.is_empty() {
                <details>
                    <summary>{ i18n::t("editor.response_headers") }</summary>
                    { raw(crate::view::inspector::headers_table(&ex.response_headers)) }
                </details>
            }
            if !ex.side_effects.is_empty() {
                <h3>{ i18n::t("editor.server_messages") }</h3>
                <ul class="server-messages" data-testid="server-messages">{ for side_effects }</ul>
            }
            { raw(crate::view::fields::reply_lint(ex)) }
            { raw(crate::view::inspector::rule_list(&ex.rules, "reply-rules")) }
        </section>
    }
}

/// "#2 server/discover · asked for 2025-11-25 · server speaks 2026-07-28":
/// what the request asked for and what the reply speaks, never one label;
/// a reply that names the server's versions (a -32022's `data.supported`,
/// a discover result's `supportedVersions`) says those.
fn versions(n: usize, method: &str, ex: &mcp_lanes_core::editor::Exchange) -> String {
    let mut out = format!("#{} {method}", n + 1);
    if !ex.asked.is_empty() {
        out.push_str(" \u{b7} ");
        out.push_str(&i18n::tf("editor.asked_for", &[("version", &ex.asked)]));
    }
    if !ex.offered.is_empty() {
        out.push_str(" \u{b7} ");
        out.push_str(&i18n::tf(
            "editor.server_supports",
            &[("versions", &ex.offered.join(", "))],
        ));
    } else if !ex.revision.is_empty() {
        out.push_str(" \u{b7} ");
        out.push_str(&i18n::tf(
            "editor.server_speaks",
            &[("version", &ex.revision)],
        ));
    }
    out
}

/// Markup the page's views drew, in the reply pane (they are escaped).
fn raw(markup: maud::Markup) -> Html {
    Html::from_html_unchecked(AttrValue::from(markup.into_string()))
}
