//! `mcp-lanes check (--url URL | --cmd "COMMAND ARGS") [--flow ID]...
//! [--tool NAME [--args JSON]]... [--format text|json|junit] [--out FILE]
//! [--timeout MS]`: the lesson flows against a real server, graded rule by
//! rule.
//!
//! The flows are the core's check plan ([`mcp_lanes_core::check::Plan`]),
//! the same one the page's live check runs; this module only runs them
//! over a real transport, through the same driver as `mcp-lanes client`
//! ([`crate::driver`]). On stdio each flow gets a fresh process, so a
//! legacy handshake never meets an earlier one; on HTTP one connection
//! serves them all. The plan merges and grades the flows
//! ([`mcp_lanes_core::check::grade`]); S-SCHEMA comes from the core's
//! `check::schema` (the `schema` feature), the one rule that needs a JSON
//! Schema validator.
//!
//! Exit status: 0 when no rule failed, 1 when one did, 2 for a usage error
//! or an unreachable server. `check --transcript` grades a recording
//! offline instead ([`transcript`]).

mod junit;
mod protection;
mod render;
pub mod transcript;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcp_lanes_core::check::{self, Plan, PlanOptions, PlannedFlow};
use mcp_lanes_core::transport::TransportKind;
use serde_json::Value;

use crate::driver::{Connection, Limits, OpenError, Target};
use crate::i18n::Catalog;
use crate::Failure;
use mcp_lanes_core::note::Note;

pub use mcp_lanes_core::check::FLOWS;
pub use protection::Tokens;
pub use transcript::TranscriptArgs;

/// What `check` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// Feedback to read: what to fix first, then every rule.
    Text,
    /// The report as JSON, with the page's timeline.
    Json,
    /// JUnit XML, a testcase per rule (a course's autograder).
    Junit,
}

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
    pub format: ReportFormat,
    /// `--out`: where to write the report as JSON.
    pub out: Option<PathBuf>,
    /// `--timeout` in milliseconds: the deadline of each exchange.
    pub timeout_ms: Option<u64>,
    /// `--lang`: the language of the text report (a catalog's tag, checked).
    pub lang: Option<String>,
    /// `--token`, `--other-audience-token`, `--low-scope-token`.
    pub tokens: Tokens,
}

/// The longest a whole check may take, whatever the server does.
const CHECK_LIMIT: Duration = Duration::from_secs(300);

/// A check in progress: the connection (kept on HTTP, one per flow on
/// stdio) and what went wrong below the protocol.
struct Checker<'a> {
    args: &'a CheckArgs,
    limits: Limits,
    http: Option<Connection>,
    /// What went wrong below the protocol, per flow (the flow's label
    /// keyed, the problem's detail as the transport said it).
    problems: Vec<Note>,
    stderr_tail: Option<String>,
}

impl Checker<'_> {
    /// The language of what the check says (`--lang`, else English).
    fn lang(&self) -> Catalog {
        Catalog::or_english(self.args.lang.as_deref())
    }

    fn open(&self) -> Result<Connection, Failure> {
        Connection::open(&self.args.target, self.limits).map_err(|e| match e {
            OpenError::Usage(msg) => Failure::Usage(msg.say(Some(&self.lang()))),
            // The transport's own words (English) after the reader's.
            OpenError::Unreachable(msg) => Failure::Usage(self.lang().fill(
                "cli.unreachable",
                "cannot reach the server at {target}: {why}",
                &[("target", self.args.target.label()), ("why", msg)],
            )),
        })
    }

    /// Runs one planned flow and returns its timeline.
    fn run(&mut self, planned: &PlannedFlow) -> Result<mcp_lanes_core::sim::Timeline, Failure> {
        let flow = &planned.flow;
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
        Ok(run.timeline)
    }
}

