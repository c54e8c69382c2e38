//! The arguments form of a `tools/call`, as the core built it from the
//! tool's `inputSchema` (`editor::arguments_form`): one control per
//! property, required ones marked, a default shown while the value is
//! absent, and what the form leaves out said plainly. A change dispatches
//! [`EditorAction::Argument`]; the core rewrites the text, and the form is
//! read back from it. A view function of the editor.

use mcp_lanes_core::editor::arguments_form::{choice_key, shown, Control, Field, Form};
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::{on_click, Dispatch};
use crate::editor_state::EditorAction;
use crate::i18n::{t, tf};

/// What a control's change dispatches: the argument and the control's value.
fn on_change(d: &Dispatch, name: &str, read: fn(&Event) -> String) -> Callback<Event> {
    let d = d.clone();
    let name = name.to_string();
    Callback::from(move |e: Event| d.dispatch(EditorAction::Argument(name.clone(), read(&e))))
}

fn input_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

fn checked_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlInputElement>()
        .checked()
        .to_string()
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

fn area_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlTextAreaElement>().value()
}

/// One field's control.
fn control(d: &Dispatch, f: &Field) -> Html {
    let id = format!("arg-{}", f.name);
    let testid = format!("arg-{}", f.name);
    let placeholder = f.default.as_ref().map(|v| shown(Some(v)));
    let value = shown(f.value.as_ref());
    match &f.control {
        Control::Boolean => html! {
            <input type="checkbox" {id} data-testid={testid}
                checked={f.value.as_ref().and_then(|v| v.as_bool()).or(f.default.as_ref().and_then(|v| v.as_bool())).unwrap_or(false)}
                onchange={on_change(d, &f.name, checked_value)} />
        },
        Control::Choice(values) => {
            let current = f.value.as_ref().map(choice_key);
            html! {
                <select {id} data-testid={testid} onchange={on_change(d, &f.name, select_value)}>
                    <option value="" selected={current.is_none()}>{ t("editor.form_none") }</option>
                    { for values.iter().map(|v| {
                        let key = choice_key(v);
                        html! { <option value={key.clone()} selected={current.as_deref() == Some(key.as_str())}>{ shown(Some(v)) }</option> }
                    }) }
                </select>
            }
        }
        Control::Text | Control::Number | Control::Integer => {
            let kind = if f.control == Control::Text {
                "text"
            } else {
                "number"
            };
            let step = (f.control == Control::Integer)
                .then_some("1")
                .or((f.control == Control::Number).then_some("any"));
            html! {
                <input type={kind} {id} data-testid={testid} {step} placeholder={placeholder} value={value}
                    onchange={on_change(d, &f.name, input_value)} />
            }
        }
        // Arrays, objects and whatever else: JSON text.
        _ => html! {
            <textarea {id} data-testid={testid} class="mono" rows="2" spellcheck="false"
                placeholder={placeholder} value={value}
                onchange={on_change(d, &f.name, area_value)} />
        },
    }
}

/// The form (nothing when the text is not a call of a known tool).
pub fn arguments_form(d: &Dispatch, form: Option<&Form>) -> Html {
    let Some(form) = form else {
        return html! {};
    };
    let has_defaults = form
        .fields
        .iter()
        .any(|f| f.value.is_none() && f.default.is_some());
    html! {
        <details class="arguments-form" data-testid="arguments-form" open={true}>
            <summary>{ tf("editor.form_title", &[("tool", &form.tool)]) }</summary>
            if form.fields.is_empty() {
                <p class="hint">{ t("editor.form_no_fields") }</p>
            }
            <div class="form-fields">
                { for form.fields.iter().map(|f| html! {
                    <div class="form-field" data-testid={format!("field-{}", f.name)}
                        data-required={if f.required { "true" } else { "false" }}>
                        <label for={format!("arg-{}", f.name)}>
                            <span class="mono">{ f.name.clone() }</span>
                            if f.required {
                                <span class="required" title={t("editor.form_required")}>{ " *" }</span>
                            }
                            if f.control == Control::Json {
                                <span class="hint">{ " " }{ t("editor.form_as_json") }</span>
                            }
                        </label>
                        { control(d, f) }
                        if let Some(words) = &f.description {
                            <p class="hint">{ words.clone() }</p>
                        }
                    </div>
                }) }
            </div>
            if has_defaults {
                <button type="button" class="small" data-testid="fill-defaults"
                    onclick={on_click(d, || EditorAction::FillDefaults)}>{ t("editor.form_fill_defaults") }</button>
            }
            if form.fields.iter().any(|f| f.required) {
                <p class="hint">{ t("editor.form_required_hint") }</p>
            }
            { for form.unsupported.iter().map(|u| html! {
                <p class="hint" data-testid="form-unsupported">{ if u.at.is_empty() {
                    tf("editor.form_unsupported_schema", &[("keyword", &u.keyword)])
                } else {
                    tf("editor.form_unsupported", &[("keyword", &u.keyword), ("name", &u.at)])
                } }</p>
            }) }
            if !form.extra.is_empty() {
                <p class="hint" data-testid="form-extra">{ tf("editor.form_extra", &[("names", &form.extra.join(", "))]) }</p>
            }
        </details>
    }
}
