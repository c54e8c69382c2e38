//! Patches a live DOM subtree to match markup text (the runtime renders
//! `view::page` as text on every change). Elements that stay are kept, so
//! focus, scroll positions, text selection and a `<details>` a reader
//! opened survive a render; an element whose `data-key` or `data-testid`
//! changed is a new element (an envelope restarts its animation).
//!
//! The rules, in `patch_children` below: children are matched in order by
//! node type, tag and key; a keyed child found further on is moved; the
//! rest are inserted, and live children left over are removed; a subtree
//! equal to its markup (`isEqualNode`, most of the page on a step) is left
//! as it is without walking it. An island's host (`data-island`) gets its
//! attributes patched, never its children (the island draws them). Attributes
//! are set and removed to match, except `open` (a `<details>` or
//! `<dialog>` a reader or `showModal` opened keeps its state; the markup's
//! `open` applies when the element is first inserted). A form control's
//! current value follows the markup's, except one marked `data-keep` (the
//! picker's search keeps what the reader typed).
//!
//! On a step, only the player and the narration are patched (`regions`);
//! the lanes were drawn whole and are shown by their marks (`marks`).

use wasm_bindgen::prelude::*;
use web_sys::Element;

#[wasm_bindgen(module = "/src/runtime/morph.js")]
extern "C" {
    /// Makes `root`'s children match `html` (see the module docs).
    pub fn morph(root: &Element, html: &str);
    /// Makes `el` itself match the one element of `html` (a region of the
    /// page: the player, the narration, a lane's status); nothing to do
    /// when `el` was drawn from the same markup last time. `mark` names
    /// the call (see `region_known`).
    pub fn morph_region(el: &Element, html: &str, mark: u32);
    /// Whether `el` is still as the `morph_region` call marked `mark` left
    /// it (nothing has patched it since).
    pub fn region_known(el: &Element, mark: u32) -> bool;
}
