//! The full bundle's islands: what is really interactive, as Yew apps
//! mounted into the hosts the views draw (`data-island`, which the
//! runtime's `morph` never descends into): a lane's settings
//! (`settings-N`), "Export a run" (`exports`), "Check a server" (`check`)
//! and the request editor (`editor`). The runtime syncs them after every
//! render: a new host gets its island, a host that left the page loses
//! it, the others get props read from the state now (equal props do not
//! re-render). They hand their actions to the runtime (`Dispatch`).
//! `bundle/lite/islands.rs` has the same items.

use mcp_lanes_core::server::ServerConfig;
use mcp_lanes_core::share;
use web_sys::Element;
use yew::prelude::*;
use yew::AppHandle;

use crate::components::check_opener::{CheckOpener, CheckOpenerProps};
use crate::components::editor::Editor;
use crate::components::settings_panel::{SettingsPanel, SettingsPanelProps};
use crate::components::share_export::{Exports, ExportsProps};
use crate::components::Language;
use crate::model::Shared;
use crate::state::{Action, Dispatch, Lane, State};

/// One mounted island.
enum Island {
    Settings(AppHandle<SettingsPanel>),
    Exports(AppHandle<Exports>),
    Check(AppHandle<CheckOpener>),
    Editor(AppHandle<EditorPanel>),
}

impl Island {
    fn destroy(self) {
        match self {
            Island::Settings(app) => app.destroy(),
            Island::Exports(app) => app.destroy(),
            Island::Check(app) => app.destroy(),
            Island::Editor(app) => app.destroy(),
        }
    }
}

/// The islands of one page, by host.
#[derive(Default)]
pub struct Islands {
    mounted: Vec<(Element, String, Island)>,
    /// The runtime's dispatch as a callback (one for the page's life, so
    /// that it compares equal between renders).
    dispatch: Option<Callback<Action>>,
}

/// What an island named `name` shows of `state`.
enum Props {
    Settings(SettingsPanelProps),
    Exports(ExportsProps),
    Check(CheckOpenerProps),
    Editor(EditorPanelProps),
}

fn props(name: &str, state: &State, dispatch: &Callback<Action>, lang: &str) -> Option<Props> {
    let dispatch = dispatch.clone();
    let lang = AttrValue::from(lang.to_string());
    Some(match name {
        "exports" => Props::Exports(ExportsProps {
            scenario: AttrValue::from(state.scenario_id().to_string()),
            lanes: state.lanes.clone(),
            keep_secrets: state.keep_secrets,
            dispatch,
            lang,
        }),
        "check" => Props::Check(CheckOpenerProps { dispatch, lang }),
        "editor" => Props::Editor(EditorPanelProps {
            viewed: state
                .lanes
                .get(state.selected.map_or(0, |s| s.lane))
                .cloned(),
            initial: state.editor_restored.clone(),
            files: state.file_servers.clone(),
            dispatch,
            lang,
        }),
        _ => {
            let index: usize = name.strip_prefix("settings-")?.parse().ok()?;
            Props::Settings(SettingsPanelProps {
                index,
                lane: state.lanes.get(index)?.clone(),
                dispatch,
                lang,
            })
        }
    })
}

impl Islands {
    /// Mounts, updates and takes down the islands of `root` to match the
    /// hosts in it and `state`, in the figure's language `lang`.
    pub fn sync(&mut self, root: &Element, state: &State, dispatch: &Dispatch, lang: &str) {
        let dispatch = self
            .dispatch
            .get_or_insert_with(|| {
                let dispatch = dispatch.clone();
                Callback::from(move |action| dispatch(action))
            })
            .clone();
        let hosts = crate::browser::elements(root, "[data-island]");
        // Hosts that left the page (or now hold another island).
        let mut kept = Vec::with_capacity(hosts.len());
        for (host, name, island) in self.mounted.drain(..) {
            let now = host.get_attribute("data-island");
            if hosts.contains(&host) && now.as_deref() == Some(name.as_str()) {
                kept.push((host, name, island));
            } else {
                island.destroy();
            }
        }
        self.mounted = kept;
        for host in hosts {
            let Some(name) = host.get_attribute("data-island") else {
                continue;
            };
            let Some(props) = props(&name, state, &dispatch, lang) else {
                continue;
            };
            let at = self.mounted.iter().position(|(h, _, _)| *h == host);
            match (at.map(|i| &mut self.mounted[i].2), props) {
                (Some(Island::Settings(app)), Props::Settings(p)) => app.update(p),
                (Some(Island::Exports(app)), Props::Exports(p)) => app.update(p),
                (Some(Island::Check(app)), Props::Check(p)) => app.update(p),
                (Some(Island::Editor(app)), Props::Editor(p)) => app.update(p),
                (Some(_), _) => {}
                (None, props) => {
                    let root = host.clone();
                    let island = match props {
                        Props::Settings(p) => Island::Settings(mount(root, p)),
                        Props::Exports(p) => Island::Exports(mount(root, p)),
                        Props::Check(p) => Island::Check(mount(root, p)),
                        Props::Editor(p) => Island::Editor(mount(root, p)),
                    };
                    self.mounted.push((host, name, island));
                }
            }
        }
    }

    /// Takes every island down (the page stops).
    pub fn clear(&mut self) {
        for (_, _, island) in self.mounted.drain(..) {
            island.destroy();
        }
    }
}

fn mount<C>(host: Element, props: C::Properties) -> AppHandle<C>
where
    C: BaseComponent,
{
    yew::Renderer::<C>::with_root_and_props(host, props).render()
}

#[derive(PartialEq, Properties)]
pub struct EditorPanelProps {
    /// The set-up being viewed in the lanes (the inspected lane's, else the
    /// first): its server is a target.
    viewed: Option<Lane>,
    /// Content a permalink restored (read once, when the editor starts).
    initial: Option<share::EditorState>,
    /// The open scenario file's servers.
    files: Shared<Vec<(String, ServerConfig)>>,
    dispatch: Callback<Action>,
    /// The figure's language (selected before it draws).
    lang: AttrValue,
}

/// The request editor, with its content reported to the page state (for
/// the permalink) by a callback that stays the same between renders, so
/// playback does not re-render the editor.
#[component]
pub fn EditorPanel(props: &EditorPanelProps) -> Html {
    crate::i18n::select(&props.lang);
    let onlink = {
        let d = props.dispatch.clone();
        use_callback((), move |link: share::EditorState, _| {
            d.emit(Action::EditorLink(Box::new(link)))
        })
    };
    // The editor's own components render after this one: they select the
    // figure's language from this context.
    let language = Language(props.lang.clone());
    html! {
        <ContextProvider<Language> context={language}>
            <Editor viewed={props.viewed.clone()} initial={props.initial.clone()} {onlink}
                files={props.files.clone()} />
        </ContextProvider<Language>>
    }
}
