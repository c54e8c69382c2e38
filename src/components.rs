//! One component per file.

pub mod app;
#[cfg(feature = "engine")]
pub mod code_editor;
#[cfg(feature = "engine")]
pub mod editor;
#[cfg(feature = "engine")]
pub mod exchange_history;
#[cfg(feature = "engine")]
pub mod header_table;
pub mod help_dialog;
pub mod inspector;
pub mod lane;
pub mod lane_diagram;
pub mod narration;
pub mod player;
#[cfg(feature = "engine")]
pub mod reply_pane;
pub mod scenario_picker;
pub mod settings_panel;
pub mod share_export;
pub mod theme_toggle;
pub mod view_tabs;
