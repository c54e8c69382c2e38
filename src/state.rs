//! The page state: which scenario, its lanes (set-up plus the timeline the
//! core recorded for it), the shared layout, the playhead and the selection.
//! Every change is an [`Action`] applied by [`State::update`]; side effects
//! (timers, the URL, focus, the hand-over between the bundles) live in
//! the runtime (`runtime.rs`), not here.
//!
//! State layer: plain Rust over the core and the data layer, built and
//! tested natively (`state/tests.rs`).
//! Without a [`Simulator`] (the lite bundle) the state shows recorded runs
//! and turns every change that needs one into an [`Upgrade`]
//! (`state/hand_over.rs`).

use crate::i18n::{t, tf};
use std::rc::Rc;

use mcp_lanes_core::check::Verdict;
use mcp_lanes_core::scenarios::file::ScenarioFile;
use mcp_lanes_core::scenarios::{self, ScenarioInfo, CATALOG};
use mcp_lanes_core::settings::Setting;
use mcp_lanes_core::share::{EditorState, LaneState, ShareState};
use mcp_lanes_core::sim::{Setup, Timeline};
use mcp_lanes_core::transport::TransportKind;

use crate::checked::Checked;
use crate::model::{Layout, Shared};
use crate::runs::{self, Simulator};
use crate::setting_words::describe;

mod control;
mod hand_over;
pub mod keys;
mod link;
mod tap;
#[cfg(test)]
mod tests;

pub use hand_over::needs_simulator;
pub use link::field_fragment;

/// Playback speeds offered (multiples of the base step), in quarters.
pub const SPEEDS: [u32; 5] = [1, 2, 4, 8, 16];
/// How the speeds are shown.
pub const SPEED_LABELS: [&str; 5] = ["0.25\u{d7}", "0.5\u{d7}", "1\u{d7}", "2\u{d7}", "4\u{d7}"];
/// Index of 1x in [`SPEEDS`].
pub const DEFAULT_SPEED: usize = 2;
/// What the page says when the full bundle could not be loaded for a
/// change (the lite page and `figure.js`).
pub const HAND_OVER_FAILED: &str =
    "The simulator could not be loaded, so the change was not made. Check the connection and try again.";
/// Real time per playback step at 1x, in milliseconds.
pub const STEP_MS: u32 = 900;

/// Real milliseconds per step at a speed index (a fixed duration per step,
/// never proportional to the virtual time between events).
pub fn step_ms(speed: usize) -> u32 {
    let quarters = SPEEDS.get(speed).copied().unwrap_or(4).max(1);
    STEP_MS * 4 / quarters
}

/// One side-by-side set-up and what the core recorded for it.
#[derive(Debug, Clone)]
pub struct Lane {
    /// Stable key for rendering (survives insertions).
    pub key: u32,
    /// Bumped on every change, for cheap equality.
    pub version: u32,
    /// The set-up as currently configured.
    pub setup: Rc<Setup>,
    /// The set-up as the scenario defined it (for "reset").
    pub original: Rc<Setup>,
    /// The run of `setup`.
    pub timeline: Rc<Timeline>,
    /// True for a lane added by "compare" (it can be removed).
    pub added: bool,
    /// True once a setting was changed (until "reset").
    pub changed: bool,
    /// What a permalink records: the scenario's set-up it starts from, the
    /// settings applied since, in order, and a compared lane's label.
    pub share: LaneState,
    /// How many of `share.settings` "reset" keeps (a compared lane's own).
    keep: usize,
    /// The verdicts on the lane's events (a recorded check's; empty for a
    /// scenario's lane).
    pub verdicts: Rc<Vec<Verdict>>,
    /// A run recorded outside the page (a check or `client --out`): it has
    /// no set-up to change.
    pub outside: bool,
}

impl PartialEq for Lane {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.version == other.version
    }
}

impl Lane {
    /// The scenario's set-up `base` with the lane's settings applied; a
    /// compared (`added`) lane resets to all of them, another to none.
    fn new(
        key: u32,
        scenario: &str,
        base: &Setup,
        share: LaneState,
        added: bool,
        simulator: Option<Simulator>,
    ) -> Lane {
        let build = |n: usize| {
            let mut setup = base.clone();
            if let Some(sim) = simulator {
                for setting in &share.settings[..n.min(share.settings.len())] {
                    (sim.apply)(&mut setup, setting);
                }
            }
            if let Some(label) = &share.label {
                setup.label = label.clone();
            }
            Rc::new(setup)
        };
        let keep = if added { share.settings.len() } else { 0 };
        let setup = build(share.settings.len());
        Lane {
            key,
            version: 0,
            original: build(keep),
            timeline: run(simulator, scenario, share.base, &setup),
            setup,
            added,
            changed: keep < share.settings.len(),
            share,
            keep,
            verdicts: Rc::default(),
            outside: false,
        }
    }

