//! The request editor: pick a server (a preset, or the viewed set-up's)
//! and a transport, write a JSON-RPC request (templates, capability and
//! version toggles, headers on HTTP), see the core's schema warnings, send
//! it, and read the exact reply with the rules that produced it. Sent pairs
//! become a lane and a history; any two replies can be diffed.
//!
//! Its buttons, selects and fields carry `data-act` (and `data-arg`); one
//! handler per event type turns them into [`EditorAction`]s. That keeps the
//! bundle small: a closure per control would cost more than the editor.

use gloo::timers::callback::Timeout;
use mcp_lanes_core::editor;
use mcp_lanes_core::server::presets::{self, PRESETS};
use mcp_lanes_core::server::ServerConfig;
use mcp_lanes_core::settings::{self, Capability};
use mcp_lanes_core::share;
use mcp_lanes_core::transport::TransportKind;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};
use yew::prelude::*;

use crate::components::code_editor::CodeEditor;
use crate::components::exchange_history::history;
use crate::components::header_table::header_table;
use crate::components::lane_diagram::LaneDiagram;
use crate::components::reply_pane::reply_pane;
use crate::editor_state::{EditorAction, EditorState, Target};
use crate::el::{button, el, text};
use crate::state::{Lane, STEP_MS};

/// Lane number of the editor's lane (test ids `message-90-…`).
pub const EDITOR_LANE: usize = 90;

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
}

/// The action a control asks for: `kind` is the event type, `act` and
/// `arg` the control's `data-act` and `data-arg`.
fn action(
    kind: &str,
    act: &str,
    arg: usize,
    el: &HtmlInputElement,
    viewed: Option<&ServerConfig>,
) -> Option<EditorAction> {
    Some(match (kind, act) {
        ("click", "send") => EditorAction::Send,
        ("click", "new") => EditorAction::NewConnection,
        ("click", "format") => EditorAction::Format,
        ("click", "insert") => EditorAction::Template,
        ("click", "dismiss") => EditorAction::Dismiss,
        ("click", "retry") => EditorAction::AnswerAndRetry(arg),
        ("click", "answer") => EditorAction::Answer(arg / 1000, arg % 1000),
        ("click", "show") => EditorAction::Show(arg),
        ("click", "hadd") => EditorAction::AddHeader,
        ("click", "hdel") => EditorAction::RemoveHeader(arg),
        ("click", "hbody") => EditorAction::HeadersFromBody,
        ("change", "cap") => EditorAction::Capability(*Capability::ALL.get(arg)?, el.checked()),
        ("change", "version") => EditorAction::Version(el.value()),
        ("change", "revision") => EditorAction::Revision(el.value()),
        ("change", "method") => EditorAction::Method(el.value()),
        ("change", "diff") => {
            EditorAction::Diff(arg == 0, el.value().parse::<usize>().ok()?.checked_sub(1)?)
        }
        ("change", "transport") => EditorAction::Transport(if el.value() == "http" {
            TransportKind::Http
        } else {
            TransportKind::Stdio
        }),
        ("change", "target") => {
            let v = el.value();
            let (target, config) = match PRESETS.iter().find(|(id, _)| *id == v) {
                Some((id, _)) => (Target::Preset(id), presets::server(id)?),
                None => (Target::Viewed, viewed?.clone()),
            };
            EditorAction::Target(target, Box::new(config))
        }
        ("input", "hname" | "hvalue") => {
            let row = el
                .closest("tr")
                .ok()
                .flatten()
                .map(|tr| tr.query_selector_all("input"))?
                .ok()?;
            let field = |i: u32| {
                row.get(i)
                    .map(|n| n.unchecked_into::<HtmlInputElement>().value())
                    .unwrap_or_default()
            };
            EditorAction::Header(arg, field(0), field(1))
        }
        _ => return None,
    })
}

/// `<option>`s of plain strings (value = text), `current` selected.
fn options<'a>(values: impl IntoIterator<Item = &'a str>, current: &str) -> Vec<Html> {
    values
        .into_iter()
        .map(|v| {
            el(
                "option",
                &["value", "selected"],
                &[v, if v == current { "selected" } else { "" }],
                vec![text(v.to_string())],
            )
        })
        .collect()
}

/// A labelled `<select>` whose changes are the action `act`.
fn select(
    label: &'static str,
    act: &'static str,
    testid: &'static str,
    options: Vec<Html>,
) -> Html {
    el(
        "label",
        &["class"],
        &["field"],
        vec![
            text(label),
            el(
                "select",
                &["data-act", "data-testid"],
                &[act, testid],
                options,
            ),
        ],
    )
}

