//! The state without a simulator (the lite bundle): it opens scenarios
//! from the recorded runs (asking for them first when they are not here)
//! and turns every change that needs the simulator or the editor into an
//! [`Upgrade`] for the full bundle, which opens the same state with the
//! change made. The bundle carries the upgrade out (`bundle::hand_over`).

use std::rc::Rc;

use mcp_lanes_core::scenarios;
use mcp_lanes_core::share::{LaneState, ShareState};

use super::{Action, State, Upgrade};
use crate::runs;

impl State {
    /// Handles `action` without a simulator; returns it when
    /// [`State::update`] should apply it as it is.
    pub(super) fn without_simulator(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::Load(id) => {
                if id == "stress" || scenarios::find(&id).is_none() {
                    // Synthetic or unknown: the full bundle reads the URL.
                    self.hand_over(None, false);
                } else if runs::has(&id) {
                    return Some(Action::Load(id));
                } else {
                    self.fetching = Some((id, 0));
                }
                None
            }
            Action::Restore(link) => {
                if needs_simulator(&link) {
                    self.hand_over(Some(*link), false);
                } else if runs::has(&link.scenario) {
                    return Some(Action::Restore(link));
                } else {
                    self.fetching = Some((link.scenario.clone(), link.step));
                }
                None
            }
            Action::Recorded(id, step) => {
                if self.fetching.as_ref().is_some_and(|(f, _)| *f == id) {
                    self.fetching = None;
                    self.open(Some(&id));
                    self.seek(step);
                }
                None
            }
            Action::HandOver => {
                // The recorded runs could not be fetched: the full bundle
                // runs the scenario itself.
                let link = match self.fetching.take() {
                    Some((id, step)) => pristine(&id, step),
                    None => Some(self.share()),
                };
                self.hand_over(link, false);
                None
            }
            action @ (Action::Apply { .. }
            | Action::Compare { .. }
            | Action::ShowEditor(true)
            | Action::ToggleEditor) => {
                if let Some(upgrade) = self.upgrade_for(&action) {
                    self.hand_over(upgrade.link, upgrade.editor);
                }
                None
            }
            Action::HandOverFailed => {
                self.upgrade = None;
                self.notice = Some(super::HAND_OVER_FAILED.into());
                None
            }
            // Lanes here are never changed or compared: nothing to undo.
            Action::RemoveLane(_) | Action::ResetLane(_) => None,
            other => Some(other),
        }
    }

    /// What the full bundle must open for a change only it can make
    /// (`None` for an action the state makes itself: any, with a simulator).
    pub fn upgrade_for(&self, action: &Action) -> Option<Upgrade> {
        if self.simulator.is_some() {
            return None;
        }
        let mut link = self.share();
        let mut editor = false;
        match action {
            Action::Apply { lane, setting } => {
                if let Some(l) = link.lanes.get_mut(*lane) {
                    l.settings.push(setting.clone());
                }
            }
            Action::Compare { lane, setting } => {
                if let Some(copy) = self.lanes.get(*lane).map(|l| l.compared(setting.clone())) {
                    link.lanes.insert(lane + 1, copy);
                }
            }
            Action::ShowEditor(true) | Action::ToggleEditor => editor = true,
            // A panel only the full bundle has was opened: the state as it
            // is (not while recorded runs are awaited: see `HandOver` above).
            Action::HandOver if self.fetching.is_none() => {}
            _ => return None,
        }
        Some(Upgrade {
            link: Some(link),
            editor,
        })
    }

    /// Asks for the full bundle with `link` (playback stops).
    fn hand_over(&mut self, link: Option<ShareState>, editor: bool) {
        self.stop();
        self.upgrade = Some(Rc::new(Upgrade { link, editor }));
    }
}

/// Whether a permalink needs the simulator (a changed or compared lane) or
/// the editor.
pub fn needs_simulator(link: &ShareState) -> bool {
    link.editor.is_some() || link.lanes.iter().any(LaneState::is_changed)
}

/// A scenario's untouched start, at `step`.
fn pristine(id: &str, step: usize) -> Option<ShareState> {
    let count = scenarios::find(id)?.lanes;
    Some(ShareState {
        scenario: id.to_string(),
        lanes: (0..count).map(LaneState::untouched).collect(),
        step,
        editor: None,
    })
}