    /// A lane for a run recorded outside the page: `stand_in` is only there
    /// because every lane has a set-up (its settings are not offered).
    fn outside(
        key: u32,
        stand_in: &Setup,
        timeline: Rc<Timeline>,
        verdicts: Rc<Vec<Verdict>>,
    ) -> Lane {
        let mut setup = stand_in.clone();
        setup.label = timeline.label.clone();
        setup.channel.kind = timeline.transport;
        let setup = Rc::new(setup);
        Lane {
            key,
            version: 0,
            original: Rc::clone(&setup),
            setup,
            timeline,
            added: false,
            changed: false,
            share: LaneState::untouched(0),
            keep: 0,
            verdicts,
            outside: true,
        }
    }

    /// What a compared copy of this lane with `setting` changed records.
    pub fn compared(&self, setting: Setting) -> LaneState {
        let mut share = self.share.clone();
        share.label = Some(format!(
            "{} \u{b7} {}",
            self.setup.label,
            describe(&setting)
        ));
        share.settings.push(setting);
        share
    }

    /// Whether a setting was changed since the lane was made.
    pub fn modified(&self) -> bool {
        self.changed
    }
}

/// The run of a lane's set-up: the simulator's, or without one the run the
/// core recorded for the scenario's set-up `base` (the state never makes a
/// changed lane without a simulator: it hands over first).
fn run(simulator: Option<Simulator>, scenario: &str, base: usize, setup: &Setup) -> Rc<Timeline> {
    match simulator {
        Some(sim) => Rc::new((sim.run)(setup)),
        None => runs::recorded(scenario, base).unwrap_or_else(|| {
            Rc::new(Timeline {
                label: setup.label.clone(),
                transport: setup.channel.kind,
                client_label: String::new(),
                server_label: String::new(),
                actors: Vec::new(),
                events: Vec::new(),
                summary: Default::default(),
            })
        }),
    }
}

/// What the lite bundle hands to the full one: the state after the change
/// a person asked for, and whether the editor should open.
#[derive(Debug, Clone, PartialEq)]
pub struct Upgrade {
    /// The state to open (`None`: what the URL says).
    pub link: Option<ShareState>,
    /// Open the request editor.
    pub editor: bool,
}

/// How a part of the page hands an action to the page's runtime (the full
/// bundle's islands do, see `bundle::islands`).
pub type Dispatch = Rc<dyn Fn(Action)>;

/// A selected event: lane position and event position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    /// Lane position.
    pub lane: usize,
    /// Event position in that lane's timeline.
    pub event: usize,
}

/// Everything the page shows.
#[derive(Clone)]
pub struct State {
    /// The open scenario (`None` only if the catalog were empty, or a
    /// scenario file is open).
    pub scenario: Option<&'static ScenarioInfo>,
    /// The open scenario file, if one is (its set-ups are the lanes').
    pub file: Option<Rc<ScenarioFile>>,
    /// The open recorded check, if one is (its runs are the lanes').
    pub checked: Option<Rc<Checked>>,
    /// The open file's servers (the editor's targets include them).
    pub file_servers: Shared<Vec<(String, mcp_lanes_core::server::ServerConfig)>>,
    /// The problems of a scenario file that could not be shown (the page
    /// lists them instead of lanes).
    pub problems: Option<Rc<Vec<String>>>,
    /// A notice for the reader (e.g. an unknown `?scenario=`).
    pub notice: Option<String>,
    /// The lanes, left to right.
    pub lanes: Shared<Vec<Lane>>,
    /// Rows shared by all lanes; `layout.times` is the playback sequence.
    pub layout: Shared<Layout>,
    /// Playback position: 0 = nothing shown yet, `layout.len()` = the end.
    pub pos: usize,
    /// Whether playback runs.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The event shown in the inspector.
    pub selected: Option<Selection>,
    /// A field a link points at (`#…/m{lane}.{event}/{path}`): shown open
    /// while its message is the one selected.
    pub field: Option<(Selection, String)>,
    /// The inspector draws the selection a hand-over restored as the drawn
    /// figure drew it (its JSON as plain text), so that the hand-over
    /// changes no pixel; selecting again explains every field.
    pub plain_inspector: bool,
    /// Whether the keyboard help is open.
    pub help_open: bool,
    /// Whether the request editor fills the main area (else the lanes).
    pub editor: bool,
    /// The editor's content as a permalink records it (`None` until the
    /// person changes something in the editor).
    pub editor_link: Option<EditorState>,
    /// Tokens, codes and secrets kept in exports and permalinks (the
    /// reader asked; redacted by default).
    pub keep_secrets: bool,
    /// The editor content a permalink restored (handed to the editor once).
    pub editor_restored: Option<EditorState>,
    /// Without a simulator: the full bundle is needed for this (set here,
    /// carried out by the runtime through `bundle::hand_over`).
    pub upgrade: Option<Rc<Upgrade>>,
    /// Without a simulator: a scenario whose recorded runs are being
    /// fetched, and the step to open it at.
    pub fetching: Option<(String, usize)>,
    /// A tapped conversation (`?tap=`) grows and the playhead follows its
    /// end (the page keeps the end in view while this holds).
    pub following: bool,
    /// What changes set-ups and runs them (`None`: the lite bundle, which
    /// shows recorded runs).
    simulator: Option<Simulator>,
    /// The scenario's set-ups as defined (lanes start from one of them).
    bases: Rc<Vec<Setup>>,
    next_key: u32,
}

