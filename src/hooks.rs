//! Custom hooks: the side effects the reducers must not do themselves; and
//! the two states as yew reducers (the states are plain Rust, so that they
//! build and are tested natively).

use std::rc::Rc;

use yew::Reducible;

use crate::editor_state::{EditorAction, EditorState};
use crate::state::{Action, State};

pub mod live_fetch;
pub mod schema_worker;
pub mod use_bridge;
pub mod use_follow_playhead;
pub mod use_history;
pub mod use_playback_timer;
pub mod use_rule_text;
pub mod use_shortcuts;
pub mod use_theme;

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        next.update(action);
        Rc::new(next)
    }
}

impl Reducible for EditorState {
    type Action = EditorAction;

    fn reduce(self: Rc<Self>, action: EditorAction) -> Rc<Self> {
        let mut next = (*self).clone();
        next.update(action);
        Rc::new(next)
    }
}
