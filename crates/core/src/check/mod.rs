//! Grading a real server: reads a recorded [`Timeline`] (what `mcp-lanes
//! check` and `mcp-lanes client` record, what the page draws) and judges
//! every exchange against the rule catalog, as a list of [`Verdict`]s.
//!
//! Sans-IO and deterministic like the rest of the core: [`grade`] reads
//! only the recorded messages (their JSON-RPC bodies, and on HTTP the
//! method, status and headers in [`crate::sim::HttpInfo`]) and returns the
//! same verdicts for the same timeline. It builds for WebAssembly: the page
//! grades a recorded or live timeline with it. Full JSON Schema validation
//! of every message (S-SCHEMA) is not here (the validator is too big for
//! the page): the native CLI runs it as its own pass and adds its verdicts.
//!
//! **One timeline per check.** A check runs several flows (discover,
//! capabilities, unknown tool, version mismatch, ...); [`merge`] joins
//! their timelines into one, in run order, each flow opened by a client
//! `Decision` event that names it, times shifted so they follow each
//! other. [`Report::timeline`] is that merged timeline, and
//! [`Verdict::exchange`] is an index into its `events`
//! ([`crate::sim::Event::index`]): the server's answer that was judged,
//! or the client's request when no answer came.
//!
//! How exchanges are found: each client request is paired with the
//! latest server response carrying its id (ids may repeat across flows);
//! text that is not JSON-RPC answers the latest request on HTTP (it was
//! that POST's body) and spoils it on stdio; a timeout, disconnection or
//! stopped run leaves it unanswered. What the server said earlier (the
//! versions and capabilities it declared, the tools it listed) decides what
//! a later answer should be: an unknown tool is one not in a complete
//! tools/list, an unsupported version one not in `supportedVersions`.
//!
//! The modules, one per family of rules: `answers` (S-ANSWER,
//! S-DECLARED), `modern` (M-* rules, H-HEADERS), `status` (H-STATUS),
//! `legacy` (L-INIT, L-VERSION, L-CAP-SESSION, M-INIT-ON-MODERN); `exchange` pairs
//! requests with answers, `verdict` is the data, `report` its JSON;
//! `protection` grades a server's authorization from HTTP observations
//! (A-CHALLENGE, A-PRM, A-AS-METADATA, A-AUDIENCE, A-SCOPE-STEP-UP);
//! `recorded` grades an imported recording ([`grade_recorded`]: `grade`,
//! and RPC-ID, M-MRTR, RPC-CODES, expected failures).

mod answers;
mod exchange;
mod legacy;
mod modern;
pub mod plan;
pub mod protection;
mod recorded;
mod report;
#[cfg(feature = "schema")]
pub mod schema;
mod status;
mod verdict;

pub use plan::{Plan, PlanOptions, PlannedFlow, FLOWS};
pub use recorded::{add_schema, grade_recorded, grade_so_far, mark_expected_failures};
pub use report::{merge, merge_labelled, verdicts_from_json, Report};
pub use verdict::{summary, Outcome, RuleCount, Summary, Verdict};

use crate::protocol::jsonrpc::ErrorCode;
use crate::protocol::methods;
use crate::rules::{self, RuleId};
use crate::sim::Timeline;
use crate::transport::TransportKind;

use exchange::short;

/// The rules the grader judges, with the era they need: `None` for both
/// eras. A rule none of the run's exchanges exercised gets one n/a verdict.
const GRADED: &[(RuleId, Option<&str>)] = &[
    (rules::S_ANSWER, None),
    (rules::S_DECLARED, None),
    (rules::L_INIT, None),
    (rules::L_VERSION, None),
    (rules::L_CAP_SESSION, None),
    (rules::M_DISCOVER, Some(MODERN)),
    (rules::M_RESULT_TYPE, Some(MODERN)),
    (rules::M_CACHE_HINTS, Some(MODERN)),
    (rules::M_VERSION, Some(MODERN)),
    (rules::M_META_REQUIRED, Some(MODERN)),
    (rules::M_UNKNOWN_METHOD, Some(MODERN)),
    (rules::M_UNKNOWN_TOOL, Some(MODERN)),
    (rules::M_CAP_REQUIRED, Some(MODERN)),
    (rules::M_STATELESS, Some(MODERN)),
    (rules::M_MRTR_CAP, Some(MODERN)),
    (rules::M_INIT_ON_MODERN, Some(MODERN)),
    (rules::H_STATUS, Some(MODERN)),
    (rules::H_HEADERS, Some(MODERN)),
];

/// The era a server showed in a check ([`era`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerEra {
    /// It answered server/discover (or a modern request the modern way).
    Modern,
    /// It answered both server/discover and initialize.
    DualEra,
    /// It answered initialize only.
    Legacy,
    /// It answered neither.
    Unknown,
}

impl ServerEra {
    /// The name a report's `era` field carries.
    pub fn as_str(self) -> &'static str {
        match self {
            ServerEra::Modern => MODERN,
            ServerEra::DualEra => DUAL_ERA,
            ServerEra::Legacy => LEGACY,
            ServerEra::Unknown => UNKNOWN,
        }
    }

    /// It speaks 2026-07-28 (modern or dual-era).
    pub fn speaks_modern(self) -> bool {
        matches!(self, ServerEra::Modern | ServerEra::DualEra)
    }

    /// It completes initialize (legacy or dual-era).
    pub fn speaks_legacy(self) -> bool {
        matches!(self, ServerEra::Legacy | ServerEra::DualEra)
    }
}

