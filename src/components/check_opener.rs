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
use crate::state::{Action, State};

/// Reader-facing text of this module (issue 16 moves it to a catalog).
pub const TEXT_TITLE: &str = "Check a server";
const TEXT_RECORDED: &str = "Open a recorded check";
const TEXT_RECORDED_HELP: &str = "A file written by `mcp-lanes check --out FILE` (its verdicts are shown) or `mcp-lanes client --out FILE` (graded here), drawn as lanes with a verdict on each message judged.";
const TEXT_PICK: &str = "Choose a file";
const TEXT_DROP: &str = "\u{2026} or drop it here";
const TEXT_URL_HELP: &str = "Or link to one: add ?timeline=URL to this page's address (the file must be on this page's origin, or allow it with CORS).";
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
        </div>
    }
}
