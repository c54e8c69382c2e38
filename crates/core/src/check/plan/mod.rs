//! The plan of a check, as data: which flows run, in what order, what each
//! sends, and which rules each can show. `mcp-lanes check` (over stdio or
//! HTTP) and the page's live check (over `fetch`) both run it; only the
//! transports differ.
//!
//! A [`Plan`] is a sans-IO state machine. Ask it for the next flow
//! ([`Plan::next`]), run that flow's client over any transport, hand the
//! recorded timeline back ([`Plan::record`]); what a flow showed decides
//! which flows follow (the era the first flow found, the tools the server
//! listed, the tools it refused). At the end [`Plan::report`] merges the
//! flows into one timeline and grades it ([`super::grade`]).
//!
//! The flows, in order:
//! 1. `discover`: the dual-era probe, server/discover and the three lists.
//!    It declares no client capability, so nothing in the run has declared
//!    one before the capability flow (M-STATELESS).
//! 2. `capabilities` (modern): each callable tool without capabilities;
//!    any tool refused with an error is called again declaring every
//!    capability, then without again. A refusal that the declaration
//!    lifts was about capabilities (M-CAP-REQUIRED), and the second
//!    refusal shows the server remembers nothing (M-STATELESS).
//! 3. `unknown`, `version`, `meta` (every transport: also a request
//!    without any `_meta`), `headers` (HTTP only).
//! 4. `legacy` (both eras: a modern-only server's refusal of initialize
//!    is graded), then `counter-offer` if the server completes initialize.
//!
//! Only tools the person named (`--tool`) or, when the plan allows it,
//! tools the server marks `readOnlyHint: true` are ever called.

mod flows;

pub use flows::{
    capability_probe, capability_round, counter_offer, discover, explorer, headers, legacy, meta,
    unknown, version,
};

use std::collections::VecDeque;

use serde_json::{json, Value};

use super::report::{merge_labelled, Report};
use super::verdict::{Outcome, Verdict};
use super::{era, sort, ServerEra};
use crate::client::{example_arguments, Flow};
use crate::note::Note;
use crate::protocol::methods;
use crate::rules::{self, RuleId};
use crate::sim::{Side, Timeline};
use crate::transport::TransportKind;

/// One flow of the plan: its id (what `--flow` takes), what it does, the
/// rules it can show, and whether it needs HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowInfo {
    /// The id.
    pub id: &'static str,
    /// What it sends, in a few words.
    pub does: &'static str,
    /// The rules its exchanges can show.
    pub rules: &'static [RuleId],
    /// It only runs over HTTP.
    pub http_only: bool,
}

/// Every flow a check can run, in run order.
pub const FLOWS: &[FlowInfo] = &[
    FlowInfo {
        id: "discover",
        does: "the era probe, server/discover and its cache hints, tools/resources/prompts lists, declaring no capability (always runs first)",
        rules: &[
            rules::S_ANSWER,
            rules::S_DECLARED,
            rules::S_SCHEMA,
            rules::M_DISCOVER,
            rules::M_RESULT_TYPE,
            rules::M_CACHE_HINTS,
            rules::H_STATUS,
            rules::L_INIT,
        ],
        http_only: false,
    },
    FlowInfo {
        id: "capabilities",
        does: "each callable tool without client capabilities; a refused one again declaring every capability, then without again",
        rules: &[
            rules::M_CAP_REQUIRED,
            rules::M_STATELESS,
            rules::M_MRTR_CAP,
            rules::M_RESULT_TYPE,
        ],
        http_only: false,
    },
    FlowInfo {
        id: "unknown",
        does: "an unknown tool versus an unknown method",
        rules: &[rules::M_UNKNOWN_TOOL, rules::M_UNKNOWN_METHOD],
        http_only: false,
    },
    FlowInfo {
        id: "version",
        does: "a version the server cannot speak, then the retry",
        rules: &[rules::M_VERSION],
        http_only: false,
    },
    FlowInfo {
        id: "meta",
        does: "requests with missing or malformed _meta, and one with no _meta at all",
        rules: &[rules::M_META_REQUIRED],
        http_only: false,
    },
    FlowInfo {
        id: "headers",
        does: "HTTP headers that contradict the body (HTTP only)",
        rules: &[rules::H_HEADERS],
        http_only: true,
    },
    FlowInfo {
        id: "legacy",
        does: "initialize with the newest legacy version (echo), initialized, lists, callable tools without capabilities",
        rules: &[
            rules::L_INIT,
            rules::L_VERSION,
            rules::L_CAP_SESSION,
            rules::M_INIT_ON_MODERN,
        ],
        http_only: false,
    },
    FlowInfo {
        id: "counter-offer",
        does: "initialize with a version no server speaks: a counter-offer is expected",
        rules: &[rules::L_VERSION],
        http_only: false,
    },
];

