//! "Check a server": opens a recorded conversation from a file picker or a
//! file dropped on the panel, in any format the core's importer reads (a
//! transcript, the `run --format json` document, a HAR capture, recorded
//! runs of `mcp-lanes client --out FILE`, a check report of
//! `mcp-lanes check --out FILE`); the page draws it as lanes with its
//! verdicts (`?timeline=URL` or `?transcript=URL` opens one from a URL). The full bundle's check island
//! (`bundle::islands`), in the body of the panel the views draw; the lite
//! bundle's panel hands over when opened.

use std::rc::Rc;

use mcp_lanes_core::import::MAX_BYTES as MAX_FILE_BYTES;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use crate::checked;
use crate::hooks::live_fetch;
use crate::i18n::{t, tf};
use crate::state::Action;

#[derive(PartialEq, Properties)]
pub struct CheckOpenerProps {
    /// Hands the page an action (the runtime's dispatch).
    pub dispatch: Callback<Action>,
    /// The figure's language (`i18n::select`ed before it draws: a page may
    /// hold figures in several).
    pub lang: AttrValue,
}

/// Reads `file` and opens it (or says why not).
fn open(file: web_sys::File, dispatcher: Callback<Action>) {
    let name = file.name();
    if file.size() > MAX_FILE_BYTES as f64 {
        dispatcher.emit(Action::CheckedProblem(tf(
            "check.file_too_large",
            &[("name", &name), ("limit", &MAX_FILE_BYTES.to_string())],
        )));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let text = JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|t| t.as_string());
        let action = match text {
            None => Action::CheckedProblem(tf("check.file_unreadable", &[("name", &name)])),
            Some(text) => match checked::read(&name, &text) {
                Ok(found) => {
                    // S-SCHEMA follows, once it is drawn.
                    let found = Rc::new(found);
                    let later = dispatcher.clone();
                    crate::recording::add_schema(Rc::clone(&found), move |a| later.emit(a));
                    Action::OpenChecked(found)
                }
                Err(why) => Action::CheckedProblem(why),
            },
        };
        dispatcher.emit(action);
    });
}

#[component]
pub fn CheckOpener(props: &CheckOpenerProps) -> Html {
    crate::i18n::select(&props.lang);
    let dragging = use_state(|| false);
    let url = use_state(|| String::from("http://127.0.0.1:8931/mcp"));
    let tool = use_state(String::new);
    let args = use_state(|| String::from("{}"));
    let status = use_state(String::new);
    let on_tool = {
        let tool = tool.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            tool.set(input.value());
        })
    };
    let on_args = {
        let args = args.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            args.set(input.value());
        })
    };
    let oninput = {
        let url = url.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            url.set(input.value());
        })
    };
    let onsubmit = {
        let d = props.dispatch.clone();
        let url = url.clone();
        let status = status.clone();
        let (tool, args) = (tool.clone(), args.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let (d, target, status) = (d.clone(), url.trim().to_string(), status.clone());
            // A tool is called only when the person names it (`--tool`).
            let tools = match crate::live::named_tool(&tool, &args) {
                Ok(tools) => tools,
                Err(why) => {
                    status.set(why);
                    return;
                }
            };
            status.set(t("check.running"));
            wasm_bindgen_futures::spawn_local(async move {
                let progress = d.clone();
                let blocked = live_fetch::run(target, tools, move |checked| {
                    progress.emit(Action::LiveChecked(checked))
                })
                .await;
                if let Some(why) = blocked {
                    d.emit(Action::CheckedProblem(why));
                }
                status.set(t("check.done"));
            });
        })
    };
    let onchange = {
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|files| files.get(0)) {
                open(file, d.clone());
            }
            input.set_value("");
        })
    };
    let ondragover = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(true);
        })
    };
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let ondrop = {
        let d = props.dispatch.clone();
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            let file = e
                .data_transfer()
                .and_then(|t| t.files())
                .and_then(|files| files.get(0));
            if let Some(file) = file {
                open(file, d.clone());
            }
        })
    };
    // Into the panel's body (the views draw it: `view::page::check_panel`).
    html! {
        <>
            <section class="check-recorded" aria-labelledby="check-recorded-title">
                <h3 id="check-recorded-title">{ t("check.recorded") }</h3>
                <p class="note">{ t("check.recorded_help") }</p>
                <div class={classes!("drop-zone", (*dragging).then_some("dragging"))} data-testid="check-drop"
                    {ondragover} {ondragleave} {ondrop}>
                    // The browser's own "Choose File / No file chosen" is
                    // not in the page's language: the input is visually
                    // hidden (still focusable, named by its label) and the
                    // label is the button one sees (full.css).
                    <label class="file-pick">
                        <input type="file" class="visually-hidden" accept=".json,.har,application/json" data-testid="check-file" {onchange} />
                        <span class="file-pick-button">{ t("check.pick") }</span>
                    </label>
                    <span class="drop-hint">{ t("check.drop") }</span>
                </div>
                <p class="note">{ t("check.url_help") }</p>
            </section>
            <section class="check-live" aria-labelledby="check-live-title">
                <h3 id="check-live-title">{ t("check.live") }</h3>
                <p class="note">{ t("check.live_help") }</p>
                <form {onsubmit}>
                    <label for="check-url">{ t("check.url_label") }</label>
                    <input type="url" id="check-url" data-testid="check-url" value={(*url).clone()} {oninput} />
                    <label for="check-tool">{ t("check.tool_label") }</label>
                    <input type="text" id="check-tool" data-testid="check-tool" value={(*tool).clone()} oninput={on_tool} />
                    <label for="check-args">{ t("check.args_label") }</label>
                    <input type="text" id="check-args" data-testid="check-args" value={(*args).clone()} oninput={on_args} />
                    <button type="submit" data-testid="check-run" disabled={*status == t("check.running")}>{ t("check.run") }</button>
                    <span role="status" data-testid="check-status">{ (*status).clone() }</span>
                </form>
            </section>
        </>
    }
}
