//! Light and dark themes: follow `prefers-color-scheme` until the reader
//! picks one with the toggle; the choice is remembered in localStorage and
//! applied as `data-theme` on the root element (style.css does the rest).

use yew::prelude::*;

pub use crate::theme::Theme;
use crate::theme::{stored, system};

/// The handle returned by [`use_theme`].
pub struct ThemeHandle {
    /// The theme in effect.
    pub theme: Theme,
    /// Switches to the other theme and remembers the choice.
    pub ontoggle: Callback<()>,
}

/// The current theme and a toggle; only the page (`enabled`) applies and
/// remembers it (a figure takes its theme from its options).
#[hook]
pub fn use_theme(enabled: bool) -> ThemeHandle {
    // `None`: nothing chosen yet, follow the system.
    let chosen = use_state(stored);
    let theme = chosen.unwrap_or_else(system);

    use_effect_with(*chosen, move |chosen| {
        if let (Some(theme), true) = (chosen, enabled) {
            crate::theme::apply(*theme);
        }
    });

    let ontoggle = {
        let chosen = chosen.clone();
        Callback::from(move |()| chosen.set(Some(theme.toggled())))
    };
    ThemeHandle { theme, ontoggle }
}
