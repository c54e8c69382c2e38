//! The full bundle's islands' components, one per file: what is really
//! interactive (the page's regions are drawn by the views, `view/`). The
//! runtime mounts them through `bundle::islands`: a lane's settings
//! (`settings_panel`), "Export a run" (`share_export`), "Check a server"
//! (`check_opener`) and the request editor (`editor`, with its reply pane,
//! history and header table, and `code_editor`).

pub mod check_opener;
pub mod code_editor;
pub mod editor;
pub mod settings_panel;
pub mod share_export;
