//! The regions a step redraws whole (the player, the narration), with the
//! markup each was last drawn from: a region drawn from the same markup
//! as last time, and not patched since, is not carried across at all.

use std::collections::HashMap;

use web_sys::Element;

use super::morph::{morph_region, region_known};

/// What the regions were last drawn from, with the mark of the call.
#[derive(Default)]
pub(super) struct Cache {
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
