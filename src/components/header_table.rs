//! The HTTP request headers the editor sends: a small table of name and
//! value fields with add and remove, prefilled from the body by the core
//! (`editor::headers_for`) until the person edits one, and prefilled again
//! on demand ("From body"). A view function of the editor: its fields are
//! handled by the editor's `data-act` handler.

use yew::prelude::*;

use crate::el::{button, el, text};
use crate::model::Shared;

/// The header table; `session` is the legacy session id the editor adds.
pub fn header_table(
    headers: &Shared<Vec<(String, String)>>,
    edited: bool,
    session: Option<String>,
) -> Html {
    let mut rows = Vec::new();
    for (i, (name, value)) in headers.iter().enumerate() {
        let arg = i.to_string();
        let field = |act: &str, label: &str, testid: String, value: &str| {
            el(
                "td",
                &[],
                &[],
                vec![el(
                    "input",
                    &[
                        "type",
                        "aria-label",
                        "data-act",
                        "data-arg",
                        "data-testid",
                        "value",
                    ],
                    &["text", label, act, &arg, &testid, value],
                    Vec::new(),
                )],
            )
        };
        rows.push(el(
            "tr",
            &[],
            &[],
            vec![
                field("hname", "Header name", format!("header-name-{i}"), name),
                field("hvalue", "Header value", format!("header-value-{i}"), value),
                el(
                    "td",
                    &[],
                    &[],
                    vec![el(
                        "button",
                        &["type", "class", "data-act", "data-arg", "aria-label"],
                        &["button", "small", "hdel", &arg, "Remove this header"],
                        vec![text("\u{d7}")],
                    )],
                ),
            ],
        ));
    }
    let note = format!(
        "{}{}",
        if edited {
            "Edited: kept until \u{201c}From body\u{201d}."
        } else {
            "Following the body."
        },
        session
            .map(|s| format!(" Mcp-Session-Id {s} is added."))
            .unwrap_or_default()
    );
    el(
        "fieldset",
        &["class", "data-testid"],
        &["header-table", "editor-headers"],
        vec![
            el("legend", &[], &[], vec![text("HTTP headers")]),
            el(
                "table",
                &["class"],
                &["headers"],
                vec![el("tbody", &[], &[], rows)],
            ),
            el(
                "p",
                &["class"],
                &["row"],
                vec![
                    button("small", "hadd", "", "header-add", "Add"),
                    button("small", "hbody", "", "headers-from-body", "From body"),
                    el("span", &["class"], &["hint"], vec![text(note)]),
                ],
            ),
        ],
    )
}
