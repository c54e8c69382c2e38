//! The page at run time, in both bundles: the state, its markup
//! (`view::page`) patched into the root element on every change (`morph`),
//! and the side effects, without a framework: one listener per kind of
//! event on the root reads `data-act` (the table in `view`), the keyboard
//! shortcuts, the playback timer, the history, the theme, the figure's
//! bridge to its page, the keyboard help's dialog; in the lite bundle the
//! hand-over to the full one when a reader asks for what only it has.
//!
//! The full bundle's islands (`bundle::islands`: a lane's settings, the
//! exports, the check panel, the editor) are Yew apps mounted into the
//! hosts the views draw (`data-island`); `morph` never descends into a
//! host. After every render the islands are synced with the state (new
//! hosts get an island, gone ones lose theirs, the others get their new
//! props), and they dispatch their `Action`s here.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use gloo::events::{EventListener, EventListenerOptions, EventListenerPhase};
use gloo::timers::callback::Interval;
use mcp_lanes_core::share;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, MouseEvent};

use crate::bridge::{self, HeightReport};
use crate::bundle::hand_over::{self, Failed};
use crate::bundle::islands::Islands;
use crate::config::{Arrival, Config, Mode};
use crate::permalink::page_url;
use crate::state::{step_ms, Action, Dispatch, Selection, State};
use crate::theme::{self, Theme};
use crate::view::{self, Copied, Ui};

pub mod morph;

use morph::{morph, morph_region, patch_parts};

/// A running page or figure.
#[derive(Clone)]
pub struct Page(Rc<Inner>);

struct Inner {
    /// The element the page renders into.
    root: Element,
    config: Config,
    /// A script figure's host element (its events go there).
    host: Option<Element>,
    state: RefCell<State>,
    /// The theme a reader chose (`None`: the system's).
    theme: Cell<Option<Theme>>,
    copied: RefCell<Copied>,
    /// The last (position, length) a figure reported.
    reported: Cell<(usize, usize)>,
    timer: RefCell<Option<Interval>>,
    listeners: RefCell<Vec<EventListener>>,
    height: RefCell<Option<HeightReport>>,
    /// Where focus goes back to when the keyboard help closes.
    help_return: RefCell<Option<HtmlElement>>,
    alive: Cell<bool>,
    /// The full bundle's Yew islands, by host.
    islands: RefCell<Islands>,
    /// Actions waiting while one is carried out (an island may dispatch
    /// while it renders).
    queue: RefCell<std::collections::VecDeque<Action>>,
    /// An action is being carried out.
    busy: Cell<bool>,
    /// Hands an action to this page (the islands' way in).
    dispatcher: Dispatch,
    /// The page's permalink waits to be written (`write_link_soon`).
    link_pending: Cell<bool>,
    /// The frame it waits for.
    link_frame: RefCell<Option<gloo::render::AnimationFrame>>,
    /// The language it draws in (the catalog selected when it mounted):
    /// selected again whenever it draws or acts, since a course page may
    /// hold figures in other languages (`i18n::select`).
    lang: String,
}

