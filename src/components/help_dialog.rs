//! The keyboard help: a modal `<dialog>` (the browser traps focus in it and
//! closes it on Esc); focus goes back where it was when it closes.
//! `showModal` focuses its Close button; an `autofocus` attribute would be
//! refused, with a console error, in a cross-origin iframe figure.

use crate::i18n::t;
use wasm_bindgen::JsCast;
use web_sys::{HtmlDialogElement, HtmlElement};
use yew::prelude::*;

use crate::view::help::SHORTCUTS;

#[derive(PartialEq, Properties)]
pub struct HelpDialogProps {
    pub open: bool,
    pub onclose: Callback<()>,
}

#[component]
pub fn HelpDialog(props: &HelpDialogProps) -> Html {
    let dialog_ref = use_node_ref();
    // The element that had focus before the dialog opened.
    let return_focus = use_mut_ref(|| None::<HtmlElement>);

    {
        let dialog_ref = dialog_ref.clone();
        let return_focus = return_focus.clone();
        use_effect_with(props.open, move |&open| {
            if let Some(dialog) = dialog_ref.cast::<HtmlDialogElement>() {
                let focused = || {
                    web_sys::window()
                        .and_then(|w| w.document())
                        .and_then(|d| d.active_element())
                        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
                };
                crate::browser::show_modal(&dialog, open, focused, &return_focus);
            }
        });
    }

    let onclose = props.onclose.reform(|_: Event| ());
    let onclick_close = props.onclose.reform(|_: MouseEvent| ());

    html! {
        <dialog ref={dialog_ref} class="help" data-testid="help-dialog" aria-labelledby="help-title" {onclose}>
            <h2 id="help-title">{ t("help.title") }</h2>
            <p>{ t("help.where") }</p>
            <table class="shortcuts">
                <thead><tr><th scope="col">{ t("help.key") }</th><th scope="col">{ t("help.does") }</th></tr></thead>
                <tbody>
                    { for SHORTCUTS.iter().map(|(key, what)| html! {
                        <tr><td><kbd>{ t(key) }</kbd></td><td>{ t(what) }</td></tr>
                    }) }
                </tbody>
            </table>
            <p>{ t("help.tab") }</p>
            <div class="dialog-actions">
                <button type="button" data-testid="help-close" onclick={onclick_close}>{ t("help.close") }</button>
            </div>
        </dialog>
    }
}
