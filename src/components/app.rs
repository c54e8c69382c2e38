//! The page: header, scenario picker, playback controls, narration, the
//! lanes side by side and the inspector, plus the keyboard help. What only
//! one bundle has (the editor, the exporters, its side of the hand-over)
//! comes from the seam, `bundle`.

use crate::i18n::{self, t, tf};
use mcp_lanes_core::settings::Setting;
use mcp_lanes_core::share;
use yew::prelude::*;

use crate::bundle::hand_over::use_hand_over;
use crate::bundle::panels::{check_panel, check_summary, editor_panel, exports, verdict_list};
use crate::bundle::SIMULATOR;
use crate::components::help_dialog::HelpDialog;
use crate::components::inspector::Inspector;
use crate::components::lane::Lane;
use crate::components::narration::Narration;
use crate::components::player::Player;
use crate::components::scenario_picker::ScenarioPicker;
use crate::components::share_export::{share_link, Status};
use crate::components::theme_toggle::ThemeToggle;
use crate::components::view_tabs::view_tabs;
use crate::config::{Config, Mode};
use crate::hooks::use_bridge::{use_bridge, Host};
use crate::hooks::use_follow_playhead::use_follow_playhead;
use crate::hooks::use_history::{push_scenario, use_history};
use crate::hooks::use_playback_timer::use_playback_timer;
use crate::hooks::use_shortcuts::use_shortcuts;
use crate::hooks::use_theme::use_theme;
use crate::model::Shared;
use crate::permalink::page_url;
use crate::state::{step_ms, Action, Selection, State};
use crate::view::narration::lines;

/// What the app shows and where.
#[derive(PartialEq, Properties)]
pub struct AppProps {
    /// The page, an iframe figure or a mounted figure, and its options.
    pub config: Shared<Config>,
    /// A mounted figure's host element and remote control.
    #[prop_or_default]
    pub host: Host,
}

