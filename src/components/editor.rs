//! The request editor: pick a server (a preset, or the viewed set-up's)
//! and a transport, write a JSON-RPC request (templates, capability and
//! version toggles, headers on HTTP), see the core's schema warnings, send
//! it, and read the exact reply with the rules that produced it. Sent pairs
//! become a lane and a history; any two replies can be diffed.
//!
//! Each control dispatches its [`EditorAction`] with the values it
//! carries (a typed callback per control; the editor ships in the full
//! bundle only, whose size has no budget of its own).

use gloo::timers::callback::Timeout;
use mcp_lanes_core::editor;
use mcp_lanes_core::server::presets::{self, PRESETS};
use mcp_lanes_core::server::ServerConfig;
use mcp_lanes_core::settings::{self, Capability};
use mcp_lanes_core::share;
use mcp_lanes_core::transport::TransportKind;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::components::code_editor::CodeEditor;
use crate::editor_state::{EditorAction, EditorState, Target};
use crate::hooks::live_fetch;
use crate::i18n::{self, t, tf};
use crate::model::Shared;
use crate::state::{Lane, STEP_MS};

mod arguments_form;
mod exchange_history;
mod header_table;
mod reply_pane;

use arguments_form::arguments_form;
use exchange_history::history;
use header_table::header_table;
use reply_pane::reply_pane;

/// Lane number of the editor's lane (test ids `message-90-…`).
pub const EDITOR_LANE: usize = 90;

/// Sends the editor its actions.
pub type Dispatch = UseReducerDispatcher<EditorState>;

#[derive(PartialEq, Properties)]
pub struct EditorProps {
    /// The set-up being viewed in the lanes (its server is a target).
    pub viewed: Option<Lane>,
    /// Content a permalink restored (read once, when the editor starts).
    #[prop_or_default]
    pub initial: Option<share::EditorState>,
    /// The content changed (debounced): for the permalink.
    #[prop_or_default]
    pub onlink: Callback<share::EditorState>,
    /// The servers of the open scenario file (also targets), by id.
    #[prop_or_default]
    pub files: Shared<Vec<(String, ServerConfig)>>,
}

/// A click that dispatches `action()`.
pub fn on_click(d: &Dispatch, action: impl Fn() -> EditorAction + 'static) -> Callback<MouseEvent> {
    let d = d.clone();
    Callback::from(move |_| d.dispatch(action()))
}

/// A `<select>` whose new value becomes `action(value)` (`None`: nothing).
fn on_select(
    d: &Dispatch,
    action: impl Fn(String) -> Option<EditorAction> + 'static,
) -> Callback<Event> {
    let d = d.clone();
    Callback::from(move |e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        if let Some(a) = action(select.value()) {
            d.dispatch(a);
        }
    })
}

/// `<option>`s of plain strings (value = text), `current` selected.
fn options<'a>(values: impl IntoIterator<Item = &'a str>, current: &str) -> Html {
    values
        .into_iter()
        .map(|v| html! { <option value={v.to_string()} selected={v == current}>{ v }</option> })
        .collect()
}

/// A labelled `<select>`.
fn select(label: String, testid: &'static str, onchange: Callback<Event>, options: Html) -> Html {
    html! {
        <label class="field">
            { label }
            <select data-testid={testid} {onchange}>{ options }</select>
        </label>
    }
}