impl Page {
    /// Renders the page for `config` into `root` (a script figure's: with
    /// its `host`) and starts listening. What `root` holds (a drawn page, a
    /// lite page that handed over) is patched, not replaced.
    pub fn mount(root: Element, config: Config, host: Option<Element>) -> Page {
        let drawn = root.has_attribute("data-static");
        // A drawn or lite page taken over: no longer theirs.
        for name in ["data-static", "data-js", "data-ready", "aria-busy"] {
            let _ = root.remove_attribute(name);
        }
        let state = State::start(&config, crate::bundle::SIMULATOR);
        let inner = Rc::new_cyclic(|weak: &Weak<Inner>| Inner {
            dispatcher: {
                let weak = weak.clone();
                Rc::new(move |action| {
                    if let Some(inner) = weak.upgrade() {
                        dispatch(&inner, action);
                    }
                })
            },
            root,
            host,
            state: RefCell::new(state),
            theme: Cell::new(if config.mode == Mode::Page {
                theme::stored()
            } else {
                None
            }),
            copied: RefCell::default(),
            reported: Cell::new((0, usize::MAX)),
            timer: RefCell::default(),
            listeners: RefCell::default(),
            height: RefCell::default(),
            help_return: RefCell::default(),
            alive: Cell::new(true),
            islands: RefCell::default(),
            queue: RefCell::default(),
            busy: Cell::new(false),
            link_pending: Cell::new(false),
            link_frame: RefCell::default(),
            lang: crate::i18n::lang(),
            config,
        });
        // A theme the reader chose on an earlier visit applies again.
        if let Some(chosen) = inner.theme.get() {
            theme::apply(chosen);
        }
        listen(&inner);
        if drawn && wants_rules(&inner) && !crate::i18n::has_rules() {
            // The drawn page shows the rules' summaries in its inspector:
            // the first render waits for their catalog, so that none of
            // them blinks empty while it comes (what is drawn stays).
            let weak = Rc::downgrade(&inner);
            wasm_bindgen_futures::spawn_local(async move {
                crate::browser::load_rules().await;
                if let Some(inner) = weak.upgrade() {
                    crate::i18n::select(&inner.lang);
                    first_render(&inner);
                }
            });
        } else {
            first_render(&inner);
        }
        Page(inner)
    }

    /// The element the page renders into.
    pub fn root(&self) -> &Element {
        &self.0.root
    }

    /// Carries out `action` (a figure's handle: a control message).
    pub fn dispatch(&self, action: Action) {
        dispatch(&self.0, action);
    }

    /// Stops the page: its timers, listeners and islands end; what it drew
    /// stays (the full bundle takes it over after a hand-over).
    pub fn release(&self) {
        let inner = &self.0;
        inner.alive.set(false);
        inner.timer.borrow_mut().take();
        inner.listeners.borrow_mut().clear();
        inner.height.borrow_mut().take();
        inner.link_frame.borrow_mut().take();
        inner.islands.borrow_mut().clear();
    }

    /// Stops the page and removes what it drew.
    pub fn destroy(&self) {
        self.release();
        self.0.root.set_inner_html("");
    }
}

/// After a hand-over, once the page is drawn: opens the panels and focuses
/// the control that the page it took over had open and focused.
fn arrive(root: &Element, arrival: &Arrival) {
    // A test id as it may appear in an attribute selector.
    let id = |id: &str| -> String { id.chars().filter(|c| !matches!(c, '"' | '\\')).collect() };
    for open in &arrival.open {
        if let Ok(Some(el)) = root.query_selector(&format!("details[data-testid=\"{}\"]", id(open)))
        {
            let _ = el.set_attribute("open", "");
        }
    }
    if let Some(focus) = &arrival.focus {
        if let Ok(Some(el)) = root.query_selector(&format!("[data-testid=\"{}\"]", id(focus))) {
            if let Ok(el) = el.dyn_into::<HtmlElement>() {
                let _ = el.focus();
            }
        }
    }
}

/// What changed in an update that an effect follows.
#[derive(Default, PartialEq)]
struct Before {
    playing: bool,
    speed: usize,
    help_open: bool,
    selected: Option<Selection>,
    fetching: Option<(String, usize)>,
    upgrade: bool,
}

impl Before {
    fn of(state: &State) -> Before {
        Before {
            playing: state.playing,
            speed: state.speed,
            help_open: state.help_open,
            selected: state.selected,
            fetching: state.fetching.clone(),
            upgrade: state.upgrade.is_some(),
        }
    }
}

/// Carries out a reader's action (one at a time: an action dispatched
/// while another is carried out waits for it).
fn dispatch(inner: &Rc<Inner>, action: Action) {
    if !inner.alive.get() {
        return;
    }
    crate::i18n::select(&inner.lang);
    inner.queue.borrow_mut().push_back(action);
    if inner.busy.replace(true) {
        return;
    }
    loop {
        let next = inner.queue.borrow_mut().pop_front();
        match next {
            Some(action) => carry_out(inner, action),
            None => break,
        }
    }
    inner.busy.set(false);
}

