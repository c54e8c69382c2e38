//! The full bundle's side of the hand-over (the drawn page's `figure.js`
//! and the lite bundle's `bundle/lite/hand_over.rs` write it): the start
//! reads what the page left ([`take`]), and once the page is drawn the
//! panels it had open open again and the control it had focused has focus.

use web_sys::Element;
use yew::prelude::*;

use crate::config::{Arrival, Config, HANDOFF_GLOBAL};
use crate::model::Shared;

/// Reads and clears the hand-over the lite page left (`Config::receive`
/// reads it).
pub fn take() -> Option<String> {
    let window = web_sys::window()?;
    let text = js_sys::Reflect::get(&window, &HANDOFF_GLOBAL.into())
        .ok()?
        .as_string()?;
    let _ = js_sys::Reflect::delete_property(&window, &HANDOFF_GLOBAL.into());
    Some(text)
}

/// After a hand-over, once the page is drawn: restores the open panels and
/// the focus the page it took over had.
#[hook]
pub fn use_hand_over(config: &Shared<Config>, root: &NodeRef) {
    let (root, arrival) = (root.clone(), config.arrival.clone());
    use_effect_with((), move |_| {
        if let (Some(el), Some(arrival)) = (root.cast::<Element>(), arrival) {
            arrive(&el, &arrival);
        }
    });
}

/// Opens the panels and focuses the control `arrival` names, inside `root`.
fn arrive(root: &Element, arrival: &Arrival) {
    for id in &arrival.open {
        if let Ok(Some(el)) =
            root.query_selector(&format!("details[data-testid=\"{}\"]", css_id(id)))
        {
            let _ = el.set_attribute("open", "");
        }
    }
    if let Some(id) = &arrival.focus {
        if let Ok(Some(el)) = root.query_selector(&format!("[data-testid=\"{}\"]", css_id(id))) {
            if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                let _ = el.focus();
            }
        }
    }
}

/// A test id as it may appear in an attribute selector (ids are ours, but
/// a quote or backslash would break the selector).
fn css_id(id: &str) -> String {
    id.chars().filter(|c| !matches!(c, '"' | '\\')).collect()
}
