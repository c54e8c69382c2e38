//! One component per file (view functions where a component would cost
//! more than it gives). The editor's (`editor`, `code_editor`, `reply_pane`,
//! `exchange_history`, `header_table`) are linked in the full bundle only:
//! only its `bundle::panels` names them.

pub mod app;
pub mod code_editor;
pub mod editor;
pub mod exchange_history;
pub mod header_table;
pub mod help_dialog;
pub mod inspector;
pub mod lane;
pub mod lane_diagram;
pub mod narration;
pub mod player;
pub mod reply_pane;
pub mod scenario_picker;
pub mod settings_panel;
pub mod share_export;
pub mod theme_toggle;
pub mod view_tabs;
