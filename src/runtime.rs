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

mod listen;
mod marks;
pub mod morph;
mod regions;
mod step;

use morph::morph;

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
    /// The page is being printed: the whole run is drawn after the lanes,
    /// every field explained (`view::figure::print_run`).
    printing: Cell<bool>,
    /// What the player and the narration were last drawn from (`regions`).
    regions: RefCell<regions::Cache>,
    /// Each lane's position marks, read after the last render (`marks`).
    marks: RefCell<Vec<marks::Marks>>,
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
            printing: Cell::new(false),
            regions: RefCell::default(),
            marks: RefCell::default(),
            lang: crate::i18n::lang(),
            config,
        });
        // A theme the reader chose on an earlier visit applies again.
        if let Some(chosen) = inner.theme.get() {
            theme::apply(chosen);
        }
        listen::listen(&inner);
        // A recording graded here gets S-SCHEMA once it is drawn.
        if let Some(Ok(checked)) = &inner.config.checked {
            let dispatch = Rc::clone(&inner.dispatcher);
            crate::recording::add_schema(Rc::clone(checked), move |a| dispatch(a));
        }
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

    /// What hands this page an action (for a source that outlives a call).
    pub fn dispatcher(&self) -> Dispatch {
        Rc::clone(&self.0.dispatcher)
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
    } else if arrival.editor {
        // Asked for with E (focus on no control): the cursor in the text.
        crate::browser::focus_soon(root, "editor-text");
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
    following: bool,
    length: usize,
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
            following: state.following,
            length: state.layout.len(),
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
    if !(step && step::render_step(inner)) {
        render(inner);
    }
    after(inner, &before);
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
    let print = inner
        .printing
        .get()
        .then(|| view::figure::print_run(&state));
    let ui = Ui {
        config: &inner.config,
        dark: inner.theme.get().unwrap_or_else(theme::system) == Theme::Dark,
        copied: &copied,
        transcript: None,
        print: print.as_ref(),
        islands: crate::bundle::SIMULATOR.is_some(),
        marked: true,
    };
    for marks in inner.marks.borrow_mut().drain(..) {
        marks.restore();
    }
    morph(&inner.root, &view::page::page(&state, &ui).into_string());
    // Every lane was drawn whole: shown at the position from its marks.
    *inner.marks.borrow_mut() = crate::browser::elements(&inner.root, ".lanes > article")
        .iter()
        .map(marks::Marks::new)
        .collect();
    step::show_lanes(inner, &state);
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
    // A tapped conversation grew while the playhead follows its end.
    if now.following && now.length != before.length && inner.config.mode == Mode::Page {
        crate::browser::follow_end();
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