/// A report's `era` for a modern server.
pub const MODERN: &str = "modern";
/// A report's `era` for a server that answered both server/discover and
/// initialize.
pub const DUAL_ERA: &str = "dual-era";
/// A report's `era` for a server that answered initialize only.
pub const LEGACY: &str = "legacy";
/// A report's `era` for a server that answered neither.
pub const UNKNOWN: &str = "unknown";

/// The era the server showed in this timeline: modern if it answered
/// server/discover, refused a modern request with a modern error or
/// answered one with a `resultType`, dual-era if it also completed
/// initialize, legacy if it only completed initialize, unknown if neither
/// (a silent or broken server).
pub fn era(timeline: &Timeline) -> ServerEra {
    era_of(&exchange::exchanges(timeline))
}

fn era_of(exchanges: &[exchange::Exchange<'_>]) -> ServerEra {
    let modern = exchanges.iter().any(|e| {
        let discovered = e.method == methods::DISCOVER
            && e.result()
                .is_some_and(|r| r.get("supportedVersions").is_some());
        let refused = modern::is_modern(e)
            && e.error_code()
                .is_some_and(|c| ErrorCode(c).is_recognized_modern());
        let served = modern::is_modern(e)
            && e.result()
                .is_some_and(|r| r.get(crate::protocol::ResultType::KEY).is_some());
        discovered || refused || served
    });
    let legacy = exchanges.iter().any(|e| {
        e.method == methods::INITIALIZE
            && e.result()
                .and_then(|r| r.get("protocolVersion"))
                .and_then(|v| v.as_str())
                .is_some_and(|v| crate::protocol::ProtocolVersion::LEGACY.contains(&v))
    });
    match (modern, legacy) {
        (true, true) => ServerEra::DualEra,
        (true, false) => ServerEra::Modern,
        (false, true) => ServerEra::Legacy,
        (false, false) => ServerEra::Unknown,
    }
}

/// Judges every exchange of the timeline against the rule catalog.
/// Pure and deterministic; verdicts sorted by exchange (run-wide ones,
/// `None`, first), then rule ID. Every rule the grader knows and no
/// exchange exercised gets one n/a verdict.
pub fn grade(timeline: &Timeline) -> Vec<Verdict> {
    let exchanges = exchange::exchanges(timeline);
    let era = era_of(&exchanges);
    let modern_server = era.speaks_modern();
    let mut known = exchange::Known::default();
    let mut stateless = modern::Stateless::default();
    let mut out = Vec::new();
    for ex in &exchanges {
        answers::answered(ex, &mut out);
        answers::declared(ex, &known, &mut out);
        if ex.method == methods::INITIALIZE {
            legacy::judge(ex, modern_server, &mut out);
        } else if modern_server
            && !modern::is_modern(ex)
            && ex.rules.contains(&rules::M_META_REQUIRED)
        {
            modern::judge_no_meta(ex, era == ServerEra::DualEra, &mut out);
        } else if modern_server && modern::is_modern(ex) {
            modern::judge(ex, &known, &mut out);
            stateless.observe(ex, &mut out);
            if ex.transport == TransportKind::Http {
                let malformed = modern::meta_problem(ex).is_some();
                status::judge(ex, malformed, &mut out);
            }
        }
        known.learn(ex);
    }
    legacy::server_requests(timeline, &mut out);
    for (rule, needs) in GRADED {
        if out.iter().any(|v| v.rule == *rule) {
            continue;
        }
        let http_only = *rule == rules::H_STATUS || *rule == rules::H_HEADERS;
        let why = if needs.is_some() && !modern_server {
            crate::note!(
                "check.na_not_modern",
                "not exercised: the server did not speak 2026-07-28 here"
            )
        } else if http_only && timeline.transport != TransportKind::Http {
            crate::note!(
                "check.na_http_rule",
                "not exercised: an HTTP rule, and this run was on stdio"
            )
        } else {
            crate::note!("check.na_not_exercised", "not exercised by this run")
        };
        let summary = rules::find(rule).map(|r| r.summary).unwrap_or("");
        out.push(Verdict::new(
            rule,
            Outcome::NotApplicable,
            short(summary, 100),
            why,
            None,
        ));
    }
    sort(&mut out);
    out
}

/// S-SCHEMA's one verdict where no JSON Schema validator ran (the page:
/// the validator is too big for its WebAssembly), saying where it is
/// checked.
pub fn schema_elsewhere() -> Verdict {
    Verdict::new(
        rules::S_SCHEMA,
        Outcome::NotApplicable,
        crate::note!(
            "check.schema_expected",
            "every message valid against the official schema of its revision"
        ),
        crate::note!(
            "check.schema_cli_only",
            "not checked here: `mcp-lanes check` validates every message"
        ),
        None,
    )
}

/// Sorts verdicts by exchange (run-wide ones first), then rule ID; stable,
/// so verdicts on the same rule and exchange keep their order.
pub fn sort(verdicts: &mut [Verdict]) {
    verdicts.sort_by(|a, b| (a.exchange, &a.rule).cmp(&(b.exchange, &b.rule)));
}
