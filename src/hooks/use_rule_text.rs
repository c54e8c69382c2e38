//! The rules' summaries come in their own catalog (`i18n/<tag>.rules.json`),
//! fetched the first time a component shows rules; the component renders
//! again once they are here.

use yew::prelude::*;

use crate::browser;
use crate::i18n;

/// Fetches the rules' catalog once `wanted` (rules are on screen) and
/// re-renders the calling component when it is here.
#[hook]
pub fn use_rule_text(wanted: bool) {
    let loaded = use_state(i18n::has_rules);
    use_effect_with(wanted, move |&wanted| {
        if wanted && !*loaded && !i18n::has_rules() {
            wasm_bindgen_futures::spawn_local(async move {
                if browser::load_rules().await {
                    loaded.set(true);
                }
            });
        }
    });
}