/// Carries out one action: one that needs the full bundle goes there at
/// once, without re-rendering the lite page first (which would undo the
/// control the reader just changed until the full page is up).
fn carry_out(inner: &Rc<Inner>, action: Action) {
    if !inner.alive.get() {
        return;
    }
    let upgrade = inner.state.borrow().upgrade_for(&action);
    if let Some(upgrade) = upgrade {
        let mut shown = inner.state.borrow().clone();
        // A compared lane goes in after its original: the selection to
        // the right of it moves one lane on.
        if let (Action::Compare { lane, .. }, Some(sel)) = (&action, shown.selected.as_mut()) {
            if sel.lane > *lane {
                sel.lane += 1;
            }
        }
        to_full(inner, &shown, upgrade);
        return;
    }
    // A step moves the playhead only: its regions are redrawn, not the page.
    let step = matches!(
        action,
        Action::Tick
            | Action::StepForward
            | Action::StepBack
            | Action::Seek(_)
            | Action::Play
            | Action::Pause
            | Action::TogglePlay
            | Action::Restart
            | Action::JumpToEnd
    );
    let before = Before::of(&inner.state.borrow());
    inner.state.borrow_mut().update(action);
    if !(step && render_step(inner)) {
        render(inner);
    }
    after(inner, &before);
}

/// Redraws what a step changes, region by region: the player, the
/// narration and in each lane what it holds, its diagram (part by part)
/// and its end (false: a region is not on the page as expected, the whole
/// page must be drawn).
fn render_step(inner: &Inner) -> bool {
    if !inner.alive.get() {
        return true;
    }
    crate::i18n::select(&inner.lang);
    let state = inner.state.borrow();
    let lanes: Vec<Element> = inner
        .root
        .query_selector_all(".lanes > article")
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i))
                .filter_map(|n| n.dyn_into::<Element>().ok())
                .collect()
        })
        .unwrap_or_default();
    let (Some(player), Some(narration)) = (
        find(inner, "[data-testid='player']"),
        find(inner, "[data-testid='narration']"),
    ) else {
        return false;
    };
    if lanes.len() != state.lanes.len() {
        return false;
    }
    morph_region(&player, &view::player::player(&state).into_string());
    morph_region(
        &narration,
        &view::narration::narration(&state).into_string(),
    );
    for (i, article) in lanes.iter().enumerate() {
        let (Some(parts), Ok(Some(status)), Ok(Some(svg))) = (
            view::lane::moving(&state, i, false),
            article.query_selector(":scope > .lane-status"),
            article.query_selector(":scope > svg.lane-svg"),
        ) else {
            return false;
        };
        morph_region(&status, &parts.status.into_string());
        let drawn = parts.diagram.into_string();
        match view::children(&drawn) {
            Some(mut children) => {
                // The labels' group (every label of the lane) is patched
                // label by label: at its level it stands as its empty self.
                let labels = children
                    .iter()
                    .position(|c| c.starts_with("<g class=\"labels\""));
                let group = labels.map(|i| children[i]);
                let empty = group.and_then(|g| Some(format!("{}</g>", &g[..=g.find('>')?])));
                if let (Some(i), Some(empty)) = (labels, &empty) {
                    children[i] = empty;
                }
                patch_children(&svg, &children);
                let live = svg.query_selector(":scope > g.labels").ok().flatten();
                if let (Some(live), Some(kids)) = (live, group.and_then(view::children)) {
                    patch_children(&live, &kids);
                }
            }
            None => morph_region(&svg, &drawn),
        }
        let end = parts.end.into_string();
        match (
            article
                .query_selector(":scope > footer.lane-end")
                .ok()
                .flatten(),
            end.is_empty(),
        ) {
            (Some(footer), false) => morph_region(&footer, &end),
            (Some(footer), true) => footer.remove(),
            (None, false) => {
                let _ = article.insert_adjacent_html("beforeend", &end);
            }
            (None, true) => {}
        }
    }
    true
}

/// Patches `el`'s children to `children` (each child element's markup):
/// one string to JS, and where each child ends in it.
fn patch_children(el: &Element, children: &[&str]) {
    let mut at = 0u32;
    let ends = children
        .iter()
        .map(|c| {
            at += c.encode_utf16().count() as u32;
            at
        })
        .collect();
    patch_parts(el, &children.concat(), ends);
}