/// Everything a person (or a timer) can do to the state.
#[non_exhaustive]
pub enum Action {
    /// Keep (true) or redact (false) secrets in exports and permalinks.
    KeepSecrets(bool),
    /// Open a scenario by id (from the picker or the URL).
    Load(String),
    /// Open what a permalink describes.
    Restore(Box<ShareState>),
    /// Lite bundle: the recorded runs of a scenario arrived (id, step).
    Recorded(String, usize),
    /// Lite bundle: hand the state over to the full bundle as it is.
    HandOver,
    /// Lite bundle: the full bundle could not be loaded.
    HandOverFailed,
    /// The editor's content changed (for the permalink).
    EditorLink(Box<EditorState>),
    /// Start playback (from the start if at the end).
    Play,
    /// Stop playback.
    Pause,
    /// Play or pause.
    TogglePlay,
    /// The playback timer fired: advance one step.
    Tick,
    /// One step forward (pauses).
    StepForward,
    /// One step back (pauses).
    StepBack,
    /// Jump to a position (the scrubber).
    Seek(usize),
    /// Back to the start.
    Restart,
    /// To the end.
    JumpToEnd,
    /// Set the speed index.
    SetSpeed(usize),
    /// One speed up.
    Faster,
    /// One speed down.
    Slower,
    /// Show an event in the inspector (or close it).
    Inspect(Option<Selection>),
    /// Show a failing exchange ("What to fix"): pause, play up to it if
    /// it is not drawn yet, and open it in the inspector.
    ShowFailure(Selection),
    /// Change a lane's set-up and re-run it.
    Apply {
        /// Lane position.
        lane: usize,
        /// The change.
        setting: Setting,
    },
    /// Add a copy of a lane with one setting changed, right after it.
    Compare {
        /// Lane position.
        lane: usize,
        /// The change.
        setting: Setting,
    },
    /// Remove a lane added by "compare".
    RemoveLane(usize),
    /// Put a lane's settings back to the scenario's.
    ResetLane(usize),
    /// Open or close the keyboard help.
    Help(bool),
    /// Show the request editor (true) or the lanes (false).
    ShowEditor(bool),
    /// Switch between the lanes and the request editor.
    ToggleEditor,
    /// Open a recorded check or run (read by `checked::read`).
    OpenChecked(Rc<Checked>),
    /// A live check's runs so far (the playhead follows the newest event).
    LiveChecked(Rc<Checked>),
    /// A tapped conversation so far (`?tap=`): the playhead follows its end
    /// while it is there.
    TapChecked(Rc<Checked>),
    /// A recorded check could not be opened: why.
    CheckedProblem(String),
    /// S-SCHEMA's verdicts on each run of the recording read from
    /// `source` (the page's schema worker), added to its verdicts.
    CheckedSchema {
        /// Where the recording came from ([`Checked::source`]).
        source: String,
        /// Per run, S-SCHEMA's verdicts.
        verdicts: Vec<Vec<Verdict>>,
    },
}

