//! A step's redraw: the regions a move of the playhead changes (the
//! player, the narration, each lane's status, diagram and end), patched
//! region by region instead of drawing the whole page.

use web_sys::Element;

use super::morph::{morph_region, patch_parts};
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
    morph_region(&player, &view::player::player(&state).into_string());
    morph_region(
        &narration,
        &view::narration::narration(&state).into_string(),
    );
    for (i, article) in lanes.iter().enumerate() {
        let (Some(parts), Ok(Some(status)), Ok(Some(svg))) = (
            view::lane::moving(&state, i, false),
            article.query_selector(":scope > .lane-status"),
            article.query_selector(":scope > svg.lane-svg"),
        ) else {
            return false;
        };
        morph_region(&status, &parts.status.into_string());
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
                patch_children(&svg, &children);
                let live = svg.query_selector(":scope > g.labels").ok().flatten();
                if let (Some(live), Some(kids)) = (live, group.and_then(view::children)) {
                    patch_children(&live, &kids);
                }
            }
            None => morph_region(&svg, &drawn),
        }
        let end = parts.end.into_string();
        match (
            article
                .query_selector(":scope > footer.lane-end")
                .ok()
                .flatten(),
            end.is_empty(),
        ) {
            (Some(footer), false) => morph_region(&footer, &end),
            (Some(footer), true) => footer.remove(),
            (None, false) => {
                let _ = article.insert_adjacent_html("beforeend", &end);
            }
            (None, true) => {}
        }
    }
    true
}

/// Patches `el`'s children to `children` (each child element's markup):
/// one string to JS, and where each child ends in it.
fn patch_children(el: &Element, children: &[&str]) {
    let mut at = 0u32;
    let ends = children
        .iter()
        .map(|c| {
            at += c.encode_utf16().count() as u32;
            at
        })
        .collect();
    patch_parts(el, &children.concat(), ends);
}
