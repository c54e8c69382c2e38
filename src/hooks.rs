//! Custom hooks: the side effects the reducer must not do itself.

pub mod use_bridge;
pub mod use_follow_playhead;
pub mod use_history;
pub mod use_playback_timer;
pub mod use_shortcuts;
pub mod use_theme;
pub mod use_upgrade;
