//! While playback runs, keeps the playhead in view: when it moves below the
//! bottom of the window, the page scrolls by just enough (instantly, so
//! reduced motion needs nothing special).

use yew::prelude::*;

/// Scrolls the page to follow the playhead while `playing`.
#[hook]
pub fn use_follow_playhead(pos: usize, playing: bool) {
    use_effect_with((pos, playing), |&(_, playing)| {
        if !playing {
            return;
        }
        crate::browser::follow_playhead();
    });
}
