//! Drives playback: while the state says "playing", an interval ticks one
//! step per period (a fixed real duration scaled by the speed, never by the
//! virtual time between events). Pausing or a new speed drops the interval,
//! which cancels it (a tick that still arrives is ignored by the reducer).

use gloo::timers::callback::Interval;
use yew::prelude::*;

use crate::state::{step_ms, Action, State};

/// Runs an interval while playback runs, restarted when its speed changes.
#[hook]
pub fn use_playback_timer(state: &UseReducerHandle<State>) {
    let dispatcher = state.dispatcher();
    use_effect_with((state.playing, state.speed), move |&(playing, speed)| {
        let interval = playing
            .then(|| Interval::new(step_ms(speed), move || dispatcher.dispatch(Action::Tick)));
        move || drop(interval)
    });
}
