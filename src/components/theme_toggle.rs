//! The light/dark theme switch.

use crate::i18n::t;
use yew::prelude::*;

use crate::hooks::use_theme::Theme;

#[derive(PartialEq, Properties)]
pub struct ThemeToggleProps {
    pub theme: Theme,
    pub ontoggle: Callback<()>,
}

#[component]
pub fn ThemeToggle(props: &ThemeToggleProps) -> Html {
    let dark = props.theme == Theme::Dark;
    html! {
        <button type="button" class="theme-toggle" data-testid="theme-toggle"
            aria-pressed={if dark { "true" } else { "false" }}
            onclick={props.ontoggle.reform(|_: MouseEvent| ())}>
            <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
                <circle cx="8" cy="8" r="6" class="icon-ring" />
                <path d="M8 2a6 6 0 0 1 0 12z" />
            </svg>
            { t("theme.dark") }
        </button>
    }
}
