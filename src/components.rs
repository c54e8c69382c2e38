//! The full bundle's islands' components, one per file: what is really
//! interactive (the page's regions are drawn by the views, `view/`). The
//! runtime mounts them through `bundle::islands`: a lane's settings
//! (`settings_panel`), "Export a run" (`share_export`), "Check a server"
//! (`check_opener`) and the request editor (`editor`, with its reply pane,
//! history and header table, and `code_editor`).

use yew::AttrValue;

/// An island's language, given to the components inside it by a context
/// (they render after it, when another figure may be selected): each
/// selects it before it draws ([`select_language`]).
#[derive(Clone, PartialEq)]
pub struct Language(pub AttrValue);

/// Selects the island's language (`i18n::select`), if one was given.
pub fn select_language(language: Option<Language>) {
    if let Some(Language(tag)) = language {
        crate::i18n::select(&tag);
    }
}

pub mod check_opener;
pub mod code_editor;
pub mod editor;
pub mod settings_panel;
pub mod share_export;
