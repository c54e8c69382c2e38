//! The islands' side effects: a live check's fetches, the rules' catalog; and the editor's state as a yew reducer (it is plain
//! Rust, so that it builds and is tested natively).

use std::rc::Rc;

use yew::Reducible;

use crate::editor_state::{EditorAction, EditorState};

pub mod live_fetch;
pub mod use_rule_text;

impl Reducible for EditorState {
    type Action = EditorAction;

    fn reduce(self: Rc<Self>, action: EditorAction) -> Rc<Self> {
        let mut next = (*self).clone();
        next.update(action);
        Rc::new(next)
    }
}
