//! The full bundle's panels: the request editor, a lane's settings,
//! "Export a run", and "Check a server" with a recorded check's verdicts.

use mcp_lanes_core::server::ServerConfig;
use mcp_lanes_core::share;
use yew::prelude::*;

use crate::components::check_opener::CheckOpener;
use crate::components::editor::Editor;
use crate::components::settings_panel::SettingsPanel;
use crate::components::share_export::{export_menu, Status};
use crate::components::verdicts;
use crate::i18n::t;
use crate::model::{Layout, Shared};
use crate::state::{Action, Lane, State};
use mcp_lanes_core::check::Verdict;
use mcp_lanes_core::sim::Timeline;

/// The request editor, talking to the inspected lane's server (else the
/// first lane's) until the person picks another.
pub fn editor_panel(state: &UseReducerHandle<State>) -> Html {
    let viewed = state
        .lanes
        .get(state.selected.map_or(0, |s| s.lane))
        .cloned();
    html! {
        <EditorPanel {viewed} initial={state.editor_restored.clone()} dispatcher={state.dispatcher()}
            files={state.file_servers.clone()} />
    }
}

/// A lane's settings panel (lane `index`).
pub fn settings(
    index: usize,
    lane: &Lane,
    onapply: Callback<mcp_lanes_core::settings::Setting>,
    oncompare: Callback<mcp_lanes_core::settings::Setting>,
    onreset: Callback<()>,
) -> Html {
    html! {
        <SettingsPanel {index} lane={lane.clone()} {onapply} {oncompare} {onreset} />
    }
}

/// "Export a run" for the lane `picked`.
pub fn exports(
    state: &UseReducerHandle<State>,
    picked: &UseStateHandle<u32>,
    status: &UseStateHandle<Status>,
) -> Html {
    let scenario = state.scenario_id();
    export_menu(scenario, &state.lanes, picked, status)
}

/// "Check a server": open a recorded check (and, once open, the panel
/// stays where it was).
pub fn check_panel(state: &UseReducerHandle<State>) -> Html {
    html! {
        <details class="check-panel" data-testid="check">
            <summary data-testid="check-toggle">{ t("check.title") }</summary>
            <CheckOpener dispatcher={state.dispatcher()} />
        </details>
    }
}

/// The open check's heading and summary (nothing without one).
pub fn check_summary(state: &UseReducerHandle<State>) -> Html {
    match &state.checked {
        Some(checked) => verdicts::summary(checked, &state.dispatcher()),
        None => html! {},
    }
}

/// The verdict marks of lane `n` (nothing for a scenario's lane).
pub fn verdict_marks(
    n: usize,
    timeline: &Timeline,
    verdicts: &[Verdict],
    layout: &Layout,
    time: Option<u64>,
) -> Html {
    verdicts::marks(n, timeline, verdicts, layout, time)
}

/// The verdicts on one event, for the inspector.
pub fn verdict_list(verdicts: &[Verdict], index: usize) -> Html {
    verdicts::list(verdicts, index)
}

#[derive(PartialEq, Properties)]
struct EditorPanelProps {
    viewed: Option<Lane>,
    initial: Option<share::EditorState>,
    dispatcher: UseReducerDispatcher<State>,
    files: Shared<Vec<(String, ServerConfig)>>,
}

/// The editor with its content reported to the page state (for the
/// permalink) by a callback that stays the same between renders, so
/// playback does not re-render the editor.
#[component]
fn EditorPanel(props: &EditorPanelProps) -> Html {
    let onlink = {
        let d = props.dispatcher.clone();
        use_callback((), move |link: share::EditorState, _| {
            d.dispatch(Action::EditorLink(Box::new(link)))
        })
    };
    html! {
        <Editor viewed={props.viewed.clone()} initial={props.initial.clone()} {onlink}
            files={props.files.clone()} />
    }
}
