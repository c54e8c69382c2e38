//! The sentence that sums up a run: its last message, leaked locks, and
//! whether the simulator cut it off.

use super::side_word;
use crate::note::Note;
use crate::sim::timeline::{Actor, Event};

/// The run's summary sentence.
pub(super) fn outcome(events: &[Event], leaked: u32, truncated: bool) -> Note {
    let last = events
        .iter()
        .rev()
        .find_map(|e| e.message().map(|m| (m.ends().0, m.label.clone())));
    let mut text = match last {
        Some((from, label)) => crate::note!(
            "sim.outcome.last",
            "Last message: {label} from the {from}.",
            label = label,
            from = actor_word(from)
        ),
        None => crate::note!("sim.outcome.none", "No message was exchanged."),
    };
    if leaked > 0 {
        let locks = if leaked == 1 {
            crate::note!("sim.outcome.one_lock", "1 lock")
        } else {
            crate::note!("sim.outcome.locks", "{n} locks", n = leaked)
        };
        text.push(crate::note!(
            "sim.outcome.leaked",
            "{locks} still held: leaked until the server process restarts.",
            locks = locks
        ));
    }
    if truncated {
        text.push(crate::note!(
            "sim.outcome.cut_off",
            "The run was cut off at the simulator's limit."
        ));
    }
    text
}

/// The sender of the last message, as a word of a note: a gateway that
/// answers in the server's place is named, not taken for the server.
fn actor_word(actor: Actor) -> Note {
    match actor {
        Actor::Gateway => crate::note!("sim.actor_gateway", "gateway"),
        Actor::AuthServer => crate::note!("sim.actor_auth_server", "authorization server"),
        Actor::Client => side_word(crate::sim::Side::Client),
        Actor::Server => side_word(crate::sim::Side::Server),
    }
}