impl State {
    /// The state for a scenario id; an unknown id opens the first scenario
    /// with a notice saying so.
    pub fn load(id: Option<&str>, simulator: Option<Simulator>) -> State {
        let mut state = State {
            scenario: None,
            file: None,
            checked: None,
            file_servers: Shared::default(),
            problems: None,
            notice: None,
            lanes: Shared::new(Vec::new()),
            layout: Shared::new(Layout::new(std::iter::empty())),
            pos: 0,
            playing: false,
            speed: DEFAULT_SPEED,
            selected: None,
            field: None,
            plain_inspector: false,
            help_open: false,
            editor: false,
            editor_link: None,
            keep_secrets: false,
            editor_restored: None,
            upgrade: None,
            fetching: None,
            following: false,
            simulator,
            bases: Rc::default(),
            next_key: 0,
        };
        state.open(id);
        state
    }

    fn open(&mut self, id: Option<&str>) {
        self.file = None;
        self.checked = None;
        self.file_servers = Shared::default();
        self.problems = None;
        // `?scenario=stress`: the playback benchmark's load (not a lesson).
        if id == Some("stress") {
            let bases = self.simulator.map_or_else(Vec::new, |s| (s.stress)(3, 200));
            self.notice = Some(t("notice.stress"));
            self.scenario = None;
            let shares = (0..bases.len()).map(LaneState::untouched).collect();
            self.open_lanes(bases, shares);
            return;
        }
        let found = id.and_then(scenarios::find);
        let info = found.or_else(|| CATALOG.first());
        self.notice = match (id, found, info) {
            (Some(id), None, Some(info)) => Some(tf(
                "notice.no_scenario_showing",
                &[
                    ("id", id),
                    ("number", &info.number.to_string()),
                    ("title", &crate::i18n::scenario_title(info.id)),
                ],
            )),
            (Some(id), None, None) => Some(tf("notice.no_scenario", &[("id", id)])),
            _ => None,
        };
        self.scenario = info;
        let bases = info
            .and_then(|i| runs::setups(self.simulator, i.id))
            .unwrap_or_default();
        let shares = (0..bases.len()).map(LaneState::untouched).collect();
        self.open_lanes(bases, shares);
    }

    /// Shows the given lanes of a scenario's set-ups, at the start (a
    /// lane with a label is a compared one).
    fn open_lanes(&mut self, bases: Vec<Setup>, shares: Vec<LaneState>) {
        self.bases = Rc::new(bases);
        let bases = Rc::clone(&self.bases);
        let scenario = self.scenario_id().to_string();
        let scenario = scenario.as_str();
        let lanes: Vec<Lane> = shares
            .into_iter()
            .filter_map(|share| {
                let key = self.next_key;
                self.next_key += 1;
                let added = share.label.is_some();
                Some(Lane::new(
                    key,
                    scenario,
                    bases.get(share.base)?,
                    share,
                    added,
                    self.simulator,
                ))
            })
            .collect();
        self.set_lanes(lanes, false);
        self.pos = 0;
        self.selected = None;
        self.stop();
    }

    /// Opens a scenario file's set-ups as the lanes.
    pub fn open_file(&mut self, file: Rc<ScenarioFile>) {
        self.scenario = None;
        self.problems = None;
        self.notice = None;
        let shares = (0..file.setups.len()).map(LaneState::untouched).collect();
        let bases = file.setups.clone();
        self.file_servers = Shared::new(file.servers.clone());
        self.file = Some(file);
        self.open_lanes(bases, shares);
    }

    /// Opens a recorded check's runs as the lanes, at the start.
    pub fn open_checked(&mut self, checked: Rc<Checked>) {
        self.scenario = None;
        self.file = None;
        self.problems = None;
        self.notice = None;
        self.file_servers = Shared::default();
        self.bases = Rc::default();
        // (The lite bundle, which builds no set-up, stands a plain one in.)
        let stand_in = CATALOG
            .first()
            .and_then(|info| runs::setups(self.simulator, info.id))
            .and_then(|s| s.into_iter().next())
            .unwrap_or_else(|| runs::stand_in("", TransportKind::Stdio));
        let lanes = checked
            .runs
            .iter()
            .map(|run| {
                let key = self.next_key;
                self.next_key += 1;
                Lane::outside(
                    key,
                    &stand_in,
                    Rc::clone(&run.timeline),
                    Rc::clone(&run.verdicts),
                )
            })
            .collect();
        self.checked = Some(checked);
        self.set_lanes(lanes, false);
        self.pos = 0;
        self.selected = None;
        self.editor = false;
        self.stop();
    }

