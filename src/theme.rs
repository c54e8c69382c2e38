//! The page's theme: light or dark, as chosen (remembered in
//! `localStorage`) or as the system prefers (both bundles).

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
    /// Its name in `data-theme` and in storage.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The other one.
    pub fn toggled(self) -> Theme {
        match self {
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Light,
        }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The theme a person chose earlier, if any.
pub fn stored() -> Option<Theme> {
    match storage()?.get_item(KEY).ok().flatten()?.as_str() {
        "light" => Some(Theme::Light),
        "dark" => Some(Theme::Dark),
        _ => None,
    }
}

/// The theme the system prefers.
pub fn system() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    if dark {
        Theme::Dark
    } else {
        Theme::Light
    }
}

/// Applies a chosen theme to the page (`data-theme` on the root element)
/// and remembers it.
pub fn apply(theme: Theme) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let Some(root) = root {
        let _ = root.set_attribute("data-theme", theme.name());
    }
    if let Some(storage) = storage() {
        let _ = storage.set_item(KEY, theme.name());
    }
}
