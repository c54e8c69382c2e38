//! "Lanes | Editor": which view fills the main area, as two toggle
//! buttons (`E` switches from anywhere).

use crate::i18n::t;
use yew::prelude::*;

/// The switch; `onshow` gets true for the editor.
pub fn view_tabs(editor: bool, onshow: &Callback<bool>) -> Html {
    let tab = |to_editor: bool, label: String, panel: &'static str| {
        html! {
            <button type="button" data-testid={if to_editor { "tab-editor" } else { "tab-lanes" }}
                aria-controls={panel} aria-pressed={(editor == to_editor).to_string()}
                data-handover={to_editor.then_some("")}
                onclick={onshow.reform(move |_: MouseEvent| to_editor)}>{ label }</button>
        }
    };
    html! {
        <div class="view-tabs" role="group" aria-label={t("tabs.label")}>
            { tab(false, t("tabs.lanes"), "panel-lanes") }
            { tab(true, t("tabs.editor"), "panel-editor") }
        </div>
    }
}
