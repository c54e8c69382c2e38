//! "Check a server": opens a recorded check (`mcp-lanes check --out FILE`)
//! or recorded runs (`mcp-lanes client --out FILE`) from a file picker or a
//! file dropped on the panel; the page draws it as lanes with its verdicts
//! (`?timeline=URL` opens one from a URL). Full bundle only (the lite
//! bundle's panel hands over when opened).

use std::rc::Rc;

use mcp_lanes_core::scenarios::file::MAX_FILE_BYTES;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use crate::checked;
use crate::hooks::live_fetch;
use crate::state::{Action, State};

/// Reader-facing text of this module (issue 16 moves it to a catalog).
pub const TEXT_TITLE: &str = "Check a server";
const TEXT_RECORDED: &str = "Open a recorded check";
const TEXT_RECORDED_HELP: &str = "A file written by `mcp-lanes check --out FILE` (its verdicts are shown) or `mcp-lanes client --out FILE` (graded here), drawn as lanes with a verdict on each message judged.";
const TEXT_PICK: &str = "Choose a file";
const TEXT_DROP: &str = "\u{2026} or drop it here";
const TEXT_URL_HELP: &str = "Or link to one: add ?timeline=URL to this page's address (the file must be on this page's origin, or allow it with CORS).";
const TEXT_LIVE: &str = "Check a running server";
const TEXT_LIVE_HELP: &str = "The page runs the checks itself against a Streamable HTTP endpoint, with fetch: discover and its cache hints, an unknown tool and an unknown method, a version the server does not speak, a request without _meta. No tool of the server's is called. The server must allow this page's origin with CORS; a stdio server (or one you cannot change) can run behind `mcp-lanes bridge --cmd \"COMMAND\" --port 8931 --allow-origin ORIGIN`.";
const TEXT_URL_LABEL: &str = "Server URL";
const TEXT_RUN: &str = "Run the checks";
const TEXT_RUNNING: &str = "Checking\u{2026}";
const TEXT_DONE: &str = "Done.";
const TEXT_TOO_LARGE: &str = "is too large to open";
const TEXT_UNREADABLE: &str = "could not be read";

#[derive(PartialEq, Properties)]
pub struct CheckOpenerProps {
    pub dispatcher: UseReducerDispatcher<State>,
}

/// Reads `file` and opens it (or says why not).
fn open(file: web_sys::File, dispatcher: UseReducerDispatcher<State>) {
    let name = file.name();
    if file.size() > MAX_FILE_BYTES as f64 {
        dispatcher.dispatch(Action::CheckedProblem(format!(
            "{name} {TEXT_TOO_LARGE} (over {MAX_FILE_BYTES} bytes)."
        )));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let text = JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|t| t.as_string());
        let action = match text {
            None => Action::CheckedProblem(format!("{name} {TEXT_UNREADABLE}.")),
            Some(text) => match checked::read(&name, &text) {
                Ok(found) => Action::OpenChecked(Rc::new(found)),
                Err(why) => Action::CheckedProblem(why),
            },
        };
        dispatcher.dispatch(action);
    });
}

#[component]
pub fn CheckOpener(props: &CheckOpenerProps) -> Html {
    let dragging = use_state(|| false);
    let url = use_state(|| String::from("http://127.0.0.1:8931/mcp"));
    let status = use_state(String::new);
    let oninput = {
        let url = url.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            url.set(input.value());
        })
    };
    let onsubmit = {
        let d = props.dispatcher.clone();
        let url = url.clone();
        let status = status.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let (d, target, status) = (d.clone(), url.trim().to_string(), status.clone());
            status.set(TEXT_RUNNING.into());
            wasm_bindgen_futures::spawn_local(async move {
                let progress = d.clone();
                let blocked = live_fetch::run(target, move |checked| {
                    progress.dispatch(Action::LiveChecked(checked))
                })
                .await;
                if let Some(why) = blocked {
                    d.dispatch(Action::CheckedProblem(why));
                }
                status.set(TEXT_DONE.into());
            });
        })
    };
    let onchange = {
        let d = props.dispatcher.clone();
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
        let d = props.dispatcher.clone();
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
    html! {
        <div class="check-body">
            <section class="check-recorded" aria-labelledby="check-recorded-title">
                <h3 id="check-recorded-title">{ TEXT_RECORDED }</h3>
                <p class="note">{ TEXT_RECORDED_HELP }</p>
                <div class={classes!("drop-zone", (*dragging).then_some("dragging"))} data-testid="check-drop"
                    {ondragover} {ondragleave} {ondrop}>
                    <label class="file-pick">
                        <span>{ TEXT_PICK }</span>
                        <input type="file" accept=".json,application/json" data-testid="check-file" {onchange} />
                    </label>
                    <span class="drop-hint">{ TEXT_DROP }</span>
                </div>
                <p class="note">{ TEXT_URL_HELP }</p>
            </section>
            <section class="check-live" aria-labelledby="check-live-title">
                <h3 id="check-live-title">{ TEXT_LIVE }</h3>
                <p class="note">{ TEXT_LIVE_HELP }</p>
                <form {onsubmit}>
                    <label for="check-url">{ TEXT_URL_LABEL }</label>
                    <input type="url" id="check-url" data-testid="check-url" value={(*url).clone()} {oninput} />
                    <button type="submit" data-testid="check-run" disabled={*status == TEXT_RUNNING}>{ TEXT_RUN }</button>
                    <span role="status" data-testid="check-status">{ (*status).clone() }</span>
                </form>
            </section>
        </div>
    }
}
