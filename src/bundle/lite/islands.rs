//! The lite bundle has no islands: where the full bundle mounts one, its
//! page draws a stand-in that hands over (`view`). `bundle/full/islands.rs`
//! has the same items.

use web_sys::Element;

use crate::state::{Dispatch, State};

/// No islands.
#[derive(Default)]
pub struct Islands;

impl Islands {
    /// Nothing to mount.
    pub fn sync(&mut self, _root: &Element, _state: &State, _dispatch: &Dispatch, _lang: &str) {}

    /// Nothing to take down.
    pub fn clear(&mut self) {}
}