/// The schema warnings, parse problem or refusal for the text.
fn lint_view(lint: &editor::Lint) -> Html {
    let head = if let Some(refusal) = lint.refusal() {
        html! { <p class="refusal" data-testid="editor-refusal" role="alert">{ i18n::note(&refusal) }</p> }
    } else if let Some(p) = &lint.parse {
        html! {
            <p class="refusal" data-testid="parse-problem" data-line={p.line.to_string()}>
                { tf("editor.not_json", &[
                    ("line", &p.line.to_string()),
                    ("column", &p.column.to_string()),
                    ("why", &i18n::note(&p.message)),
                ]) }
            </p>
        }
    } else if let (true, Some(m), Some(r)) =
        (lint.warnings.is_empty(), &lint.method, &lint.revision)
    {
        html! {
            <p class="validity" data-testid="editor-clean">{ format!("\u{2713} {}", tf("editor.clean", &[("method", m), ("revision", r)])) }</p>
        }
    } else {
        html! {}
    };
    let warnings = (!lint.warnings.is_empty()).then(|| html! {
        <ul class="warnings" data-testid="editor-warnings" aria-label={t("editor.warnings_aria")}>
            { for lint.warnings.iter().map(|w| html! {
                <li>
                    <code>{ w.path.clone() }</code>
                    { format!(" {} ", i18n::note(&w.message)) }
                    if let Some(id) = w.rule {
                        <a class="rule-id" href={mcp_lanes_core::rules::find(id).map_or("", |r| r.spec_url)}
                            target="_blank" rel="noopener">{ id }</a>
                    }
                </li>
            }) }
        </ul>
    });
    html! {
        <div data-testid="editor-lint">
            { head }
            { for warnings }
        </div>
    }
}

/// Where "Your server" points first: `mcp-lanes bridge`'s usual address.
const DEFAULT_REMOTE: &str = "http://127.0.0.1:8931/mcp";

/// "Your server": its URL (a change is a fresh connection) and what the
/// page needs of it (CORS, or `mcp-lanes bridge`).
fn remote_row(d: &Dispatch, url: &str) -> Html {
    let onchange = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            d.dispatch(EditorAction::Remote(input.value()));
        })
    };
    html! {
        <div class="row remote" data-testid="editor-remote">
            <label for="editor-remote-url">{ t("editor.remote_url") }</label>
            <input type="url" id="editor-remote-url" data-testid="editor-remote-url" value={url.to_string()} {onchange} />
            <p class="hint">{ tf("editor.remote_help", &[("url", DEFAULT_REMOTE)]) }</p>
        </div>
    }
}

/// Where this browser remembers "bump the id after each Send".
const BUMP_ID_KEY: &str = "mcp-lanes.editor.bump-id";

