//! A tapped conversation as it happens (`?tap=`, `mcp-lanes tap --live`):
//! each update replaces the runs with the conversation so far; the playhead
//! stays at the end while it is there, and where the person put it once
//! they step back.

use std::rc::Rc;

use super::State;
use crate::checked::Checked;

impl State {
    /// Shows `checked`, the tapped conversation so far. With the playhead
    /// at the end (or nothing tapped yet) it goes to the new end and the
    /// state is `following`; else it stays on the same time, the selection
    /// and playback as they were.
    pub fn tap_checked(&mut self, checked: Rc<Checked>) {
        let follow = self.checked.is_none() || self.at_end();
        let (time, selected, playing) = (self.time(), self.selected, self.playing);
        self.open_checked(checked);
        self.pos = match (follow, time) {
            (true, _) => self.layout.len(),
            (false, Some(t)) => self.layout.position_of(t),
            (false, None) => 0,
        };
        self.selected = selected.filter(|s| {
            self.lanes
                .get(s.lane)
                .is_some_and(|l| s.event < l.timeline.events.len())
        });
        self.playing = playing && !follow;
        self.following = follow;
    }
}