/// A tool name no server has.
pub const NO_SUCH_TOOL: &str = "mcp-lanes-check-no-such-tool";
/// A method no revision defines.
pub const NO_SUCH_METHOD: &str = "mcp-lanes/no-such-method";
/// A version no server speaks (a modern date far ahead).
pub const FUTURE_VERSION: &str = "2099-01-01";
/// A legacy-shaped version no server speaks.
pub const ANCIENT_VERSION: &str = "1999-01-01";

/// Why a tool may be called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Allowed {
    /// The person named it (`--tool`, or the page's tool field).
    Named,
    /// The server marks it `readOnlyHint: true`.
    ReadOnly,
}

/// A tool the check may call, with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Callable {
    /// The tool's name.
    pub name: String,
    /// Its arguments (as named, or plain values for its required ones).
    pub arguments: Value,
    /// Why it may be called.
    pub why: Allowed,
}

/// What a check is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanOptions {
    /// The transport the flows run over.
    pub transport: TransportKind,
    /// The flow ids to run (empty: all). `discover` always runs.
    pub flows: Vec<String>,
    /// Tools the person allows to be called, with their arguments.
    pub tools: Vec<(String, Value)>,
    /// Also call the listed tools the server marks `readOnlyHint: true`.
    pub read_only_tools: bool,
    /// How long the era probe waits before taking silence for legacy
    /// (E-PROBE-STDIO); as long as any exchange, since a real server may
    /// take seconds to start.
    pub probe_ms: u64,
}

impl PlanOptions {
    /// Every flow, no named tool, read-only tools called, over `transport`.
    pub fn new(transport: TransportKind) -> PlanOptions {
        PlanOptions {
            transport,
            flows: Vec::new(),
            tools: Vec::new(),
            read_only_tools: true,
            probe_ms: 10_000,
        }
    }
}

/// The first flow id of `ids` that is not a flow, if any.
pub fn unknown_flow(ids: &[String]) -> Option<&str> {
    ids.iter()
        .map(String::as_str)
        .find(|id| !FLOWS.iter().any(|f| f.id == *id))
}

/// A flow the plan asks to run.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedFlow {
    /// Its id in [`FLOWS`].
    pub id: &'static str,
    /// The client and its script.
    pub flow: Flow,
}

/// A check in progress (see the module's text).
#[derive(Debug, Clone)]
pub struct Plan {
    options: PlanOptions,
    queue: VecDeque<PlannedFlow>,
    started: bool,
    era: ServerEra,
    callable: Vec<Callable>,
    legacy: bool,
    timelines: Vec<Timeline>,
    labels: Vec<Note>,
    skipped: Vec<Note>,
    /// The discover flow ended with no era found.
    no_era: bool,
    /// The capability probe was recorded (later `capabilities` flows are
    /// its rounds).
    probed: bool,
}

impl Plan {
    /// A plan for `options`.
    pub fn new(options: PlanOptions) -> Plan {
        Plan {
            options,
            queue: VecDeque::new(),
            started: false,
            era: ServerEra::Unknown,
            callable: Vec::new(),
            legacy: false,
            timelines: Vec::new(),
            labels: Vec::new(),
            skipped: Vec::new(),
            no_era: false,
            probed: false,
        }
    }