#[component]
pub fn Editor(props: &EditorProps) -> Html {
    crate::components::select_language(use_context());
    crate::hooks::use_rule_text::use_rule_text(true);
    // The viewed lane (cheap to clone); its server config is read when needed.
    let viewed = props.viewed.clone();
    let state = {
        let viewed = viewed.clone();
        let initial = props.initial.clone();
        let files = props.files.clone();
        use_reducer(move || {
            let mut state = match (initial, viewed) {
                (Some(link), lane) => {
                    EditorState::from_link(&link, lane.as_ref().map(|l| &l.setup.server), &files)
                }
                (None, Some(lane)) => EditorState::new(Target::Viewed, lane.setup.server.clone()),
                (None, None) => {
                    EditorState::new(Target::Preset("deploy-console"), presets::deploy_console())
                }
            };
            state.bump_id = crate::browser::remembered(BUMP_ID_KEY).unwrap_or(false);
            state
        })
    };
    // Report the content for the permalink, 300 ms after the last change
    // (not for the untouched start, so a plain page keeps a plain URL; not
    // for a text too large to send, which the page says it does not keep).
    // What changed is told by pointers: the text is never copied to compare.
    {
        let first = use_mut_ref(|| props.initial.is_none());
        let pending = use_mut_ref(|| None::<Timeout>);
        let onlink = props.onlink.clone();
        let key = (
            std::rc::Rc::as_ptr(&state.text) as *const u8 as usize,
            state.text.len(),
            state.link_key(),
        );
        let state = state.clone();
        use_effect_with(key, move |_| {
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                *pending.borrow_mut() = (!state.too_large()).then(|| {
                    let state = state.clone();
                    Timeout::new(300, move || onlink.emit(state.link()))
                });
            }
        });
    }
    // The lane plays the newest exchange in two steps: its request, then
    // (half a step later) its reply. `played`: exchanges shown in full.
    let played = use_state(|| 0usize);
    let timer = use_mut_ref(|| None::<Timeout>);

    // Follow the viewed set-up's server while it is the target.
    {
        let (state, lane) = (state.clone(), viewed.clone());
        use_effect_with(viewed.as_ref().map(|l| (l.key, l.version)), move |_| {
            if let (Target::Viewed, Some(lane)) = (state.target, lane) {
                let config = &lane.setup.server;
                if !state.talks_to(config) {
                    state.dispatch(EditorAction::Target(
                        Target::Viewed,
                        Box::new(config.clone()),
                    ));
                }
            }
        });
    }
    {
        let (played, d) = (played.clone(), state.dispatcher());
        use_effect_with(state.history.len(), move |&sent| {
            // The reply is on screen; the lane catches up in the next task.
            Timeout::new(0, move || d.dispatch(EditorAction::Lane)).forget();
            *timer.borrow_mut() = Some(Timeout::new(STEP_MS / 2, move || played.set(sent)));
        });
    }
    let sent = state.history.len();
    let pos = if sent == 0 || *played == sent {
        state.layout.len()
    } else {
        state.layout.position_of((sent - 1) as u64 * 1000)
    };

    let d = state.dispatcher();
    // Send: to a simulated server at once; to "Your server" by fetch, the
    // reply recorded as it came when it is here.
    let send = {
        let (d, state) = (d.clone(), state.clone());
        Callback::from(move |()| match state.remote_post() {
            None => d.dispatch(EditorAction::Send),
            // The lint refuses the text: Send says why.
            Some(Err(_)) => d.dispatch(EditorAction::Send),
            Some(Ok((url, request))) => {
                let d = d.clone();
                d.dispatch(EditorAction::RemoteSending);
                wasm_bindgen_futures::spawn_local(async move {
                    let (reply, blocked) = live_fetch::send_once(&url, &request).await;
                    d.dispatch(EditorAction::RemoteAnswer(
                        Box::new(request),
                        reply,
                        blocked,
                    ));
                });
            }
        })
    };
    let onkeydown = {
        let send = send.clone();
        Callback::from(move |e: KeyboardEvent| {
            if (e.ctrl_key() || e.meta_key()) && e.key() == "Enter" {
                e.prevent_default();
                send.emit(());
            }
        })
    };
    // Callbacks handed to child components stay the same between renders, so
    // a send does not re-render (and re-highlight) the text or redraw the lane.
    let onedit = {
        let d = state.dispatcher();
        use_memo((), move |_| {
            Callback::from(move |text: String| d.dispatch(EditorAction::Edit(text)))
        })
    };
    // A message in the lane shows its exchange (exchanges are 1 s apart).
    let oninspect = {
        let d = state.dispatcher();
        use_memo(state.lane.clone(), move |lane| {
            let lane = lane.clone();
            Callback::from(move |event: usize| {
                if let Some(e) = lane.events.get(event) {
                    d.dispatch(EditorAction::Show((e.at_ms / 1000) as usize));
                }
            })
        })
    };

    let on_bump = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            crate::browser::remember(BUMP_ID_KEY, input.checked());
            d.dispatch(EditorAction::BumpId(input.checked()));
        })
    };
    let lint = &state.lint;
    let toggles = Capability::ALL.iter().map(|&cap| {
        let onchange = {
            let d = d.clone();
            Callback::from(move |e: Event| {
                let input: HtmlInputElement = e.target_unchecked_into();
                d.dispatch(EditorAction::Capability(cap, input.checked()));
            })
        };
        html! {
            <label class="check">
                <input type="checkbox" data-testid={format!("editor-cap-{}", cap.label())}
                    checked={lint.declared.contains(&cap)} {onchange} />
                { cap.label() }
            </label>
        }
    });
    let version = lint.version.as_deref().unwrap_or("");
    let versions = html! {
        <>
            if version.is_empty() {
                { options(["\u{2014}"], "\u{2014}") }
            }
            { options(settings::known_versions(), version) }
        </>
    };
    let file_target = match state.target {
        Target::File(i) => format!("file:{i}"),
        _ => String::new(),
    };
    let target = match state.target {
        Target::Viewed => "viewed",
        Target::Preset(id) => id,
        Target::File(_) => file_target.as_str(),
        Target::Remote => "remote",
    };
    let remote_url = state.remote_url();
    let targets = html! {
        <>
            if let Some(lane) = &props.viewed {
                <option value="viewed" selected={target == "viewed"}>
                    { tf("editor.viewed_setup", &[("server", &crate::i18n::peer_label(&lane.timeline.server_label))]) }
                </option>
            }
            { for props.files.iter().enumerate().map(|(i, (id, _))| {
                let value = format!("file:{i}");
                let selected = value == target;
                html! {
                    <option {selected} {value}>{ tf("editor.file_target", &[("id", id)]) }</option>
                }
            }) }
            { options(PRESETS.iter().map(|(id, _)| *id), target) }
            <option value="remote" selected={target == "remote"}>{ t("editor.your_server") }</option>
        </>
    };
    let ontarget = {
        let viewed = props.viewed.clone();
        let files = props.files.clone();
        on_select(&d, move |v| {
            if v == "remote" {
                return Some(EditorAction::Remote(DEFAULT_REMOTE.to_string()));
            }
            let file = v
                .strip_prefix("file:")
                .and_then(|i| i.parse::<usize>().ok());
            let (target, config) = match (file, PRESETS.iter().find(|(id, _)| *id == v)) {
                (Some(i), _) => (Target::File(i), files.get(i)?.1.clone()),
                (None, Some((id, _))) => (Target::Preset(id), presets::server(id)?),
                (None, None) => (Target::Viewed, viewed.as_ref()?.setup.server.clone()),
            };
            Some(EditorAction::Target(target, Box::new(config)))
        })
    };
    let ontransport = on_select(&d, |v| {
        Some(EditorAction::Transport(if v == "http" {
            TransportKind::Http
        } else {
            TransportKind::Stdio
        }))
    });
    let transport = state.transport.name();
    let lane = &state.lane;
    let shown = state
        .shown
        .and_then(|i| state.history.get(i).map(|s| (i, &**s)));

    html! {
        <section class="editor" data-testid="editor" aria-label={t("editor.aria")} {onkeydown}>
            <div class="editor-grid">
                <div class="editor-write">
                    <div class="row">
                        { select(t("editor.server"), "editor-target", ontarget, targets) }
                        { select(t("editor.transport"), "editor-transport", ontransport, options(["stdio", "http"], transport)) }
                        <button type="button" data-testid="new-connection"
                            onclick={on_click(&d, || EditorAction::NewConnection)}>{ t("editor.new_connection") }</button>
                    </div>
                    if let Some(url) = &remote_url {
                        { remote_row(&d, url) }
                    }
                    <div class="row">
                        { select(t("editor.template_revision"), "editor-revision", on_select(&d, |v| Some(EditorAction::Revision(v))),
                            options(settings::known_versions(), state.revision)) }
                        { select(t("editor.template_method"), "editor-method", on_select(&d, |v| Some(EditorAction::Method(v))),
                            options(editor::methods(state.revision).iter().copied(), state.method)) }
                        <button type="button" data-testid="insert-template"
                            onclick={on_click(&d, || EditorAction::Template)}>{ t("editor.template_insert") }</button>
                        <button type="button" data-testid="format"
                            onclick={on_click(&d, || EditorAction::Format)}>{ t("editor.format") }</button>
                    </div>
                    <fieldset class="row toggles">
                        <legend>{ t("editor.declares") }</legend>
                        { for toggles }
                        { select(t("editor.asks_version"), "editor-version", on_select(&d, |v| Some(EditorAction::Version(v))), versions) }
                    </fieldset>
                    <CodeEditor text={AttrValue::from(state.text.clone())} replaced={state.replaced} problem={lint.parse.as_ref().map(|p| (p.line, p.column))} oninput={(*onedit).clone()} />
                    if state.too_large() {
                        <p class="notice" data-testid="editor-too-large" role="status">
                            { tf("editor.too_large", &[
                                ("bytes", &state.text.len().to_string()),
                                ("limit", &editor::MAX_REQUEST_BYTES.to_string()),
                            ]) }
                        </p>
                    }
                    <p class="hint" id="editor-keys">
                        { t("editor.keys") }
                    </p>
                    { lint_view(lint) }
                    { arguments_form(&d, state.form.as_ref()) }
                    if state.transport == TransportKind::Http {
                        { header_table(&d, &state.headers, state.headers_edited, state.http_session()) }
                    }
                    <div class="row">
                        <button type="button" class="primary" data-testid="send"
                            onclick={send.reform(|_: MouseEvent| ())}>{ t("editor.send") }</button>
                        <span class="hint">
                            { tf("editor.send_hint", &[("server", &crate::i18n::peer_label(&state.server_label())), ("transport", transport)]) }
                        </span>
                        <label class="check">
                            <input type="checkbox" data-testid="editor-bump-id" checked={state.bump_id} onchange={on_bump} />
                            { t("editor.bump_id") }
                        </label>
                    </div>
                    if let Some((words, error)) = &state.notice {
                        <div class={if *error { "notice" } else { "notice info" }} data-testid="editor-notice"
                            role={if *error { "alert" } else { "status" }}>
                            { words.clone() }
                            <button type="button" class="small"
                                onclick={on_click(&d, || EditorAction::Dismiss)}>{ t("editor.dismiss") }</button>
                        </div>
                    }
                </div>
                { reply_pane(&d, shown) }
            </div>
            <div class="editor-grid">
                <section class="editor-lane" aria-label={t("editor.lane_aria")}>
                    <p class="peers">{ tf("editor.peers", &[("client", &if lane.client_label == editor::CLIENT_LABEL { t("editor.you") } else { crate::i18n::peer_label(&lane.client_label) }), ("server", &crate::i18n::peer_label(&lane.server_label)), ("transport", transport)]) }</p>
                    <EditorLane timeline={lane.clone()} layout={state.layout.clone()}
                        {pos} oninspect={(*oninspect).clone()} />
                </section>
                { history(&d, &state.history, state.shown, state.diff_pair()) }
            </div>
        </section>
    }
}