/// Hands the page to the full bundle.
fn to_full(inner: &Rc<Inner>, state: &State, upgrade: crate::state::Upgrade) {
    let weak = Rc::downgrade(inner);
    let failed: Failed = Box::new(move || {
        if let Some(inner) = weak.upgrade() {
            dispatch(&inner, Action::HandOverFailed);
        }
    });
    hand_over::to_full(Some(state), upgrade, Some(failed), Some(inner.root.clone()));
}

/// The page's markup, patched into the root.
fn render(inner: &Inner) {
    if !inner.alive.get() {
        return;
    }
    crate::i18n::select(&inner.lang);
    let state = inner.state.borrow();
    let copied = inner.copied.borrow();
    let ui = Ui {
        config: &inner.config,
        dark: inner.theme.get().unwrap_or_else(theme::system) == Theme::Dark,
        copied: &copied,
        transcript: None,
        islands: crate::bundle::SIMULATOR.is_some(),
    };
    morph(&inner.root, &view::page::page(&state, &ui).into_string());
    // The patcher drew every card: the search hides those it does not find.
    crate::browser::filter_picker(&inner.root);
    inner
        .islands
        .borrow_mut()
        .sync(&inner.root, &state, &inner.dispatcher, &inner.lang);
}

/// The page's first render, its effects, and the arrival of a hand-over
/// (what the person did that asked for the full bundle).
fn first_render(inner: &Rc<Inner>) {
    render(inner);
    after(inner, &Before::default());
    if let Some(arrival) = inner.config.arrival.clone() {
        // Once the islands have drawn (they render on the next turn).
        let root = inner.root.clone();
        gloo::timers::callback::Timeout::new(0, move || arrive(&root, &arrival)).forget();
    }
}

/// The effects of an update: fetching a scenario's runs, the hand-over the
/// state asks for, the playback timer, the keyboard help, following the
/// playhead, the inspector's rules and place, and the figure's report.
fn after(inner: &Rc<Inner>, before: &Before) {
    let now = Before::of(&inner.state.borrow());
    if now.fetching.is_some() && now.fetching != before.fetching {
        let weak = Rc::downgrade(inner);
        hand_over::fetch_for(&inner.state.borrow(), move |action| {
            if let Some(inner) = weak.upgrade() {
                dispatch(&inner, action);
            }
        });
    }
    if now.upgrade && !before.upgrade {
        let state = inner.state.borrow();
        if let Some(upgrade) = &state.upgrade {
            to_full(inner, &state, (**upgrade).clone());
        }
    }
    if (now.playing, now.speed) != (before.playing, before.speed) {
        let weak = Rc::downgrade(inner);
        let timer = now.playing.then(|| {
            Interval::new(step_ms(now.speed), move || {
                if let Some(inner) = weak.upgrade() {
                    dispatch(&inner, Action::Tick);
                }
            })
        });
        *inner.timer.borrow_mut() = timer;
    }
    if now.help_open != before.help_open {
        help_dialog(inner, now.help_open);
    }
    if now.playing && inner.config.mode == Mode::Page {
        crate::browser::follow_playhead();
    }
    if now.selected.is_some() && now.selected != before.selected {
        inspector_shown(inner);
    }
    if let Some(height) = inner.height.borrow().as_ref() {
        height.report();
    }
    if inner.config.mode == Mode::Page {
        write_link_soon(inner);
    } else {
        let mut reported = inner.reported.get();
        bridge::report(
            &inner.config,
            inner.host.as_ref(),
            &inner.state.borrow(),
            &mut reported,
        );
        inner.reported.set(reported);
    }
}

/// How long the page's permalink may wait for a frame before it is written.
const LINK_WAIT_MS: u32 = 100;