    /// The next flow to run, or `None` when the check is complete.
    // Not an `Iterator`: what comes next depends on what `record` was given.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<PlannedFlow> {
        if !self.started {
            self.started = true;
            return Some(PlannedFlow {
                id: "discover",
                flow: discover(self.options.probe_ms),
            });
        }
        self.queue.pop_front()
    }

    /// What `flow` recorded; decides what runs next.
    pub fn record(&mut self, flow: &PlannedFlow, timeline: Timeline) {
        match flow.id {
            "discover" => self.after_discover(&timeline),
            "capabilities" if !self.probed => {
                self.probed = true;
                self.after_capability_probe(&timeline)
            }
            "legacy" => {
                // A dual-era server probed as modern shows its legacy side here.
                self.legacy |= era(&timeline) == ServerEra::Legacy;
                self.plan_counter_offer();
            }
            _ => {}
        }
        self.timelines.push(timeline);
        self.labels.push(flow.flow.label.clone());
    }

    /// Stops the check: every flow not run yet is skipped for `why`
    /// (a keyed note naming `{flow}`, e.g. a time limit).
    pub fn stop(&mut self, why: impl Fn(&str) -> Note) {
        for planned in self.queue.drain(..) {
            self.skipped.push(why(planned.id));
        }
    }

    /// The flows skipped, and why.
    pub fn skipped(&self) -> &[Note] {
        &self.skipped
    }

    /// The era the first flow found ([`super::era`]).
    pub fn era(&self) -> ServerEra {
        self.era
    }

    /// The recorded flows so far, with their labels.
    pub fn timelines(&self) -> (&[Timeline], &[Note]) {
        (&self.timelines, &self.labels)
    }

    /// The report of the flows recorded: one merged timeline, graded. A
    /// server that answered the discovery flow in no era fails S-ANSWER
    /// for the whole run, whatever single exchanges showed. `None` before
    /// any flow was recorded.
    pub fn report(&self, target: &str) -> Option<Report> {
        let label = format!("check: {target}");
        let merged = merge_labelled(&label, &self.timelines, &self.labels)?;
        let mut report = Report::new(target, merged);
        if self.no_era {
            report
                .verdicts
                .retain(|v| !(v.rule == rules::S_ANSWER && v.verdict == Outcome::NotApplicable));
            report.verdicts.push(Verdict::new(
                rules::S_ANSWER,
                Outcome::Fail,
                crate::note!(
                    "check.era_expected",
                    "a result to server/discover or to initialize: an MCP server answers one of them"
                ),
                crate::note!(
                    "check.era_none",
                    "neither: nothing this process sent was an MCP answer to the discovery flow"
                ),
                None,
            ));
            sort(&mut report.verdicts);
        }
        Some(report)
    }

    fn wanted(&self, id: &str) -> bool {
        self.options.flows.is_empty() || self.options.flows.iter().any(|f| f == id)
    }

    fn push(&mut self, id: &'static str, flow: Flow) {
        self.queue.push_back(PlannedFlow { id, flow });
    }

    fn after_discover(&mut self, timeline: &Timeline) {
        self.era = era(timeline);
        if self.era == ServerEra::Unknown {
            self.no_era = true;
            self.skipped.push(crate::note!(
                "check.skip_no_era",
                "every other flow: the server answered neither server/discover nor initialize"
            ));
            return;
        }
        let listed = listed_tools(timeline);
        self.callable = callable(&self.options.tools, &listed, self.options.read_only_tools);
        let modern = self.era.speaks_modern();
        self.legacy = self.era.speaks_legacy();
        let http = self.options.transport == TransportKind::Http;
        if modern {
            if self.wanted("capabilities") {
                if self.callable.is_empty() {
                    self.skipped.push(crate::note!(
                        "check.skip_no_tool",
                        "{flow}: no callable tool (name one with --tool NAME --args JSON, or let the server mark it readOnlyHint)",
                        flow = "capabilities"
                    ));
                } else {
                    let probe = capability_probe(&self.callable);
                    self.push("capabilities", probe);
                }
            }
            if self.wanted("unknown") {
                self.push("unknown", unknown());
            }
            if self.wanted("version") {
                self.push("version", version());
            }
            if self.wanted("meta") {
                self.push("meta", meta(http));
            }
            if self.wanted("headers") {
                if http {
                    self.push("headers", headers());
                } else {
                    self.skipped.push(crate::note!(
                        "check.skip_http_flow",
                        "{flow}: an HTTP flow, and this server speaks stdio",
                        flow = "headers"
                    ));
                }
            }
        } else {
            for id in ["capabilities", "unknown", "version", "meta", "headers"] {
                if self.wanted(id) {
                    self.skipped.push(crate::note!(
                        "check.skip_modern_flow",
                        "{flow}: a 2026-07-28 flow, and the server is legacy",
                        flow = id
                    ));
                }
            }
        }
        if self.wanted("legacy") {
            // Also against a modern-only server: its refusal of initialize
            // is graded (M-INIT-ON-MODERN). The discover flow cannot tell a
            // modern-only server from a dual-era one, so the callable tools
            // are always in the script: a client without a session never
            // gets to call them.
            let tools = self.callable.clone();
            if self.callable.is_empty() {
                self.skipped.push(crate::note!(
                    "check.skip_no_legacy_tool",
                    "legacy tool calls: no callable tool (name one with --tool NAME --args JSON, or let the server mark it readOnlyHint)"
                ));
            }
            self.push("legacy", legacy(&tools));
        } else {
            self.plan_counter_offer();
        }
    }

    /// After the capability probe: each refused tool gets its round, run
    /// before any other flow.
    fn after_capability_probe(&mut self, timeline: &Timeline) {
        let refused = refused(timeline, &self.callable);
        for tool in refused.iter().rev() {
            self.queue.push_front(PlannedFlow {
                id: "capabilities",
                flow: capability_round(tool),
            });
        }
    }

    fn plan_counter_offer(&mut self) {
        if !self.wanted("counter-offer") || self.no_era {
            return;
        }
        if self.legacy {
            self.push("counter-offer", counter_offer());
        } else {
            self.skipped.push(crate::note!(
                "check.skip_no_initialize",
                "{flow}: the server does not complete initialize",
                flow = "counter-offer"
            ));
        }
    }
}

