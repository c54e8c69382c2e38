//! A step's redraw: the regions a move of the playhead changes. The
//! player and the narration are patched as regions; each lane was drawn
//! whole with its position marks (`marks`), so a step only shows and
//! hides what they say: no lane markup is drawn or parsed.

use super::regions::Region;
use super::{find, Inner};
use crate::view;

/// Redraws what a step changes (false: the page is not as the last render
/// left it, the whole page must be drawn).
pub(super) fn render_step(inner: &Inner) -> bool {
    if !inner.alive.get() {
        return true;
    }
    crate::i18n::select(&inner.lang);
    let state = inner.state.borrow();
    if inner.marks.borrow().len() != state.lanes.len() {
        return false;
    }
    let (Some(player), Some(narration)) = (
        find(inner, "[data-testid='player']"),
        find(inner, "[data-testid='narration']"),
    ) else {
        return false;
    };
    let mut cache = inner.regions.borrow_mut();
    cache.region(
        &player,
        Region::Player,
        view::player::player(&state).into_string(),
    );
    cache.region(
        &narration,
        Region::Narration,
        view::narration::narration(&state).into_string(),
    );
    show_lanes(inner, &state);
    true
}

/// Shows each lane drawn whole (`marks`) at the state's position.
pub(super) fn show_lanes(inner: &Inner, state: &crate::state::State) {
    let playhead = view::num(state.layout.playhead_y(state.pos));
    let d_class = view::diagram::step_class(crate::state::step_ms(state.speed));
    let pos = u32::try_from(state.pos).unwrap_or(u32::MAX);
    for marks in inner.marks.borrow().iter() {
        marks.show(pos, &playhead, d_class);
    }
}