/// The page's permalink goes into the address after the next frame (or
/// [`LINK_WAIT_MS`], whichever comes first): `history.replaceState` costs
/// a millisecond or more, which a step need not wait for, and quick steps
/// write it once.
fn write_link_soon(inner: &Rc<Inner>) {
    if inner.link_pending.replace(true) {
        return;
    }
    let later = |inner: &Rc<Inner>, ms: u32| {
        let weak = Rc::downgrade(inner);
        gloo::timers::callback::Timeout::new(ms, move || {
            if let Some(inner) = weak.upgrade() {
                write_link(&inner);
            }
        })
        .forget();
    };
    let weak = Rc::downgrade(inner);
    let frame = gloo::render::request_animation_frame(move |_| {
        if let Some(inner) = weak.upgrade() {
            later(&inner, 0);
        }
    });
    *inner.link_frame.borrow_mut() = Some(frame);
    later(inner, LINK_WAIT_MS);
}

/// Writes the page's permalink into the address now, if one is waiting
/// (`bridge::report`: not while playing).
fn write_link(inner: &Inner) {
    if !inner.link_pending.replace(false) || !inner.alive.get() {
        return;
    }
    inner.link_frame.borrow_mut().take();
    let mut reported = inner.reported.get();
    bridge::report(
        &inner.config,
        inner.host.as_ref(),
        &inner.state.borrow(),
        &mut reported,
    );
    inner.reported.set(reported);
}

/// Opens the keyboard help as a modal dialog (remembering where focus
/// was) or closes it (focus goes back there).
fn help_dialog(inner: &Inner, open: bool) {
    let Some(dialog) = find(inner, "[data-testid='help-dialog']")
        .and_then(|d| d.dyn_into::<web_sys::HtmlDialogElement>().ok())
    else {
        return;
    };
    crate::browser::show_modal(&dialog, open, || active_element(inner), &inner.help_return);
}

/// A newly selected event: the inspector comes into view when it is below
/// the window (narrow screens), and the rules' catalog is fetched the
/// first time rules are shown.
fn inspector_shown(inner: &Rc<Inner>) {
    if let Some(el) = find(inner, "[data-testid='inspector']") {
        crate::browser::show_if_below(&el);
    }
    if wants_rules(inner) && !crate::i18n::has_rules() {
        let weak = Rc::downgrade(inner);
        wasm_bindgen_futures::spawn_local(async move {
            if crate::browser::load_rules().await {
                if let Some(inner) = weak.upgrade() {
                    render(&inner);
                }
            }
        });
    }
}

/// Whether the inspector shows an event with rules or a message (the
/// rules' summaries and the fields' explanations come in a catalog of
/// their own).
fn wants_rules(inner: &Inner) -> bool {
    let state = inner.state.borrow();
    state
        .selected
        .and_then(|s| state.lanes.get(s.lane)?.timeline.events.get(s.event))
        .is_some_and(crate::view::inspector::needs_catalog)
}

fn find(inner: &Inner, selector: &str) -> Option<Element> {
    inner.root.query_selector(selector).ok().flatten()
}

/// The focused element (inside a figure's shadow root: that root's).
fn active_element(inner: &Inner) -> Option<HtmlElement> {
    let shadow = inner
        .root
        .get_root_node()
        .dyn_into::<web_sys::ShadowRoot>()
        .ok();
    let active = match shadow {
        Some(shadow) => shadow.active_element(),
        None => web_sys::window()?.document()?.active_element(),
    };
    active?.dyn_into::<HtmlElement>().ok()
}

/// The element with a `data-act` an event reached, its act and argument
/// (nothing inside an island: what happens there is the island's).
fn acted(event: &web_sys::Event) -> Option<(Element, String, String)> {
    let target = event.target()?.dyn_into::<Element>().ok()?;
    if target.closest("[data-island]").ok()?.is_some() {
        return None;
    }
    let el = target.closest("[data-act]").ok()??;
    let act = el.get_attribute("data-act")?;
    let arg = el.get_attribute("data-arg").unwrap_or_default();
    Some((el, act, arg))
}

/// `"{lane}:{event}"`.
fn selection(arg: &str) -> Option<Selection> {
    let (lane, event) = arg.split_once(':')?;
    Some(Selection {
        lane: lane.parse().ok()?,
        event: event.parse().ok()?,
    })
}

