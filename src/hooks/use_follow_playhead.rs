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
        let Some(window) = web_sys::window() else {
            return;
        };
        let playhead = window
            .document()
            .and_then(|d| d.query_selector("[data-playhead]").ok().flatten());
        let height = window
            .inner_height()
            .ok()
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        if let Some(playhead) = playhead {
            let bottom = playhead.get_bounding_client_rect().bottom();
            if height > 0.0 && bottom > height - 48.0 {
                window.scroll_by_with_x_and_y(0.0, bottom - height + height / 3.0);
            }
        }
    });
}
