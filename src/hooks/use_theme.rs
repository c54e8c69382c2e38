//! Light and dark themes: follow `prefers-color-scheme` until the reader
//! picks one with the toggle; the choice is remembered in localStorage and
//! applied as `data-theme` on the root element (style.css does the rest).

use yew::prelude::*;

const KEY: &str = "mcp-lanes.theme";

/// A theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    /// Dark ink on a light surface.
    Light,
    /// Light ink on a dark surface.
    Dark,
}

impl Theme {
    fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn stored() -> Option<Theme> {
    match storage()?.get_item(KEY).ok().flatten()?.as_str() {
        "light" => Some(Theme::Light),
        "dark" => Some(Theme::Dark),
        _ => None,
    }
}

fn system() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    if dark {
        Theme::Dark
    } else {
        Theme::Light
    }
}

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
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        if let (Some(root), Some(theme), true) = (root, chosen, enabled) {
            let _ = root.set_attribute("data-theme", theme.name());
            if let Some(storage) = storage() {
                let _ = storage.set_item(KEY, theme.name());
            }
        }
    });

    let ontoggle = {
        let chosen = chosen.clone();
        Callback::from(move |()| {
            chosen.set(Some(match theme {
                Theme::Light => Theme::Dark,
                Theme::Dark => Theme::Light,
            }))
        })
    };
    ThemeHandle { theme, ontoggle }
}