/// What a click on an element with `data-act` does.
fn clicked(inner: &Rc<Inner>, event: &web_sys::Event) {
    let Some((el, act, arg)) = acted(event) else {
        return;
    };
    let action = match act.as_str() {
        "play" => Action::Play,
        "pause" => Action::Pause,
        "restart" => Action::Restart,
        "back" => Action::StepBack,
        "forward" => Action::StepForward,
        "end" => Action::JumpToEnd,
        "inspect" => match selection(&arg) {
            Some(sel) => Action::Inspect(Some(sel)),
            None => return,
        },
        "close-inspector" => Action::Inspect(None),
        "show-failure" => {
            // "What to fix": the failing message, drawn and inspected.
            let Some(sel) = selection(&arg) else {
                return;
            };
            dispatch(inner, Action::ShowFailure(sel));
            crate::browser::scroll_to_test_id(&el, format!("message-{}-{}", sel.lane, sel.event));
            return;
        }
        "remove-lane" => match arg.parse() {
            Ok(lane) => Action::RemoveLane(lane),
            Err(_) => return,
        },
        "help" => Action::Help(true),
        "help-close" => Action::Help(false),
        "tab" => Action::ShowEditor(arg == "editor"),
        "scenario" => {
            // A plain click opens it here; any other follows the link.
            let plain = event.dyn_ref::<MouseEvent>().is_some_and(|e| {
                e.button() == 0 && !e.ctrl_key() && !e.meta_key() && !e.shift_key() && !e.alt_key()
            });
            if !plain {
                return;
            }
            event.prevent_default();
            if let Some(s) = mcp_lanes_core::scenarios::find(&arg) {
                crate::history::push_scenario(s.id);
            }
            dispatch(inner, Action::Load(arg));
            crate::browser::show_figure(&inner.root, true);
            return;
        }
        "theme" => {
            let next = inner.theme.get().unwrap_or_else(theme::system).toggled();
            inner.theme.set(Some(next));
            if inner.config.mode == Mode::Page {
                theme::apply(next);
            }
            render(inner);
            return;
        }
        "copy-link" => {
            copy_link(inner);
            return;
        }
        _ => return,
    };
    dispatch(inner, action);
}

/// Copies the permalink of what is shown now, saying so (or offering it
/// to copy by hand).
fn copy_link(inner: &Rc<Inner>) {
    // The address is the link copied.
    write_link(inner);
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let fragment = share::to_fragment(&inner.state.borrow().share());
    let link = origin + &page_url(&fragment).unwrap_or_default();
    let weak = Rc::downgrade(inner);
    let shown = link.clone();
    crate::browser::copy_text(&link, move |ok| {
        if let Some(inner) = weak.upgrade() {
            *inner.copied.borrow_mut() = Copied {
                text: Some(if ok {
                    "share.copied"
                } else {
                    "share.no_clipboard"
                }),
                manual: (!ok).then(|| shown.clone()),
            };
            render(&inner);
        }
    });
}

