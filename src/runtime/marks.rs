//! A lane drawn whole, shown at a position: the runtime draws every lane
//! as the complete figure does (every event, each element marked with the
//! positions it shows at, `view::figure`), and a step only shows and
//! hides what those marks say, with the drawn figure's own player code
//! (`www/player.js`, `Marks`): no markup is drawn or parsed on a step.

use wasm_bindgen::prelude::*;
use web_sys::Element;

#[wasm_bindgen(module = "/www/player.js")]
extern "C" {
    /// The position marks of one drawn lane (`www/player.js`).
    pub type Marks;
    /// Reads the marks under `root` (each marked element leaves a comment
    /// where it goes back in).
    #[wasm_bindgen(constructor)]
    pub fn new(root: &Element) -> Marks;
    /// Shows what is drawn at position `pos`; `playhead`: the playhead's
    /// y, `d_class`: the envelopes' duration class (`view::diagram::step_class`).
    #[wasm_bindgen(method)]
    pub fn show(this: &Marks, pos: u32, playhead: &str, d_class: &str);
    /// Puts every marked element back where it was drawn and removes the
    /// marks (before the page is drawn again, so that the patch matches
    /// the lanes child for child).
    #[wasm_bindgen(method)]
    pub fn restore(this: &Marks);
}