    /// Adds S-SCHEMA's verdicts (per run) to the open recording read from
    /// `source`, where the playhead and the selection are (nothing when
    /// another recording is open by now).
    pub fn add_schema(&mut self, source: &str, schema: Vec<Vec<Verdict>>) {
        let Some(checked) = self.checked.as_ref().filter(|c| c.source == source) else {
            return;
        };
        if !checked.graded_here || schema.len() != checked.runs.len() {
            return;
        }
        let mut checked = (**checked).clone();
        for (run, schema) in checked.runs.iter_mut().zip(schema) {
            let mut verdicts = (*run.verdicts).clone();
            mcp_lanes_core::check::add_schema(&run.timeline, &mut verdicts, schema);
            run.verdicts = Rc::new(verdicts);
        }
        let mut lanes = self.lanes.to_vec();
        for (lane, run) in lanes.iter_mut().filter(|l| l.outside).zip(&checked.runs) {
            lane.verdicts = Rc::clone(&run.verdicts);
        }
        self.lanes = Shared::new(lanes);
        self.checked = Some(Rc::new(checked));
    }

    /// Shows a scenario file's problems instead of lanes.
    pub fn file_problems(&mut self, problems: Vec<String>) {
        self.scenario = None;
        self.file = None;
        self.checked = None;
        self.notice = None;
        self.problems = Some(Rc::new(problems));
        self.open_lanes(Vec::new(), Vec::new());
    }

    /// The id of what is open: a catalog scenario's or a file's.
    pub fn scenario_id(&self) -> &str {
        match (&self.file, self.scenario) {
            (Some(file), _) => &file.id,
            (None, Some(info)) => info.id,
            (None, None) => "",
        }
    }

    /// The virtual time at the playhead (`None` before the first event).
    pub fn time(&self) -> Option<u64> {
        self.layout.time_at(self.pos)
    }

    /// Whether the playhead is at the end.
    pub fn at_end(&self) -> bool {
        self.pos >= self.layout.len()
    }

    /// Replaces the lanes and the layout; keeps the playhead on the same
    /// virtual time when `keep_time` (the end stays the end).
    fn set_lanes(&mut self, lanes: Vec<Lane>, keep_time: bool) {
        let was_end = self.at_end() && self.pos > 0;
        let time = self.time();
        let layout = Layout::new(lanes.iter().map(|l| l.timeline.as_ref()));
        self.pos = match (keep_time, time) {
            (true, _) if was_end => layout.len(),
            (true, Some(t)) => layout.position_of(t),
            _ => 0,
        };
        self.layout = Shared::new(layout);
        self.lanes = Shared::new(lanes);
        if let Some(sel) = self.selected {
            let valid = self
                .lanes
                .get(sel.lane)
                .is_some_and(|l| sel.event < l.timeline.events.len());
            if !valid {
                self.selected = None;
            }
        }
    }

    fn stop(&mut self) {
        self.playing = false;
    }

    fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.layout.len());
    }
}