/// Listens on the root (and, for the page, the document and window).
fn listen(inner: &Rc<Inner>) {
    let mut listeners = Vec::new();
    let on = |target: &web_sys::EventTarget,
              kind: &'static str,
              capture: bool,
              f: fn(&Rc<Inner>, &web_sys::Event)| {
        let weak: Weak<Inner> = Rc::downgrade(inner);
        let options = EventListenerOptions {
            phase: if capture {
                EventListenerPhase::Capture
            } else {
                EventListenerPhase::Bubble
            },
            passive: false,
        };
        EventListener::new_with_options(target, kind, options, move |event| {
            if let Some(inner) = weak.upgrade() {
                crate::i18n::select(&inner.lang);
                f(&inner, event);
            }
        })
    };
    let root: &web_sys::EventTarget = inner.root.as_ref();
    listeners.push(on(root, "click", false, clicked));
    listeners.push(on(root, "keydown", false, |inner, event| {
        // Enter or Space on a message or marker inspects it.
        let Some(key) = event.dyn_ref::<KeyboardEvent>().map(KeyboardEvent::key) else {
            return;
        };
        if key != "Enter" && key != " " {
            return;
        }
        if let Some((_, act, arg)) = acted(event) {
            if act == "picker-search" && key == "Enter" {
                // Enter in the picker's search opens the first card shown.
                event.prevent_default();
                if let Some(card) = crate::browser::first_shown_card(&inner.root) {
                    card.click();
                }
                return;
            }
            if act == "inspect" {
                if let Some(sel) = selection(&arg) {
                    event.prevent_default();
                    dispatch(inner, Action::Inspect(Some(sel)));
                }
            }
        }
    }));
    listeners.push(on(root, "input", false, |inner, event| {
        if let Some((el, act, _)) = acted(event) {
            if act == "seek" {
                if let Some(pos) = value(&el).and_then(|v| v.parse().ok()) {
                    dispatch(inner, Action::Seek(pos));
                }
            } else if act == "picker-search" {
                crate::browser::filter_picker(&inner.root);
            }
        }
    }));
    listeners.push(on(root, "change", false, |inner, event| {
        if let Some((el, act, _)) = acted(event) {
            if act == "speed" {
                if let Some(speed) = value(&el).and_then(|v| v.parse().ok()) {
                    dispatch(inner, Action::SetSpeed(speed));
                }
            }
        }
    }));
    // `toggle` and a dialog's `close` do not bubble: heard on the way down.
    listeners.push(on(root, "toggle", true, |inner, event| {
        let Some(details) = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
        else {
            return;
        };
        if details.open() && details.get_attribute("data-act").as_deref() == Some("handover") {
            dispatch(inner, Action::HandOver);
        }
    }));
    listeners.push(on(root, "close", true, |inner, event| {
        let is_help = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|el| el.get_attribute("data-testid"))
            .is_some_and(|id| id == "help-dialog");
        if is_help && inner.state.borrow().help_open {
            dispatch(inner, Action::Help(false));
        }
    }));
    // The shortcuts: on the whole document for the page and an iframe
    // figure, only inside a script figure (several on one page each hear
    // their own keys).
    let keys_target: Option<web_sys::EventTarget> = match inner.config.mode {
        Mode::Mount => Some(inner.root.clone().into()),
        _ => web_sys::window().and_then(|w| w.document()).map(Into::into),
    };
    if let Some(target) = keys_target {
        listeners.push(on(&target, "keydown", false, |inner, event| {
            let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if let Some(action) = crate::shortcuts::action_for(event) {
                event.prevent_default();
                dispatch(inner, action);
            }
        }));
    }
    if let (Mode::Page, Some(window)) = (inner.config.mode, web_sys::window()) {
        listeners.push(on(window.as_ref(), "popstate", false, |inner, _| {
            if let Some(action) = crate::history::on_back_or_forward() {
                dispatch(inner, action);
                crate::browser::show_figure(&inner.root, false);
            }
        }));
    }
    let weak = Rc::downgrade(inner);
    if let Some(listener) = bridge::listen_for_control(&inner.config, move |action| {
        if let Some(inner) = weak.upgrade() {
            dispatch(&inner, action);
        }
    }) {
        listeners.push(listener);
    }
    bridge::apply_figure_theme(&inner.config, inner.host.as_ref());
    *inner.height.borrow_mut() = HeightReport::start(&inner.config, &inner.root);
    *inner.listeners.borrow_mut() = listeners;
}

/// A form control's value.
fn value(el: &Element) -> Option<String> {
    if let Some(input) = el.dyn_ref::<web_sys::HtmlInputElement>() {
        return Some(input.value());
    }
    el.dyn_ref::<web_sys::HtmlSelectElement>()
        .map(|s| s.value())
}

/// Runs the page for `config` on the page's root: the drawn page's
/// (`.app-root[data-static]`) or the lite page's that handed over, patched
/// where it differs; else a new element at the end of the body (`None`:
/// there is no document to render into).
pub fn render_page(config: Config) -> Option<Page> {
    let document = web_sys::window()?.document()?;
    let root = match document.query_selector(".app-root").ok().flatten() {
        Some(root) => root,
        None => {
            let root = document.create_element("div").ok()?;
            root.set_class_name("app-root");
            document.body()?.append_child(&root).ok()?;
            root
        }
    };
    Some(Page::mount(root, config, None))
}
