//! The deterministic simulation: a virtual clock, the recorded [`Timeline`]
//! and the [`engine`] that wires a client, a channel and a server.

pub mod engine;
pub mod timeline;

pub use engine::{run, Setup};
pub use timeline::{
    Event, EventKind, HttpInfo, MessageEvent, MessageKind, Side, Summary, Timeline,
};

/// Virtual time in milliseconds since the start of a run. The core never
/// reads a real clock; time only moves when the engine says so.
pub type SimTime = u64;