impl State {
    /// Applies an action (the runtime calls this for every action).
    pub fn update(&mut self, action: Action) {
        let action = match self.simulator {
            Some(_) => action,
            None => match self.without_simulator(action) {
                Some(action) => action,
                None => return,
            },
        };
        let next = self;
        match action {
            Action::Load(id) => next.open(Some(&id)),
            Action::Restore(link) => next.restore(&link),
            Action::Recorded(..) | Action::HandOver | Action::HandOverFailed => {}
            Action::EditorLink(link) => next.editor_link = Some(*link),
            Action::Play => {
                if next.at_end() {
                    next.pos = 0;
                }
                next.playing = !next.layout.is_empty();
            }
            Action::Pause => next.stop(),
            Action::TogglePlay => next.update(if next.playing {
                Action::Pause
            } else {
                Action::Play
            }),
            Action::Tick => {
                if next.playing {
                    next.seek(next.pos + 1);
                    if next.at_end() {
                        next.stop();
                    }
                }
            }
            Action::StepForward => {
                next.stop();
                next.seek(next.pos + 1);
            }
            Action::StepBack => {
                next.stop();
                next.seek(next.pos.saturating_sub(1));
            }
            Action::Seek(pos) => {
                next.stop();
                next.seek(pos);
            }
            Action::Restart => {
                next.stop();
                next.pos = 0;
            }
            Action::JumpToEnd => {
                next.stop();
                next.pos = next.layout.len();
            }
            Action::SetSpeed(speed) => next.speed = speed.min(SPEEDS.len() - 1),
            Action::Faster => next.speed = (next.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => next.speed = next.speed.saturating_sub(1),
            Action::Inspect(selection) => {
                next.selected = selection;
                next.plain_inspector = false;
            }
            Action::ShowFailure(selection) => {
                next.stop();
                let at = next
                    .lanes
                    .get(selection.lane)
                    .and_then(|l| l.timeline.events.get(selection.event))
                    .map(|e| e.at_ms);
                if let Some(at) = at {
                    let pos = next.layout.position_of(at);
                    if next.time().is_none_or(|t| t < at) {
                        next.seek(pos);
                    }
                }
                next.selected = Some(selection);
            }
            // A recorded run has no set-up to change.
            Action::Apply { .. } | Action::Compare { .. } | Action::ResetLane(_)
                if next.checked.is_some() => {}
            Action::OpenChecked(checked) if crate::bundle::CHECKS => next.open_checked(checked),
            Action::LiveChecked(checked) if crate::bundle::CHECKS => {
                next.open_checked(checked);
                next.pos = next.layout.len();
            }
            Action::TapChecked(checked) if crate::bundle::CHECKS => next.tap_checked(checked),
            Action::OpenChecked(_) | Action::LiveChecked(_) | Action::TapChecked(_) => {}
            Action::CheckedProblem(why) => next.notice = Some(why),
            Action::CheckedSchema { source, verdicts } if crate::bundle::CHECKS => {
                next.add_schema(&source, verdicts);
            }
            Action::CheckedSchema { .. } => {}
            Action::Apply { lane, setting } => {
                let scenario = next.scenario_id().to_string();
                let scenario = scenario.as_str();
                let mut lanes: Vec<Lane> = next.lanes.to_vec();
                if let Some(l) = lanes.get_mut(lane) {
                    let mut setup = (*l.setup).clone();
                    if let Some(sim) = next.simulator {
                        (sim.apply)(&mut setup, &setting);
                    }
                    l.share.settings.push(setting);
                    l.timeline = run(next.simulator, scenario, l.share.base, &setup);
                    l.setup = Rc::new(setup);
                    l.version += 1;
                    l.changed = true;
                    next.set_lanes(lanes, true);
                }
            }
            Action::Compare { lane, setting } => {
                let mut lanes: Vec<Lane> = next.lanes.to_vec();
                let base = lanes
                    .get(lane)
                    .and_then(|l| Some((l, next.bases.get(l.share.base)?)));
                if let Some((l, base)) = base {
                    let share = l.compared(setting);
                    let key = next.next_key;
                    next.next_key += 1;
                    let scenario = next.scenario_id().to_string();
                    let scenario = scenario.as_str();
                    let added = Lane::new(key, scenario, base, share, true, next.simulator);
                    lanes.insert(lane + 1, added);
                    if let Some(sel) = next.selected.as_mut() {
                        if sel.lane > lane {
                            sel.lane += 1;
                        }
                    }
                    next.set_lanes(lanes, true);
                }
            }
            Action::RemoveLane(lane) => {
                let mut lanes: Vec<Lane> = next.lanes.to_vec();
                if lanes.get(lane).is_some_and(|l| l.added) {
                    lanes.remove(lane);
                    next.selected = match next.selected {
                        Some(sel) if sel.lane == lane => None,
                        Some(sel) if sel.lane > lane => Some(Selection {
                            lane: sel.lane - 1,
                            ..sel
                        }),
                        other => other,
                    };
                    next.set_lanes(lanes, true);
                }
            }
            Action::ResetLane(lane) => {
                let scenario = next.scenario_id().to_string();
                let scenario = scenario.as_str();
                let mut lanes: Vec<Lane> = next.lanes.to_vec();
                if let Some(l) = lanes.get_mut(lane) {
                    l.share.settings.truncate(l.keep);
                    l.setup = Rc::clone(&l.original);
                    l.timeline = run(next.simulator, scenario, l.share.base, &l.setup);
                    l.version += 1;
                    l.changed = false;
                    next.set_lanes(lanes, true);
                }
            }
            Action::Help(open) => next.help_open = open,
            Action::KeepSecrets(on) => next.keep_secrets = on,
            Action::ShowEditor(on) => next.editor = on,
            Action::ToggleEditor => next.editor = !next.editor,
        }
    }
}