/// Runs the check, prints it, writes `--out`.
pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    let lang = Catalog::or_english(args.lang.as_deref());
    if let Some(id) = check::plan::unknown_flow(&args.flows) {
        return Err(Failure::Usage(lang.fill(
            "cli.check.unknown_flow",
            "unknown flow {id}; flows: {flows}",
            &[
                ("id", format!("{id:?}")),
                (
                    "flows",
                    FLOWS.iter().map(|f| f.id).collect::<Vec<_>>().join(", "),
                ),
            ],
        )));
    }
    let is_http = matches!(args.target, Target::Http { .. });
    let tokens = &args.tokens;
    let token_flags = [
        ("--token", &tokens.token),
        ("--other-audience-token", &tokens.other_audience),
        ("--low-scope-token", &tokens.low_scope),
    ];
    let given = token_flags
        .iter()
        .find(|(_, t)| t.is_some())
        .map(|(flag, _)| *flag)
        .or(tokens.authorize.then_some("--authorize"));
    if let (false, Some(flag)) = (is_http, given) {
        return Err(Failure::Usage(lang.fill(
            "cli.check.token_http_only",
            "{flag} applies to --url only: authorization is for HTTP servers; a stdio server takes its credentials from its environment",
            &[("flag", flag.to_string())],
        )));
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
        problems: Vec::new(),
        stderr_tail: None,
    };
    // On HTTP, the authorization probes first: a 401 means the flows
    // need `--token` (without it they are skipped, not failed).
    let mut guarded = None;
    let mut tokens = args.tokens.clone();
    if is_http {
        let mut connection = checker.open()?;
        let (observed, unauthorized) =
            protection::observe_authorizing(&args.target.label(), &mut tokens, limits);
        if let Some(why) = unauthorized {
            checker
                .problems
                .push(mcp_lanes_core::note::Note::from(lang.fill(
                "cli.check.authorize_failed",
                "--authorize: the authorization flow gave no token ({why}); the flows are skipped",
                &[("why", why)],
            )));
        }
        let asks = observed.protected();
        if let (true, Some(token)) = (asks, &tokens.token) {
            connection.set_bearer(token);
        }
        checker.http = Some(connection);
        guarded = Some((check::protection::grade(&observed), asks));
    }
    let mut options = PlanOptions::new(if is_http {
        TransportKind::Http
    } else {
        TransportKind::Stdio
    });
    options.flows = args.flows.clone();
    options.tools = args.tools.clone();
    options.probe_ms = u64::try_from(limits.exchange.as_millis()).unwrap_or(u64::MAX);
    let mut plan = Plan::new(options);
    let started = Instant::now();
    let locked = matches!(guarded, Some((_, true))) && tokens.token.is_none();
    // Flows without the token the server asks for would only collect 401s.
    let locked_out = locked.then(|| {
        mcp_lanes_core::note!(
            "check.skip_auth",
            "every flow: the server asks for a token (HTTP 401); give `--token` to run the flows with it"
        )
    });
    while let Some(planned) = plan.next().filter(|_| !locked) {
        if started.elapsed() >= CHECK_LIMIT {
            plan.stop(|flow| {
                mcp_lanes_core::note!(
                    "check.skip_time",
                    "{flow}: the check passed its {limit} s limit",
                    flow = flow,
                    limit = CHECK_LIMIT.as_secs()
                )
            });
            break;
        }
        let timeline = checker.run(&planned)?;
        plan.record(&planned, timeline);
    }
    let mut report = match plan.report(&args.target.label()) {
        Some(mut report) => {
            report
                .verdicts
                .extend(check::schema::verdicts(&report.timeline));
            report
        }
        None if locked => locked_report(&args.target.label()),
        None => return Err(Failure::Usage("no flow ran".into())),
    };
    // A server that asks for no token is graded on the A- rules only when
    // the person expected it to (gave a token): authorization is optional,
    // and the page's live check, which agrees rule by rule, has no probes.
    let any_token = token_flags.iter().any(|(_, t)| t.is_some());
    if let Some((verdicts, _)) = guarded.filter(|(_, asks)| *asks || any_token) {
        report.verdicts.extend(verdicts);
    }
    check::sort(&mut report.verdicts);
    if let Some(path) = &args.out {
        let mut json = report.to_json();
        json.push('\n');
        std::fs::write(path, json)
            .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    let text = match args.format {
        ReportFormat::Json => {
            let mut json = report.to_json();
            json.push('\n');
            json
        }
        ReportFormat::Junit => junit::xml(&report, started.elapsed()),
        ReportFormat::Text => render::text(
            &report,
            locked_out
                .as_slice()
                .iter()
                .chain(plan.skipped())
                .cloned()
                .collect::<Vec<_>>()
                .as_slice(),
            &checker.problems,
            checker.stderr_tail.as_deref(),
            &[],
            &lang,
        ),
    };
    crate::print(&text)?;
    verdict(&report, &args.target.label(), &lang)
}

/// The report of a check whose flows did not run (the server asked for a
/// token and none was given): no exchange, every MCP rule n/a.
fn locked_report(target: &str) -> check::Report {
    let timeline = mcp_lanes_core::sim::Timeline {
        label: format!("check: {target}"),
        transport: TransportKind::Http,
        client_label: "mcp-lanes check".into(),
        server_label: target.to_string(),
        actors: Vec::new(),
        events: Vec::new(),
        summary: Default::default(),
    };
    check::Report::new(target, timeline)
}

/// The check's exit: an error (exit 1) naming how many rules failed
/// against `target`, or `Ok` when none did.
pub(crate) fn verdict(report: &check::Report, target: &str, lang: &Catalog) -> Result<(), Failure> {
    let summary = check::summary(&report.verdicts);
    if summary.failed > 0 {
        return Err(Failure::Verdict(lang.fill(
            "cli.check.failed",
            "{count} rule(s) failed against {target}",
            &[
                ("count", summary.failed.to_string()),
                ("target", target.to_string()),
            ],
        )));
    }
    Ok(())
}
