//! `mcp-lanes check (--url URL | --cmd "COMMAND ARGS") [--flow ID]...
//! [--tool NAME [--args JSON]]... [--format text|json] [--out FILE]
//! [--timeout MS]`: the lesson flows against a real server, graded rule by
//! rule.
//!
//! The flows ([`plan`]) run through the same driver as `mcp-lanes client`
//! ([`crate::driver`]); on stdio each flow gets a fresh process, so a
//! legacy handshake never meets an earlier one. The first flow is the era
//! probe the dual-era client animates; its answers decide which flows
//! follow, and a server that answered nothing usable stops the check
//! there. Their timelines are merged into one
//! ([`mcp_lanes_core::check::merge`]) and graded by the core
//! ([`mcp_lanes_core::check::grade`]); S-SCHEMA is added here
//! ([`schema`]), the one rule that needs a JSON Schema validator.
//!
//! Exit status: 0 when no rule failed, 1 when one did, 2 for a usage error
//! or an unreachable server.

mod plan;
mod render;
mod schema;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcp_lanes_core::check::{self, Report};
use mcp_lanes_core::sim::Timeline;
use serde_json::Value;

use crate::args::Format;
use crate::driver::{Connection, Flow, Limits, OpenError, Target};
use crate::i18n::Catalog;
use crate::Failure;
use mcp_lanes_core::note::Note;

pub use plan::FLOWS;

/// What `check` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckArgs {
    /// The server.
    pub target: Target,
    /// `--flow` ids (empty: all).
    pub flows: Vec<String>,
    /// `--tool NAME --args JSON` pairs: tools the user allows to be called.
    pub tools: Vec<(String, Value)>,
    /// `--format`.
    pub format: Format,
    /// `--out`: where to write the report as JSON.
    pub out: Option<PathBuf>,
    /// `--timeout` in milliseconds: the deadline of each exchange.
    pub timeout_ms: Option<u64>,
    /// `--lang`: the language of the text report (a catalog's tag, checked).
    pub lang: Option<String>,
}

/// The longest a whole check may take, whatever the server does.
const CHECK_LIMIT: Duration = Duration::from_secs(300);

/// A check in progress: the connection (kept on HTTP, one per flow on
/// stdio), the timelines so far and what was skipped.
struct Checker<'a> {
    args: &'a CheckArgs,
    limits: Limits,
    http: Option<Connection>,
    timelines: Vec<Timeline>,
    /// Each timeline's flow label (keyed: said in `--lang`).
    labels: Vec<Note>,
    skipped: Vec<Note>,
    /// What went wrong below the protocol, per flow (the flow's label
    /// keyed, the problem's detail as the transport said it).
    problems: Vec<Note>,
    stderr_tail: Option<String>,
    started: Instant,
}

impl Checker<'_> {
    /// The language of what the check says (`--lang`, else English).
    fn lang(&self) -> Catalog {
        Catalog::or_english(self.args.lang.as_deref())
    }

    fn wanted(&self, id: &str) -> bool {
        self.args.flows.is_empty() || self.args.flows.iter().any(|f| f == id)
    }

    fn open(&self) -> Result<Connection, Failure> {
        Connection::open(&self.args.target, self.limits).map_err(|e| match e {
            OpenError::Usage(msg) => Failure::Usage(msg),
            // The transport's own words (English) after the reader's.
            OpenError::Unreachable(msg) => Failure::Usage(self.lang().fill(
                "cli.unreachable",
                "cannot reach the server at {target}: {why}",
                &[("target", self.args.target.label()), ("why", msg)],
            )),
        })
    }

    /// Runs one flow and keeps its timeline; `None` when the check ran out
    /// of time (said in `skipped`).
    fn run(&mut self, flow: &Flow) -> Result<Option<Timeline>, Failure> {
        if self.started.elapsed() >= CHECK_LIMIT {
            self.skipped.push(mcp_lanes_core::note!(
                "check.skip_time",
                "{flow}: the check passed its {limit} s limit",
                flow = flow.label,
                limit = CHECK_LIMIT.as_secs()
            ));
            return Ok(None);
        }
        let run = match &mut self.http {
            Some(connection) => connection.run(flow),
            None => {
                let mut connection = self.open()?;
                let run = connection.run(flow);
                if let Some(tail) = connection.close() {
                    self.stderr_tail = Some(tail);
                }
                run
            }
        };
        for p in &run.problems {
            let line = mcp_lanes_core::note!(
                "check.below",
                "{flow}: {detail}",
                flow = flow.label,
                detail = p.detail
            );
            if !self.problems.contains(&line) {
                self.problems.push(line);
            }
        }
        self.timelines.push(run.timeline.clone());
        self.labels.push(flow.label.clone());
        Ok(Some(run.timeline))
    }
}

