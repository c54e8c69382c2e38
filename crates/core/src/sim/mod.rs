//! The deterministic simulation: a virtual clock, the recorded [`Timeline`]
//! and the [`engine`] that wires a client, a channel and a server.

pub mod auth_flow;
pub mod engine;
mod protected;
pub mod recorder;
pub mod scripted;
pub mod timeline;

use serde::{Deserialize, Serialize};

pub use engine::{message_event, Setup};
pub use protected::run;
pub use recorder::{request_id, Recorded, Recorder};
pub use timeline::{
    Actor, Event, EventKind, HttpInfo, MessageEvent, MessageKind, Side, Summary, Timeline,
};

/// A point of virtual time: milliseconds since the start of a run. The core
/// never reads a real clock; time only moves when the engine (or the CLI,
/// from its own clock) says so, and every `handle_*` call takes it as an
/// argument. A newtype, so a bare number or a duration cannot be passed
/// where a point in time is meant. Serialises as the plain number.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct SimTime(u64);

impl SimTime {
    /// The start of a run.
    pub const ZERO: SimTime = SimTime(0);

    /// The time `ms` milliseconds after the start of a run.
    pub const fn from_millis(ms: u64) -> SimTime {
        SimTime(ms)
    }

    /// Milliseconds since the start of a run (what a [`Timeline`] records).
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// The time `ms` milliseconds later (saturating at the end of time).
    pub const fn plus_millis(self, ms: u64) -> SimTime {
        SimTime(self.0.saturating_add(ms))
    }

    /// Milliseconds from `earlier` to this time (0 if `earlier` is later).
    pub const fn millis_since(self, earlier: SimTime) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl std::fmt::Display for SimTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ms", self.0)
    }
}
