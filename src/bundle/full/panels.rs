//! The full bundle's panels: the request editor, a lane's settings and
//! "Export a run".

use mcp_lanes_core::server::ServerConfig;
use mcp_lanes_core::share;
use yew::prelude::*;

use crate::components::editor::Editor;
use crate::components::settings_panel::SettingsPanel;
use crate::components::share_export::{export_menu, Status};
use crate::model::Shared;
use crate::state::{Action, Lane, State};

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
    _onhandover: &Callback<()>,
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
