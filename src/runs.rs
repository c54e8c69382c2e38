//! Where a lane's run comes from: the [`Simulator`] (the full bundle), or
//! the runs the core recorded at build time (`www/timelines/<scenario>.json`,
//! checked against the core by `tests/page_timelines.rs`), which the lite
//! bundle fetches once per scenario and keeps here.
//!
//! The state holds an `Option<Simulator>`: the bundle seam (`bundle`) says
//! which. The lite bundle never names the simulator, so it is not linked in,
//! and neither are the scenarios' set-up builders and presets: its lanes
//! stand on set-ups made from the recorded runs ([`stand_ins`]).
//!
//! Data layer: plain Rust over the core.

use std::cell::RefCell;
use std::rc::Rc;

use mcp_lanes_core::scenarios;
use mcp_lanes_core::server::ServerConfig;
use mcp_lanes_core::settings::{self, Setting};
use mcp_lanes_core::sim::{self, Setup, Timeline};
use mcp_lanes_core::transport::{ChannelConfig, TransportKind};

/// What the full bundle can do that the lite one cannot: build a
/// scenario's set-ups, change a set-up and run it.
#[derive(Debug, Clone, Copy)]
pub struct Simulator {
    /// Applies one setting to a set-up (`settings::apply`).
    pub apply: fn(&mut Setup, &Setting),
    /// Runs a set-up (`sim::run`).
    pub run: fn(&Setup) -> Timeline,
    /// A catalog scenario's set-ups (`scenarios::setups`).
    pub setups: fn(&str) -> Option<Vec<Setup>>,
    /// The playback benchmark's load (`scenarios::stress`).
    pub stress: fn(usize, usize) -> Vec<Setup>,
}

impl Simulator {
    /// The core's simulator.
    pub const CORE: Simulator = Simulator {
        apply: settings::apply,
        run: sim::run,
        setups: scenarios::setups,
        stress: scenarios::stress,
    };
}

/// A catalog scenario's set-ups: built by the simulator, or without one
/// the stand-ins of its recorded runs (`None` until they are here).
pub fn setups(simulator: Option<Simulator>, id: &str) -> Option<Vec<Setup>> {
    match simulator {
        Some(sim) => (sim.setups)(id),
        None => stand_ins(id),
    }
}

/// Set-ups standing for a scenario's recorded runs, one per run, with the
/// run's label and transport: all that a lane shows of its set-up without
/// a simulator (the settings and the exporters, which read the rest, are
/// the full bundle's, which builds the real set-ups).
pub fn stand_ins(id: &str) -> Option<Vec<Setup>> {
    RECORDED.with(|c| {
        let cache = c.borrow();
        let (_, runs) = cache.iter().find(|(k, _)| k == id)?;
        Some(
            runs.iter()
                .map(|run| stand_in(&run.label, run.transport))
                .collect(),
        )
    })
}

/// A set-up standing for a run recorded without one (a built-in
/// scenario's in the lite bundle, an imported conversation): its label and
/// transport, a plain client, a server with nothing declared.
pub fn stand_in(label: &str, transport: TransportKind) -> Setup {
    Setup {
        label: label.to_string(),
        client: mcp_lanes_core::client::presets::plain(),
        server: ServerConfig::new("", Default::default()),
        channel: ChannelConfig::new(transport),
        script: Vec::new(),
        server_events: Vec::new(),
        auth: None,
        gateway: None,
    }
}

thread_local! {
    /// Recorded scenarios and their set-ups' runs, in catalog order.
    static RECORDED: RefCell<Vec<(String, Vec<Rc<Timeline>>)>> = const { RefCell::new(Vec::new()) };
}

/// Whether a scenario's recorded runs are here.
pub fn has(id: &str) -> bool {
    RECORDED.with(|c| c.borrow().iter().any(|(k, _)| k == id))
}

/// The recorded run of set-up `base` of a scenario, if it is here.
pub fn recorded(id: &str, base: usize) -> Option<Rc<Timeline>> {
    RECORDED.with(|c| {
        let cache = c.borrow();
        let (_, runs) = cache.iter().find(|(k, _)| k == id)?;
        runs.get(base).cloned()
    })
}

/// Keeps a scenario's recorded runs from the text of its
/// `timelines/<id>.json`; false (nothing kept) when the text is not the
/// runs of that scenario's set-ups.
pub fn keep(id: &str, text: &str) -> bool {
    if has(id) {
        return true;
    }
    let Some(runs) = Timeline::from_json(text) else {
        return false;
    };
    // A file that does not match the scenario's set-ups is not used.
    if scenarios::find(id).map(|s| s.lanes) != Some(runs.len()) {
        return false;
    }
    let runs = runs.into_iter().map(Rc::new).collect();
    RECORDED.with(|c| c.borrow_mut().push((id.to_string(), runs)));
    true
}