/// The schema warnings, parse problem or refusal for the text.
fn lint_view(lint: &editor::Lint) -> Html {
    let mut out = Vec::new();
    if let Some(refusal) = lint.refusal() {
        out.push(el(
            "p",
            &["class", "data-testid", "role"],
            &["refusal", "editor-refusal", "alert"],
            vec![text(refusal)],
        ));
    } else if let Some(p) = &lint.parse {
        out.push(el(
            "p",
            &["class", "data-testid", "data-line"],
            &["refusal", "parse-problem", &p.line.to_string()],
            vec![text(format!(
                "Not JSON at line {}, column {}: {}. Sending it shows what a server does with that.",
                p.line, p.column, p.message
            ))],
        ));
    } else if lint.warnings.is_empty() {
        if let (Some(m), Some(r)) = (&lint.method, &lint.revision) {
            out.push(el(
                "p",
                &["class", "data-testid"],
                &["validity", "editor-clean"],
                vec![text(format!("\u{2713} a valid {m} request of {r}"))],
            ));
        }
    }
    let mut items = Vec::new();
    for w in &lint.warnings {
        let mut item = vec![
            el("code", &[], &[], vec![text(w.path.clone())]),
            text(format!(" {} ", w.message)),
        ];
        if let Some(id) = w.rule {
            let href = mcp_lanes_core::rules::find(id).map_or("", |r| r.spec_url);
            item.push(el(
                "a",
                &["class", "href", "target", "rel"],
                &["rule-id", href, "_blank", "noopener"],
                vec![text(id)],
            ));
        }
        items.push(el("li", &[], &[], item));
    }
    if !items.is_empty() {
        out.push(el(
            "ul",
            &["class", "data-testid", "aria-label"],
            &[
                "warnings",
                "editor-warnings",
                "Schema warnings (you can still send)",
            ],
            items,
        ));
    }
    el("div", &["data-testid"], &["editor-lint"], out)
}

