//! Drives playback: while the state says "playing", an interval ticks one
//! step per period (a fixed real duration scaled by the speed, never by the
//! virtual time between events). The handle is kept in the state, so
//! pausing (which drops it) cancels it.

use gloo::timers::callback::Interval;
use yew::prelude::*;

use crate::state::{step_ms, Action, State};

/// Starts an interval whenever playback starts or its speed changes.
#[hook]
pub fn use_playback_timer(state: &UseReducerHandle<State>) {
    let dispatcher = state.dispatcher();
    use_effect_with((state.playing, state.speed), move |&(playing, speed)| {
        if playing {
            let tick = dispatcher.clone();
            let interval = Interval::new(step_ms(speed), move || tick.dispatch(Action::Tick));
            dispatcher.dispatch(Action::SetTimer(Some(interval)));
        }
    });
}
