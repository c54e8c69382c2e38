//! What a step's part-by-part patch knew: each lane diagram's children as
//! last drawn, kept on the Rust side, so that a step sends JavaScript only
//! the children whose markup changed and, for the others, which live child
//! each one is (`morph.js`, `patch_plan`). Most of a diagram is as it was,
//! and comparing its markup here costs far less than carrying it across.

use std::collections::HashMap;

use web_sys::Element;

use super::morph::{morph_region, parts_known, patch_parts, patch_plan, region_known};
use crate::view::parts::plan;

/// One patched element's children as last drawn: their markup end to end,
/// and where each ends.
#[derive(Default)]
pub(super) struct Drawn {
    text: String,
    ends: Vec<usize>,
}

impl Drawn {
    /// Each child's markup.
    fn parts(&self) -> Vec<&str> {
        let mut from = 0;
        self.ends
            .iter()
            .map(|&to| {
                let part = &self.text[from..to];
                from = to;
                part
            })
            .collect()
    }

    /// Remembers `children` as drawn.
    fn keep(&mut self, children: &[&str]) {
        self.text.clear();
        self.ends.clear();
        for child in children {
            self.text.push_str(child);
            self.ends.push(self.text.len());
        }
    }
}

/// What a page's step patches drew last: each lane's diagram and labels
/// part by part, and each region's markup with the mark of its call.
#[derive(Default)]
pub(super) struct Cache {
    /// By lane and by which of its elements.
    pub parts: HashMap<(usize, Part), Drawn>,
    regions: HashMap<Region, (u32, String)>,
    marks: u32,
}

/// A region a step redraws whole.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Region {
    /// The player.
    Player,
    /// The narration.
    Narration,
    /// A lane's status line.
    Status(usize),
    /// A lane's end.
    End(usize),
    /// A lane's diagram, when it is not drawn part by part.
    Diagram(usize),
}

impl Cache {
    /// Makes `el` match `html` (`morph_region`), or nothing when it was
    /// drawn from the same markup last time and nothing has patched it
    /// since: the markup is compared here, not carried across.
    pub fn region(&mut self, el: &Element, region: Region, html: String) {
        if let Some((mark, last)) = self.regions.get(&region) {
            if *last == html && region_known(el, *mark) {
                return;
            }
        }
        self.marks = self.marks.wrapping_add(1);
        morph_region(el, &html, self.marks);
        self.regions.insert(region, (self.marks, html));
    }
}

/// Which element of a lane a cache entry is.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Part {
    /// The lane's diagram (`svg.lane-svg`).
    Diagram,
    /// Its labels' group (`g.labels`).
    Labels,
}

/// Makes `el`'s children match `children` (each child element's markup),
/// sending JavaScript only the children that differ from `drawn` (what was
/// drawn last); when the live children are not as the last patch left
/// them, the whole is sent.
pub(super) fn patch(el: &Element, children: &[&str], drawn: &mut Drawn) {
    let count = children.len() as u32;
    let old = drawn.parts();
    if !old.is_empty() {
        if old.len() == children.len() && old.iter().zip(children).all(|(a, b)| a == b) {
            if parts_known(el, count) {
                return;
            }
        } else {
            let (keep, fresh) = plan(&old, children);
            if patch_plan(el, keep, &fresh) {
                drawn.keep(children);
                return;
            }
        }
    }
    patch_parts(el, &children.concat(), count);
    drawn.keep(children);
}