#[component]
pub fn Editor(props: &EditorProps) -> Html {
    // The viewed lane (cheap to clone); its server config is read when needed.
    let viewed = props.viewed.clone();
    let state = {
        let viewed = viewed.clone();
        let initial = props.initial.clone();
        use_reducer(move || match (initial, viewed) {
            (Some(link), lane) => {
                EditorState::from_link(&link, lane.as_ref().map(|l| &l.setup.server))
            }
            (None, Some(lane)) => EditorState::new(Target::Viewed, lane.setup.server.clone()),
            (None, None) => {
                EditorState::new(Target::Preset("deploy-console"), presets::deploy_console())
            }
        })
    };
    // Report the content for the permalink, 300 ms after the last change
    // (not for the untouched start, so a plain page keeps a plain URL).
    {
        let first = use_mut_ref(|| props.initial.is_none());
        let pending = use_mut_ref(|| None::<Timeout>);
        let onlink = props.onlink.clone();
        use_effect_with(state.link(), move |link| {
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                let link = link.clone();
                *pending.borrow_mut() = Some(Timeout::new(300, move || onlink.emit(link)));
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

    let delegate = {
        let (d, viewed) = (state.dispatcher(), viewed);
        move |e: &Event| {
            let Some(el) = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|t| t.closest("[data-act]").ok().flatten())
            else {
                return;
            };
            let act = el.get_attribute("data-act").unwrap_or_default();
            let arg = el
                .get_attribute("data-arg")
                .and_then(|a| a.parse().ok())
                .unwrap_or(0);
            let config = viewed.as_ref().map(|l| &l.setup.server);
            if let Some(a) = action(&e.type_(), &act, arg, el.unchecked_ref(), config) {
                d.dispatch(a);
            }
        }
    };
    let onclick = {
        let delegate = delegate.clone();
        Callback::from(move |e: MouseEvent| delegate(&e))
    };
    let onchange = {
        let delegate = delegate.clone();
        Callback::from(move |e: Event| delegate(&e))
    };
    let oninput = Callback::from(move |e: InputEvent| delegate(&e));
    let onkeydown = {
        let d = state.dispatcher();
        Callback::from(move |e: KeyboardEvent| {
            if (e.ctrl_key() || e.meta_key()) && e.key() == "Enter" {
                e.prevent_default();
                d.dispatch(EditorAction::Send);
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

    let lint = &state.lint;
    let mut toggles = vec![el("legend", &[], &[], vec![text("Declares")])];
    for (i, cap) in Capability::ALL.iter().enumerate() {
        toggles.push(el(
            "label",
            &["class"],
            &["check"],
            vec![
                el(
                    "input",
                    &["type", "data-act", "data-arg", "data-testid", "checked"],
                    &[
                        "checkbox",
                        "cap",
                        &i.to_string(),
                        &format!("editor-cap-{}", cap.label()),
                        if lint.declared.contains(cap) {
                            "true"
                        } else {
                            ""
                        },
                    ],
                    Vec::new(),
                ),
                text(cap.label()),
            ],
        ));
    }
    let version = lint.version.as_deref().unwrap_or("");
    let mut versions = options(settings::known_versions(), version);
    if version.is_empty() {
        versions.insert(0, options(["\u{2014}"], "\u{2014}").remove(0));
    }
    toggles.push(select("Version", "version", "editor-version", versions));
    let target = match state.target {
        Target::Viewed => "viewed",
        Target::Preset(id) => id,
    };
    let mut targets = options(PRESETS.iter().map(|(id, _)| *id), target);
    if let Some(lane) = &props.viewed {
        targets.insert(
            0,
            el(
                "option",
                &["value", "selected"],
                &["viewed", if target == "viewed" { "selected" } else { "" }],
                vec![text(format!(
                    "viewed set-up ({})",
                    lane.timeline.server_label
                ))],
            ),
        );
    }
    let transport = state.transport.name();
    let mut write = vec![
        el(
            "div",
            &["class"],
            &["row"],
            vec![
                select("Server", "target", "editor-target", targets),
                select("Transport", "transport", "editor-transport", options(["stdio", "http"], transport)),
                button("", "new", "", "new-connection", "New connection"),
            ],
        ),
        el(
            "div",
            &["class"],
            &["row"],
            vec![
                select("Revision", "revision", "editor-revision", options(settings::known_versions(), state.revision)),
                select("Template", "method", "editor-method", options(editor::methods(state.revision).iter().copied(), state.method)),
                button("", "insert", "", "insert-template", "Insert"),
                button("", "format", "", "format", "Format"),
            ],
        ),
        el("fieldset", &["class"], &["row toggles"], toggles),
        html! { <CodeEditor text={AttrValue::from(state.text.clone())} problem={lint.parse.as_ref().map(|p| (p.line, p.column))} oninput={(*onedit).clone()} /> },
        el("p", &["class", "id"], &["hint", "editor-keys"], vec![text(
            "Enter keeps the indentation; Tab inserts two spaces (Esc then Tab, or Shift+Tab, leaves the text); Ctrl+Enter sends. Over 1 MiB or 128 levels deep is not sent.",
        )]),
        lint_view(lint),
    ];
    if state.transport == TransportKind::Http {
        write.push(header_table(
            &state.headers,
            state.headers_edited,
            state.http_session(),
        ));
    }
    write.push(el(
        "div",
        &["class"],
        &["row"],
        vec![
            button("primary", "send", "", "send", "Send"),
            el(
                "span",
                &["class"],
                &["hint"],
                vec![text(format!(
                    "Ctrl+Enter \u{b7} to {} over {transport}",
                    state.server_label()
                ))],
            ),
        ],
    ));
    if let Some((words, error)) = &state.notice {
        write.push(el(
            "div",
            &["class", "data-testid", "role"],
            &[
                if *error { "notice" } else { "notice info" },
                "editor-notice",
                if *error { "alert" } else { "status" },
            ],
            vec![
                text(words.clone()),
                button("small", "dismiss", "", "", "Dismiss"),
            ],
        ));
    }
    let lane = &state.lane;
    let shown = state
        .shown
        .and_then(|i| state.history.get(i).map(|s| (i, &**s)));

    html! {
        <section class="editor" data-testid="editor" aria-label="Request editor"
            {onclick} {onchange} {oninput} {onkeydown}>
            { el("div", &["class"], &["editor-grid"], vec![
                el("div", &["class"], &["editor-write"], write),
                reply_pane(shown),
            ]) }
            <div class="editor-grid">
                <section class="editor-lane" aria-label="The exchanges as a lane">
                    { el("p", &["class"], &["peers"], vec![text(format!("{} \u{2192} {} over {transport}", lane.client_label, lane.server_label))]) }
                    <LaneDiagram index={EDITOR_LANE} timeline={lane.clone()} layout={state.layout.clone()}
                        {pos} step_ms={STEP_MS} selected={None::<usize>} oninspect={(*oninspect).clone()} />
                </section>
                { history(&state.history, state.shown, state.diff_pair()) }
            </div>
        </section>
    }
}