/// The page, or one figure.
#[component]
pub fn App(props: &AppProps) -> Html {
    let config = &props.config;
    let page = config.mode == Mode::Page;
    let root = use_node_ref();
    let state = use_reducer(|| State::start(config, SIMULATOR));
    use_playback_timer(&state);
    use_follow_playhead(state.pos, state.playing && page);
    use_shortcuts(
        state.dispatcher(),
        (config.mode == Mode::Mount).then(|| root.clone()),
    );
    use_history(state.dispatcher(), page);
    use_bridge(&state, config, &props.host, &root);
    let theme = use_theme(page);
    use_hand_over(config, &root);
    let picker_open = crate::view::page::picker_open(config);
    let embed = !page;
    // A figure offers the editor only when asked to (`editor: true`).
    let with_editor = page || config.editor;
    let editor = state.editor && with_editor;
    // What the last "Copy" said; the lane "Export" is about.
    let copied = use_state(Status::default);
    let export_lane = use_state(|| 0u32);
    let onlink = {
        let state = state.clone();
        Callback::from(move |()| {
            let origin = web_sys::window()
                .and_then(|w| w.location().origin().ok())
                .unwrap_or_default();
            origin + &page_url(&share::to_fragment(&state.share())).unwrap_or_default()
        })
    };

    let dispatch = |f: fn() -> Action| {
        let state = state.clone();
        Callback::from(move |()| state.dispatch(f()))
    };
    let onplay = dispatch(|| Action::Play);
    let onpause = dispatch(|| Action::Pause);
    let onrestart = dispatch(|| Action::Restart);
    let onend = dispatch(|| Action::JumpToEnd);
    let onhelp_close = dispatch(|| Action::Help(false));
    let oninspector_close = {
        let state = state.clone();
        Callback::from(move |()| state.dispatch(Action::Inspect(None)))
    };
    let onstep = {
        let state = state.clone();
        Callback::from(move |delta: i32| {
            state.dispatch(if delta < 0 {
                Action::StepBack
            } else {
                Action::StepForward
            })
        })
    };
    let onseek = {
        let state = state.clone();
        Callback::from(move |pos: usize| state.dispatch(Action::Seek(pos)))
    };
    let onspeed = {
        let state = state.clone();
        Callback::from(move |speed: usize| state.dispatch(Action::SetSpeed(speed)))
    };
    let onselect = {
        let state = state.clone();
        Callback::from(move |id: &'static str| {
            push_scenario(id);
            state.dispatch(Action::Load(id.to_string()));
        })
    };
    let oninspect = {
        let state = state.clone();
        Callback::from(move |(lane, event): (usize, usize)| {
            state.dispatch(Action::Inspect(Some(Selection { lane, event })))
        })
    };
    let onapply = {
        let state = state.clone();
        Callback::from(move |(lane, setting): (usize, Setting)| {
            state.dispatch(Action::Apply { lane, setting })
        })
    };
    let oncompare = {
        let state = state.clone();
        Callback::from(move |(lane, setting): (usize, Setting)| {
            state.dispatch(Action::Compare { lane, setting })
        })
    };
    let onremove = {
        let state = state.clone();
        Callback::from(move |lane: usize| state.dispatch(Action::RemoveLane(lane)))
    };
    let onreset = {
        let state = state.clone();
        Callback::from(move |lane: usize| state.dispatch(Action::ResetLane(lane)))
    };
    let onhelp_open = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Help(true)))
    };

    let step = step_ms(state.speed);
    let selection = state.selected.and_then(|sel| {
        state
            .lanes
            .get(sel.lane)
            .map(|lane| (sel.lane, lane.clone(), sel.event))
    });
    let verdicts = selection
        .as_ref()
        .map(|(_, lane, event)| verdict_list(&lane.verdicts, *event))
        .unwrap_or_default();
    let current_id = state.scenario.map(|s| s.id).unwrap_or_default();
    let problems = state.problems.clone();
    let onshow_editor = {
        let state = state.clone();
        Callback::from(move |on: bool| state.dispatch(Action::ShowEditor(on)))
    };
    let lane_count = state.lanes.len();
    let heading = crate::view::page::heading(&state, config);
    let region_name = crate::view::page::region_name(&state, config);
    let intro = html! {
        <section class="intro" aria-labelledby="scenario-title">
            if let (Some(s), Some(heading)) = (state.scenario, heading.clone()) {
                <h2 id="scenario-title" data-testid="scenario-title" data-scenario={s.id}>
                    { heading }
                </h2>
                <p class="summary">{ i18n::scenario_summary(s.id) }</p>
            }
            if let Some(file) = &state.file {
                <h2 id="scenario-title" data-testid="scenario-title" data-scenario={file.id.clone()} data-file="1">
                    { config.title.clone().filter(|_| !page).unwrap_or_else(|| file.title.clone()) }
                </h2>
                <p class="summary">{ file.summary.clone() }</p>
            }
            { check_summary(&state) }
            if let Some(problems) = &problems {
                <h2 id="scenario-title" data-testid="scenario-title">{ t("file.cannot_show") }</h2>
                <div class="notice file-problems" role="alert" data-testid="file-problems">
                    <p>{ if problems.len() == 1 { t("file.problem_one") } else { tf("file.problems", &[("count", &problems.len().to_string())]) } }</p>
                    <ul>
                        { for problems.iter().map(|p| html! { <li>{ p.clone() }</li> }) }
                    </ul>
                </div>
            }
            if let Some(notice) = &state.notice {
                <p class="notice" role="alert" data-testid="notice">{ notice }</p>
            }
        </section>
    };
    let body = html! {
        <>
            { intro }
            if with_editor {
                { view_tabs(editor, &onshow_editor) }
            }
            <div class="controls" hidden={editor || problems.is_some()}>
                <Player pos={state.pos} len={state.layout.len()} time={state.time()}
                    playing={state.playing} speed={state.speed}
                    {onplay} {onpause} {onstep} {onseek} {onrestart} {onend} {onspeed} />
                <Narration lines={lines(&state)} />
            </div>
            <div class="workspace" id="panel-lanes" hidden={editor || problems.is_some()}>
                <section class="lanes-area" aria-label={t("lanes.region")}>
                    if lane_count > 1 {
                        <p class="scroll-hint" data-testid="scroll-hint" data-count={lane_count.to_string()}>
                            { tf("lanes.scroll_hint", &[("count", &lane_count.to_string())]) }
                        </p>
                    }
                    <div class="lanes-scroller" data-testid="lanes" tabindex="0" role="region"
                        aria-label={if lane_count == 1 { t("lanes.one") } else { tf("lanes.many", &[("count", &lane_count.to_string())]) }}>
                        <div class="lanes">
                            { for state.lanes.iter().enumerate().map(|(i, lane)| html! {
                                <Lane key={lane.key} index={i} lane={lane.clone()} layout={state.layout.clone()}
                                    pos={state.pos} step_ms={step}
                                    selected={state.selected.filter(|s| s.lane == i).map(|s| s.event)}
                                    oninspect={oninspect.clone()} onapply={onapply.clone()}
                                    oncompare={oncompare.clone()} onremove={onremove.clone()}
                                    onreset={onreset.clone()} />
                            }) }
                        </div>
                    </div>
                    if page {
                        { exports(&state, &export_lane, &copied) }
                    }
                </section>
                <Inspector {selection} onclose={oninspector_close} {verdicts} />
            </div>
            if with_editor {
                <div id="panel-editor" hidden={!editor}>
                    { editor_panel(&state) }
                </div>
            }
        </>
    };

    // The page's content is its `main`; a figure's is a region of the
    // course page named by its title (the page has its own `main`). The
    // header and picker are hidden in a figure (style.css).
    html! {
        <div class={if embed { "app embed" } else { "app" }} ref={root}>
            <header class="app-header">
                <div class="brand">
                    <h1>{ "mcp-lanes" }</h1>
                    <p class="tagline">{ t("app.tagline") }</p>
                </div>
                <div class="header-actions">
                    <button type="button" data-testid="help-button" aria-haspopup="dialog"
                        aria-label={t("help.button")} onclick={onhelp_open}>
                        <span aria-hidden="true">{ "?" }</span>
                        <span class="button-text" aria-hidden="true">{ format!(" {}", t("help.keys")) }</span>
                    </button>
                    <ThemeToggle theme={theme.theme} ontoggle={theme.ontoggle.clone()} />
                    { share_link(&onlink, &copied) }
                </div>
            </header>
            <ScenarioPicker current={current_id} open={picker_open} {onselect} />
            if page {
                { check_panel(&state) }
            }
            if page {
                <main class="main" id="main">{ body }</main>
            } else {
                <section class="main" role="region" aria-label={region_name} data-testid="figure">
                    { body }
                    if let Some(caption) = &config.caption {
                        <p class="figure-caption" data-testid="figure-caption">{ caption.clone() }</p>
                    }
                </section>
            }
            <HelpDialog open={state.help_open} onclose={onhelp_close} />
        </div>
    }
}
