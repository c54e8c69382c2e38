//! Both sides of the hand-over between the bundles (see `upgrade`).
//! Lite: fetches the recorded runs a scenario switch waits for, and hands
//! over to the full bundle when the reducer asks for it. Full: after a
//! hand-over, opens the panels and focuses the control as they were.

use yew::prelude::*;

use crate::config::Config;
use crate::model::Shared;
#[cfg(not(feature = "engine"))]
use crate::state::Action;
use crate::state::State;

/// Carries out `state.fetching` and `state.upgrade` (lite bundle).
#[cfg(not(feature = "engine"))]
#[hook]
pub fn use_upgrade(state: &UseReducerHandle<State>, _config: &Shared<Config>, _root: &NodeRef) {
    let fetching = state.fetching.clone();
    {
        let state = state.clone();
        use_effect_with(fetching, move |fetching| {
            if fetching.is_some() {
                crate::recorded::fetch_for(&state, state.dispatcher());
            }
        });
    }
    let upgrade = state.upgrade.clone();
    let state = state.clone();
    use_effect_with(upgrade, move |upgrade| {
        if let Some(upgrade) = upgrade {
            let failed = {
                let d = state.dispatcher();
                yew::Callback::from(move |()| d.dispatch(Action::HandOverFailed))
            };
            crate::upgrade::to_full(Some(&state), (**upgrade).clone(), Some(failed));
        }
    });
}

/// Restores what the hand-over carried once the page is drawn (full bundle).
#[cfg(feature = "engine")]
#[hook]
pub fn use_upgrade(_state: &UseReducerHandle<State>, config: &Shared<Config>, root: &NodeRef) {
    let (root, arrival) = (root.clone(), config.arrival.clone());
    use_effect_with((), move |_| {
        if let (Some(el), Some(arrival)) = (root.cast::<web_sys::Element>(), arrival) {
            crate::upgrade::arrive(&el, &arrival);
        }
    });
}