#[derive(PartialEq, Properties)]
struct EditorLaneProps {
    /// The editor's run (compared by pointer).
    timeline: Shared<mcp_lanes_core::sim::Timeline>,
    layout: Shared<crate::model::Layout>,
    pos: usize,
    /// A message or marker was picked (its position).
    oninspect: Callback<usize>,
}

/// The editor's lane, drawn by the page's view (`view::diagram`): redrawn
/// only when its run, layout or position change. A click, Enter or Space
/// on a message or marker (`data-act="inspect"`) picks it.
#[component]
fn EditorLane(props: &EditorLaneProps) -> Html {
    crate::components::select_language(use_context());
    let markup = crate::view::diagram::diagram(&crate::view::diagram::Diagram {
        index: EDITOR_LANE,
        row: 0,
        hint: Some(&t("editor.lane_hint")),
        timeline: &props.timeline,
        layout: &props.layout,
        pos: props.pos,
        step_ms: STEP_MS,
        selected: None,
        complete: false,
        verdicts: &[],
    });
    let picked = |e: &web_sys::Event| -> Option<usize> {
        let target: web_sys::Element = e.target()?.dyn_into().ok()?;
        let el = target.closest("[data-act='inspect']").ok()??;
        el.get_attribute("data-arg")?
            .split_once(':')?
            .1
            .parse()
            .ok()
    };
    let onclick = {
        let oninspect = props.oninspect.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(event) = picked(&e) {
                oninspect.emit(event);
            }
        })
    };
    let onkeydown = {
        let oninspect = props.oninspect.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                if let Some(event) = picked(&e) {
                    e.prevent_default();
                    oninspect.emit(event);
                }
            }
        })
    };
    html! {
        <div class="editor-diagram" {onclick} {onkeydown}>
            { Html::from_html_unchecked(AttrValue::from(markup.into_string())) }
        </div>
    }
}
