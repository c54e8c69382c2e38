//! A step's redraw: the regions a move of the playhead changes (the
//! player, the narration, each lane's status, diagram and end), patched
//! region by region instead of drawing the whole page.

use super::parts::{self, Part, Region};
use super::{find, Inner};
use crate::view;

/// Redraws what a step changes, region by region: the player, the
/// narration and in each lane what it holds, its diagram (part by part)
/// and its end (false: a region is not on the page as expected, the whole
/// page must be drawn).
pub(super) fn render_step(inner: &Inner) -> bool {
    if !inner.alive.get() {
        return true;
    }
    crate::i18n::select(&inner.lang);
    let state = inner.state.borrow();
    let mut cache = inner.parts.borrow_mut();
    let lanes = crate::browser::elements(&inner.root, ".lanes > article");
    let (Some(player), Some(narration)) = (
        find(inner, "[data-testid='player']"),
        find(inner, "[data-testid='narration']"),
    ) else {
        return false;
    };
    if lanes.len() != state.lanes.len() {
        return false;
    }
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
    for (i, article) in lanes.iter().enumerate() {
        let (Some(parts), Ok(Some(status)), Ok(Some(svg))) = (
            view::lane::moving(&state, i, false),
            article.query_selector(":scope > .lane-status"),
            article.query_selector(":scope > svg.lane-svg"),
        ) else {
            return false;
        };
        cache.region(&status, Region::Status(i), parts.status.into_string());
        let drawn = parts.diagram.into_string();
        match view::children(&drawn) {
            Some(mut children) => {
                // The labels' group (every label of the lane) is patched
                // label by label: at its level it stands as its empty self.
                let labels = children
                    .iter()
                    .position(|c| c.starts_with("<g class=\"labels\""));
                let group = labels.map(|i| children[i]);
                let empty = group.and_then(|g| Some(format!("{}</g>", &g[..=g.find('>')?])));
                if let (Some(i), Some(empty)) = (labels, &empty) {
                    children[i] = empty;
                }
                parts::patch(
                    &svg,
                    &children,
                    cache.parts.entry((i, Part::Diagram)).or_default(),
                );
                let live = svg.query_selector(":scope > g.labels").ok().flatten();
                if let (Some(live), Some(kids)) = (live, group.and_then(view::children)) {
                    parts::patch(
                        &live,
                        &kids,
                        cache.parts.entry((i, Part::Labels)).or_default(),
                    );
                }
            }
            None => cache.region(&svg, Region::Diagram(i), drawn.clone()),
        }
        let end = parts.end.into_string();
        match (
            article
                .query_selector(":scope > footer.lane-end")
                .ok()
                .flatten(),
            end.is_empty(),
        ) {
            (Some(footer), false) => cache.region(&footer, Region::End(i), end),
            (Some(footer), true) => footer.remove(),
            (None, false) => {
                let _ = article.insert_adjacent_html("beforeend", &end);
            }
            (None, true) => {}
        }
    }
    true
}
