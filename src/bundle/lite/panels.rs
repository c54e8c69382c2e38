//! The lite bundle's panels: no editor (the state hands over before it
//! shows), and a lane's "Settings" and an "Export a run" panel whose
//! opening hands the page over to the full bundle, which has the settings
//! and the exporters and opens the panel (the first visit stays within its
//! size budget: the settings panel alone is about 6 KB gzip of WebAssembly).

use crate::i18n::t;
use yew::prelude::*;

use mcp_lanes_core::check::Verdict;
use mcp_lanes_core::sim::Timeline;

use crate::components::share_export::Status;
use crate::model::Layout;
use crate::state::Lane;
use crate::state::{Action, State};

/// Nothing: the lite page hands over before the editor shows.
pub fn editor_panel(_state: &UseReducerHandle<State>) -> Html {
    html! {}
}

/// "Export a run", handing over when opened (the lane picked and the copy
/// status are the full bundle's).
pub fn exports(
    state: &UseReducerHandle<State>,
    _picked: &UseStateHandle<u32>,
    _status: &UseStateHandle<Status>,
) -> Html {
    let d = state.dispatcher();
    let ontoggle = Callback::from(move |e: Event| {
        let details: web_sys::HtmlDetailsElement = e.target_unchecked_into();
        if details.open() {
            d.dispatch(Action::HandOver);
        }
    });
    html! {
        <details class="exports" data-testid="exports" {ontoggle}>
            <summary data-testid="exports-toggle" data-handover="">{ t("export.title") }</summary>
            <div class="export-body"><p class="export-note">{ t("export.loading") }</p></div>
        </details>
    }
}

/// A lane's "Settings", handing over when opened (the full bundle opens it
/// with the knobs in it).
pub fn settings(
    index: usize,
    _lane: &Lane,
    _onapply: Callback<mcp_lanes_core::settings::Setting>,
    _oncompare: Callback<mcp_lanes_core::settings::Setting>,
    _onreset: Callback<()>,
    onhandover: &Callback<()>,
) -> Html {
    let onhandover = onhandover.clone();
    let ontoggle = Callback::from(move |e: Event| {
        let details: web_sys::HtmlDetailsElement = e.target_unchecked_into();
        if details.open() {
            onhandover.emit(());
        }
    });
    html! {
        <details class="settings" data-testid={format!("settings-{index}")} {ontoggle}>
            <summary data-handover="">{ t("settings.title") }</summary>
            <div class="settings-body"><p class="export-note">{ t("settings.loading") }</p></div>
        </details>
    }
}
/// "Check a server", handing over when opened (reading and grading a
/// check is the full bundle's).
pub fn check_panel(state: &UseReducerHandle<State>) -> Html {
    let d = state.dispatcher();
    let ontoggle = Callback::from(move |e: Event| {
        let details: web_sys::HtmlDetailsElement = e.target_unchecked_into();
        if details.open() {
            d.dispatch(Action::HandOver);
        }
    });
    html! {
        <details class="check-panel" data-testid="check" {ontoggle}>
            <summary data-testid="check-toggle" data-handover="">{ t("check.title") }</summary>
            <div class="check-body"><p class="note">{ t("check.loading") }</p></div>
        </details>
    }
}

/// Nothing: the lite page never has a check open.
pub fn check_summary(_state: &State) -> Html {
    html! {}
}

/// Nothing: the lite page never has verdicts.
pub fn verdict_marks(
    _n: usize,
    _timeline: &Timeline,
    _verdicts: &[Verdict],
    _layout: &Layout,
    _time: Option<u64>,
) -> Html {
    html! {}
}

/// Nothing: the lite page never has verdicts.
pub fn verdict_list(_verdicts: &[Verdict], _index: usize) -> Html {
    html! {}
}
