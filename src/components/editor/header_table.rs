//! The HTTP request headers the editor sends: a small table of name and
//! value fields with add and remove, prefilled from the body by the core
//! (`editor::headers_for`) until the person edits one, and prefilled again
//! on demand ("From body"). A view function of the editor.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{on_click, Dispatch};
use crate::editor_state::EditorAction;
use crate::i18n::{t, tf};
use crate::model::Shared;

/// The header table; `session` is the legacy session id the editor adds.
pub fn header_table(
    d: &Dispatch,
    headers: &Shared<Vec<(String, String)>>,
    edited: bool,
    session: Option<String>,
) -> Html {
    let rows = headers.iter().enumerate().map(|(i, (name, value))| {
        // A field's new text, with the row's other field as it is.
        let field = |is_name: bool| {
            let d = d.clone();
            let (name, value) = (name.clone(), value.clone());
            Callback::from(move |e: InputEvent| {
                let text = e.target_unchecked_into::<HtmlInputElement>().value();
                d.dispatch(if is_name {
                    EditorAction::Header(i, text, value.clone())
                } else {
                    EditorAction::Header(i, name.clone(), text)
                });
            })
        };
        html! {
            <tr>
                <td><input type="text" aria-label={t("editor.header_name")} data-testid={format!("header-name-{i}")}
                    value={name.clone()} oninput={field(true)} /></td>
                <td><input type="text" aria-label={t("editor.header_value")} data-testid={format!("header-value-{i}")}
                    value={value.clone()} oninput={field(false)} /></td>
                <td class="header-why">{ Html::from_html_unchecked(AttrValue::from(
                    crate::view::fields::header_help(name).into_string())) }</td>
                <td><button type="button" class="small" aria-label={t("editor.header_remove")}
                    onclick={on_click(d, move || EditorAction::RemoveHeader(i))}>{ "\u{d7}" }</button></td>
            </tr>
        }
    });
    let mut note = t(if edited {
        "editor.headers_edited"
    } else {
        "editor.headers_following"
    });
    if let Some(s) = session {
        note.push(' ');
        note.push_str(&tf("editor.headers_session", &[("id", &s.to_string())]));
    }
    html! {
        <fieldset class="header-table" data-testid="editor-headers">
            <legend>{ t("editor.headers") }</legend>
            <table class="headers"><tbody>{ for rows }</tbody></table>
            <p class="row">
                <button type="button" class="small" data-testid="header-add"
                    onclick={on_click(d, || EditorAction::AddHeader)}>{ t("editor.header_add") }</button>
                <button type="button" class="small" data-testid="headers-from-body"
                    onclick={on_click(d, || EditorAction::HeadersFromBody)}>{ t("editor.headers_from_body") }</button>
                <span class="hint">{ note }</span>
            </p>
        </fieldset>
    }
}
