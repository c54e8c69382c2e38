//! The state and the outside world: the first state from a [`Config`]
//! (figure options or a permalink), and the permalink of a state.

use crate::i18n::{t, tf};
use mcp_lanes_core::scenarios;
use mcp_lanes_core::share::{self, ShareState};

use super::State;
use crate::config::Config;
use crate::runs::Simulator;

impl State {
    /// The first state: the scenario asked for, or the permalink's state;
    /// a bad link or bad options show the defaults with a notice.
    pub fn start(config: &Config, simulator: Option<Simulator>) -> State {
        let mut state = State::load(config.scenario.as_deref(), simulator);
        match &config.loaded {
            Some(Ok(file)) => {
                state.open_file(file.clone());
                if let Some(fragment) = &config.fragment {
                    match share::from_fragment_for(fragment, &file.id, file.setups.len()) {
                        Ok(link) => state.restore(&link),
                        Err(why) => {
                            state.notice =
                                Some(tf("notice.link_file", &[("why", &why.to_string())]))
                        }
                    }
                }
            }
            Some(Err(problems)) => state.file_problems(problems.clone()),
            None => {}
        }
        match &config.checked {
            Some(Ok(checked)) if crate::bundle::CHECKS => state.open_checked(checked.clone()),
            Some(Ok(_)) => {}
            Some(Err(why)) => state.notice = Some(why.clone()),
            None => {}
        }
        match &config.link {
            Some(Ok(link)) => state.restore(link),
            Some(Err(why)) => {
                // The reason may end in a question ("was it cut short?").
                let why = why.to_string();
                let stop = if matches!(why.chars().last(), Some('.' | '?' | '!')) {
                    ""
                } else {
                    "."
                };
                state.notice = Some(tf("notice.link", &[("why", &why), ("stop", stop)]))
            }
            None => {}
        }
        if config.problem.is_some() {
            state.notice = config.problem.clone();
        }
        if let Some(keep) = &config.setups {
            let lanes = state
                .lanes
                .iter()
                .filter(|l| keep.contains(&l.share.base))
                .cloned()
                .collect();
            state.set_lanes(lanes, false);
        }
        if let Some(speed) = config.speed {
            state.speed = speed;
        }
        if config.step > 0 {
            state.seek(config.step);
        }
        state.playing = config.autoplay && !config.reduced_motion && !state.layout.is_empty();
        if config.autoplay && config.reduced_motion && state.notice.is_none() {
            state.notice = Some(t("notice.reduced_motion"));
        }
        if let Some(((lane, event), path)) = &config.field {
            let valid = state
                .lanes
                .get(*lane)
                .is_some_and(|l| *event < l.timeline.events.len());
            if valid {
                let at = super::Selection {
                    lane: *lane,
                    event: *event,
                };
                // The playhead moves on to the message if it is not drawn yet.
                let ms = state.lanes[*lane].timeline.events[*event].at_ms;
                if state.time().is_none_or(|t| t < ms) {
                    let pos = state.layout.position_of(ms);
                    state.seek(pos);
                }
                state.selected = Some(at);
                state.field = Some((at, path.clone()));
            }
        }
        if let Some(arrival) = &config.arrival {
            state.selected = arrival.selected.and_then(|(lane, event)| {
                let valid = state
                    .lanes
                    .get(lane)
                    .is_some_and(|l| event < l.timeline.events.len());
                valid.then_some(super::Selection { lane, event })
            });
            state.editor = arrival.editor;
            state.plain_inspector = state.selected.is_some();
        }
        state
    }

    /// Opens what a permalink describes (already checked by the core).
    pub(super) fn restore(&mut self, link: &ShareState) {
        if let Some(file) = self.file.clone().filter(|f| f.id == link.scenario) {
            self.notice = None;
            self.open_lanes(file.setups.clone(), link.lanes.clone());
            self.seek(link.step);
            self.editor_link = link.editor.clone();
            self.editor_restored = link.editor.clone();
            return;
        }
        let found = scenarios::find(&link.scenario);
        let bases = crate::runs::setups(self.simulator, &link.scenario);
        if let (Some(info), Some(bases)) = (found, bases) {
            self.scenario = Some(info);
            self.notice = None;
            self.open_lanes(bases, link.lanes.clone());
            self.seek(link.step);
            self.editor_link = link.editor.clone();
            self.editor_restored = link.editor.clone();
        }
    }

    /// What a permalink of this state records.
    pub fn share(&self) -> ShareState {
        ShareState {
            scenario: self.scenario_id().into(),
            lanes: self.lanes.iter().map(|l| l.share.clone()).collect(),
            step: self.pos,
            editor: self.editor_link.clone(),
        }
    }

    /// The permalink fragment of this state (`#v3.…`, `share::to_fragment`),
    /// empty for a scenario's untouched start.
    pub fn fragment(&self) -> String {
        let base = self.base_fragment();
        match (self.open_field(), self.selected) {
            (Some(path), Some(at)) => field_fragment(&base, at.lane, at.event, path),
            _ => base,
        }
    }

    /// The permalink fragment without the field a link points at.
    pub fn base_fragment(&self) -> String {
        let link = self.share();
        let untouched = link.step == 0
            && link.editor.is_none()
            && link
                .lanes
                .iter()
                .enumerate()
                .all(|(i, l)| l.base == i && !l.is_changed());
        if untouched {
            String::new()
        } else if self.keep_secrets {
            share::to_fragment(&link)
        } else {
            share::to_fragment(&mcp_lanes_core::redact::share_state(&link))
        }
    }

    /// The path of the field a link points at, while its message is the
    /// one selected.
    pub fn open_field(&self) -> Option<&str> {
        self.field
            .as_ref()
            .filter(|(at, _)| Some(*at) == self.selected)
            .map(|(_, path)| path.as_str())
    }
}

/// A permalink fragment that also points at one field of one message:
/// `{base}/m{lane}.{event}/{path}` (the path percent-encoded where a URL
/// fragment needs it).
pub fn field_fragment(base: &str, lane: usize, event: usize, path: &str) -> String {
    let mut out = format!("{base}/m{lane}.{event}/");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~[]$".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