/// Runs the check, prints it, writes `--out`.
pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    let lang = Catalog::or_english(args.lang.as_deref());
    for id in &args.flows {
        if !FLOWS.iter().any(|(f, _)| f == id) {
            return Err(Failure::Usage(lang.fill(
                "cli.check.unknown_flow",
                "unknown flow {id}; flows: {flows}",
                &[
                    ("id", format!("{id:?}")),
                    (
                        "flows",
                        FLOWS.iter().map(|(f, _)| *f).collect::<Vec<_>>().join(", "),
                    ),
                ],
            )));
        }
    }
    let mut limits = Limits::default();
    if let Some(ms) = args.timeout_ms {
        limits.exchange = Duration::from_millis(ms.max(1));
        limits.connect = limits.connect.min(limits.exchange);
    }
    limits.run = Duration::from_secs(60);
    let mut checker = Checker {
        args,
        limits,
        http: None,
        timelines: Vec::new(),
        labels: Vec::new(),
        skipped: Vec::new(),
        problems: Vec::new(),
        stderr_tail: None,
        started: Instant::now(),
    };
    let is_http = matches!(args.target, Target::Http { .. });
    if is_http {
        checker.http = Some(checker.open()?);
    }
    run_flows(&mut checker, is_http)?;
    let label = format!("check: {}", args.target.label());
    let Some(merged) = check::merge_labelled(&label, &checker.timelines, &checker.labels) else {
        return Err(Failure::Usage("no flow ran".into()));
    };
    let mut report = Report::new(args.target.label(), merged);
    report.verdicts.extend(schema::verdicts(&report.timeline));
    check::sort(&mut report.verdicts);
    if let Some(path) = &args.out {
        let mut json = report.to_json();
        json.push('\n');
        std::fs::write(path, json)
            .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    let text = match args.format {
        Format::Json => {
            let mut json = report.to_json();
            json.push('\n');
            json
        }
        Format::Text => render::text(
            &report,
            &checker.skipped,
            &checker.problems,
            checker.stderr_tail.as_deref(),
            &lang,
        ),
    };
    crate::print(&text)?;
    let summary = check::summary(&report.verdicts);
    if summary.failed > 0 {
        return Err(Failure::Verdict(lang.fill(
            "cli.check.failed",
            "{count} rule(s) failed against {target}",
            &[
                ("count", summary.failed.to_string()),
                ("target", args.target.label()),
            ],
        )));
    }
    Ok(())
}

fn run_flows(checker: &mut Checker<'_>, is_http: bool) -> Result<(), Failure> {
    let probe_ms = u64::try_from(checker.limits.exchange.as_millis()).unwrap_or(u64::MAX);
    let Some(first) = checker.run(&plan::discover(probe_ms))? else {
        return Ok(());
    };
    let era = check::era(&first);
    if era == check::UNKNOWN {
        checker.skipped.push(mcp_lanes_core::note!(
            "check.skip_no_era",
            "every other flow: the server answered neither server/discover nor initialize"
        ));
        return Ok(());
    }
    let listed = plan::listed_tools(&first);
    let callable = plan::callable(&checker.args.tools, &listed);
    let modern = era == check::MODERN || era == check::DUAL_ERA;
    let mut legacy = era == check::LEGACY || era == check::DUAL_ERA;
    if modern {
        if checker.wanted("capabilities") {
            if callable.is_empty() {
                checker.skipped.push(mcp_lanes_core::note!(
                    "check.skip_no_tool",
                    "{flow}: no callable tool (name one with --tool NAME --args JSON, or let the server mark it readOnlyHint)",
                    flow = "capabilities"
                ));
            } else if let Some(probe) = checker.run(&plan::capability_probe(&callable))? {
                for tool in refused_for_capability(&probe, &callable) {
                    checker.run(&plan::capability_round(&tool))?;
                }
            }
        }
        if checker.wanted("unknown") {
            checker.run(&plan::unknown())?;
        }
        if checker.wanted("version") {
            checker.run(&plan::version())?;
        }
        if checker.wanted("meta") {
            checker.run(&plan::meta(is_http))?;
        }
        if checker.wanted("headers") {
            if is_http {
                checker.run(&plan::headers())?;
            } else {
                checker.skipped.push(mcp_lanes_core::note!(
                    "check.skip_http_flow",
                    "{flow}: an HTTP flow, and this server speaks stdio",
                    flow = "headers"
                ));
            }
        }
    } else {
        for id in ["capabilities", "unknown", "version", "meta", "headers"] {
            if checker.wanted(id) {
                checker.skipped.push(mcp_lanes_core::note!(
                    "check.skip_modern_flow",
                    "{flow}: a 2026-07-28 flow, and the server is legacy",
                    flow = id
                ));
            }
        }
    }
    if checker.wanted("legacy") {
        // Also against a modern-only server: its refusal of initialize is
        // graded (M-INIT-ON-MODERN). Callable tools only where a session
        // can be had.
        let tools = if legacy { callable.clone() } else { Vec::new() };
        if legacy && callable.is_empty() {
            checker.skipped.push(mcp_lanes_core::note!(
                "check.skip_no_legacy_tool",
                "legacy tool calls: no callable tool (name one with --tool NAME --args JSON, or let the server mark it readOnlyHint)"
            ));
        }
        if let Some(run) = checker.run(&plan::legacy(&tools))? {
            // A dual-era server probed as modern shows its legacy side here.
            legacy |= check::era(&run) == check::LEGACY;
        }
    }
    if checker.wanted("counter-offer") {
        if legacy {
            checker.run(&plan::counter_offer())?;
        } else {
            checker.skipped.push(mcp_lanes_core::note!(
                "check.skip_no_initialize",
                "{flow}: the server does not complete initialize",
                flow = "counter-offer"
            ));
        }
    }
    Ok(())
}

/// The callable tools whose call without capabilities got -32021.
fn refused_for_capability(probe: &Timeline, tools: &[plan::Callable]) -> Vec<plan::Callable> {
    let mut calls: Vec<(Value, String)> = Vec::new();
    let mut out: Vec<plan::Callable> = Vec::new();
    for (_, message) in probe.messages() {
        let Some(body) = message.json.as_ref() else {
            continue;
        };
        if let (mcp_lanes_core::sim::Side::Client, Some(id), Some(name)) = (
            message.from,
            body.get("id"),
            body.pointer("/params/name").and_then(Value::as_str),
        ) {
            calls.push((id.clone(), name.to_string()));
            continue;
        }
        if body.pointer("/error/code").and_then(Value::as_i64) == Some(-32021) {
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
    }
    out
}
