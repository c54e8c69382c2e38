//! The scenario picker: the twenty scenarios of the catalog with their
//! one-line summaries, as links (`?scenario=ID`) so they can be opened in a
//! new tab too; a plain click opens the scenario in place.

use crate::i18n::{self, t};
use mcp_lanes_core::scenarios::CATALOG;
use yew::prelude::*;

use crate::view::picker::numbered_title;

#[derive(PartialEq, Properties)]
pub struct ScenarioPickerProps {
    /// Id of the open scenario.
    pub current: AttrValue,
    /// Whether the list starts unfolded.
    pub open: bool,
    /// A scenario was picked (its id).
    pub onselect: Callback<&'static str>,
}

#[component]
pub fn ScenarioPicker(props: &ScenarioPickerProps) -> Html {
    let current = CATALOG.iter().find(|s| s.id == props.current.as_str());
    html! {
        <details class="picker" data-testid="scenario-picker" open={props.open}>
            <summary>
                <span class="picker-label">{ t("picker.label") }</span>
                { for current.map(|s| html! {
                    <span class="picker-current">{ numbered_title(s) }</span>
                }) }
            </summary>
            <nav aria-label={t("picker.label")}>
                <ol class="picker-list">
                    { for CATALOG.iter().map(|s| {
                        let id = s.id;
                        let onselect = props.onselect.clone();
                        // A plain click opens in place; modified clicks keep
                        // the link's own behaviour (new tab, window).
                        let onclick = Callback::from(move |e: MouseEvent| {
                            let plain = e.button() == 0
                                && !e.ctrl_key() && !e.meta_key() && !e.shift_key() && !e.alt_key();
                            if plain {
                                e.prevent_default();
                                onselect.emit(id);
                            }
                        });
                        let is_current = s.id == props.current.as_str();
                        html! {
                            <li key={s.id}>
                                <a href={format!("?scenario={}", s.id)}
                                    data-testid={format!("scenario-{}", s.id)}
                                    aria-current={is_current.then_some("page")}
                                    {onclick}>
                                    <span class="picker-title">{ numbered_title(s) }</span>
                                    <span class="picker-summary">{ i18n::scenario_summary(s.id) }</span>
                                </a>
                            </li>
                        }
                    }) }
                </ol>
            </nav>
        </details>
    }
}
