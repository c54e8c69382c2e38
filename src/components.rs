//! One component per file (view functions where a component would cost
//! more than it gives). The editor (`editor`, with its reply pane, history and
//! header table, and `code_editor`), `check_opener` and `verdicts` are
//! linked in the full bundle only: only its `bundle::panels` names them.

pub mod app;
pub mod check_opener;
pub mod code_editor;
pub mod editor;
pub mod help_dialog;
pub mod inspector;
pub mod lane;
pub mod lane_diagram;
pub mod narration;
pub mod player;
pub mod scenario_picker;
pub mod settings_panel;
pub mod share_export;
pub mod theme_toggle;
pub mod verdicts;
pub mod view_tabs;
