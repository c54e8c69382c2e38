//! STUB (replaced by helper B's page view).

use maud::{html, Markup};

use super::Ui;
use crate::state::State;

/// The whole page.
pub fn page(state: &State, _ui: &Ui) -> Markup {
    html! { div class="app" { @for (i, lane) in state.lanes.iter().enumerate() {
        (super::diagram::diagram(&super::diagram::Diagram { index: i, row: i, hint: None, timeline: &lane.timeline, layout: &state.layout, pos: state.pos, step_ms: 450, selected: None }))
    } } }
}