/// What the first flow's tools/list said: every listed tool's name,
/// read-only hint and input schema.
pub fn listed_tools(timeline: &Timeline) -> Vec<(String, bool, Value)> {
    let mut out: Vec<(String, bool, Value)> = Vec::new();
    let mut list_ids: Vec<Value> = Vec::new();
    for (_, message) in timeline.messages() {
        let Some(body) = message.json.as_ref() else {
            continue;
        };
        if message.from == Side::Client {
            if body.get("method").and_then(Value::as_str) == Some(methods::TOOLS_LIST) {
                if let Some(id) = body.get("id") {
                    list_ids.push(id.clone());
                }
            }
            continue;
        }
        let answers_list = body.get("id").is_some_and(|id| list_ids.contains(id));
        let Some(tools) = body
            .pointer("/result/tools")
            .and_then(Value::as_array)
            .filter(|_| answers_list)
        else {
            continue;
        };
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            if out.iter().any(|(n, _, _)| n == name) {
                continue;
            }
            let read_only = tool.pointer("/annotations/readOnlyHint") == Some(&json!(true));
            let schema = tool.get("inputSchema").cloned().unwrap_or(json!({}));
            out.push((name.to_string(), read_only, schema));
        }
    }
    out
}

/// The tools the check may call: those named (with their arguments), then,
/// when `read_only` allows, listed tools the server marks
/// `readOnlyHint: true` (with plain values for their required arguments).
pub fn callable(
    named: &[(String, Value)],
    listed: &[(String, bool, Value)],
    read_only: bool,
) -> Vec<Callable> {
    let mut out: Vec<Callable> = named
        .iter()
        .map(|(name, arguments)| Callable {
            name: name.clone(),
            arguments: arguments.clone(),
            why: Allowed::Named,
        })
        .collect();
    for (name, hint, schema) in listed {
        if read_only && *hint && !out.iter().any(|c| &c.name == name) {
            out.push(Callable {
                name: name.clone(),
                arguments: example_arguments(schema),
                why: Allowed::ReadOnly,
            });
        }
    }
    out
}

/// The callable tools whose call without capabilities was refused with a
/// JSON-RPC error (any code: the round shows whether the capabilities were
/// the reason).
fn refused(probe: &Timeline, tools: &[Callable]) -> Vec<Callable> {
    let mut calls: Vec<(Value, String)> = Vec::new();
    let mut out: Vec<Callable> = Vec::new();
    for (_, message) in probe.messages() {
        let Some(body) = message.json.as_ref() else {
            continue;
        };
        if message.from == Side::Client {
            if let (Some(id), Some(name)) = (
                body.get("id"),
                body.pointer("/params/name").and_then(Value::as_str),
            ) {
                calls.push((id.clone(), name.to_string()));
            }
            continue;
        }
        if body
            .pointer("/error/code")
            .and_then(Value::as_i64)
            .is_none()
        {
            continue;
        }
        let name = calls
            .iter()
            .find(|(id, _)| Some(id) == body.get("id"))
            .map(|(_, n)| n.clone());
        if let Some(tool) = tools.iter().find(|t| Some(&t.name) == name.as_ref()) {
            if !out.contains(tool) {
                out.push(tool.clone());
            }
        }
    }
    out
}
