//! `mcp-lanes client [--flow NAME] [--out FILE] [--timeout MS] (URL | --cmd "COMMAND")`:
//! the core's client, the one the lanes animate, against a real server.
//!
//! The flow comes from `--flow`, else from `MCP_CONFORMANCE_SCENARIO` (the
//! official conformance suite's client mode sets it and appends the URL),
//! else [`flows::DEFAULT`]. Each flow's run is printed like `run` prints a
//! scenario; `--out` writes every run as the page's timeline JSON (what
//! `Timeline::from_json` reads).

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use mcp_lanes_core::auth::client::{dpop, Decision};
use mcp_lanes_core::sim::Timeline;

use crate::driver::{Connection, Limits, OpenError, Target};
use crate::i18n::Catalog;
use crate::{flows, run, Failure};

/// What `client` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientArgs {
    /// `--flow`, if given.
    pub flow: Option<String>,
    /// `--out`, if given.
    pub out: Option<PathBuf>,
    /// `--timeout` in milliseconds, if given: the deadline of each exchange.
    pub timeout_ms: Option<u64>,
    /// The server.
    pub target: Target,
    /// `--lang`: the language of the printed runs (a catalog's tag, checked).
    pub lang: Option<String>,
    /// `--keep-secrets`: tokens and codes left in `--out`.
    pub keep_secrets: bool,
}

/// Runs the flow and prints it; writes `--out`. Exit status 1 when an
/// exchange failed below the protocol (timeout, connection, size, a server
/// that exits), 2 for a usage error or an unreachable server.
pub fn client(args: &ClientArgs) -> Result<(), Failure> {
    let name = args
        .flow
        .clone()
        .or_else(|| std::env::var("MCP_CONFORMANCE_SCENARIO").ok())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| flows::DEFAULT.to_string());
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT").ok();
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").ok();
    let flows =
        flows::resolve(&name, context.as_deref(), version.as_deref()).map_err(Failure::Usage)?;
    let mut limits = Limits::default();
    if let Some(ms) = args.timeout_ms {
        limits.exchange = Duration::from_millis(ms.max(1));
        limits.connect = limits.connect.min(limits.exchange);
    }
    let lang = Catalog::or_english(args.lang.as_deref());
    let mut connection = Connection::open(&args.target, limits).map_err(|e| match e {
        OpenError::Usage(msg) => Failure::Usage(msg.say(Some(&lang))),
        // The transport's own words (English) after the reader's.
        OpenError::Unreachable(msg) => Failure::Usage(lang.fill(
            "cli.unreachable",
            "cannot reach the server at {target}: {why}",
            &[("target", args.target.label()), ("why", msg)],
        )),
    })?;
    let mut timelines: Vec<Timeline> = Vec::new();
    let mut problems = Vec::new();
    let shown = args.lang.as_deref().and_then(Catalog::load);
    for flow in &flows {
        let mut result = connection.run(flow);
        if let Target::Http { url } = &args.target {
            // A protected server (A-CHALLENGE): authorize, then run again
            // with the token (A-BEARER); a step-up at most a few times.
            let mut granted: Option<String> = None;
            for _ in 0..crate::authorize::MAX_AUTHORIZATIONS {
                let Some(asked) = crate::authorize::challenge(&result.timeline) else {
                    break;
                };
                // A DPoP-bound token's server asking for its nonce
                // (A-DPOP-NONCE): the same token, proofs with the nonce.
                let retry = connection
                    .dpop_nonce()
                    .and_then(|sent| dpop::resource_nonce(&asked, sent));
                if let Some((nonce, decision)) = retry {
                    print_decisions(&lang, &[decision])?;
                    connection.set_dpop_nonce(nonce);
                    result = connection.run(flow);
                    continue;
                }
                let outcome = crate::authorize::authorize(
                    url,
                    &asked,
                    granted.as_deref(),
                    context.as_deref(),
                    limits,
                );
                print_decisions(&lang, &outcome.decisions)?;
                let Some(token) = outcome.token else {
                    return Err(Failure::Io(lang.text(
                        "cli.client.auth_refused",
                        "the server asks for authorization, and the client did not get a token",
                    )));
                };
                granted = outcome.scope;
                match outcome.dpop {
                    Some(key) => connection.set_dpop(&token, key),
                    None => connection.set_bearer(&token),
                }
                result = connection.run(flow);
            }
        }
        let label = match &shown {
            Some(c) => c.label(&result.timeline.label),
            None => result.timeline.label.clone(),
        };
        let mut text = format!("== {label} ==\n");
        text.push_str(&run::render_timeline_in(&result.timeline, shown.as_ref()));
        crate::print(&text)?;
        problems.extend(result.problems);
        timelines.push(result.timeline);
    }
    let stderr_tail = connection.close();
    if let Some(path) = &args.out {
        let written = mcp_lanes_core::redact::timelines(&timelines, args.keep_secrets);
        let mut json = serde_json::to_string(&written)
            .map_err(|e| Failure::Io(format!("cannot encode the timeline: {e}")))?;
        json.push('\n');
        std::fs::write(path, json)
            .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    if problems.is_empty() {
        return Ok(());
    }
    let mut err = io::stderr().lock();
    for p in &problems {
        let line = lang.fill(
            "cli.client.problem_at",
            "problem at {ms} ms: {detail}",
            &[
                ("ms", p.at_ms.to_string()),
                (
                    "detail",
                    lang.note(
                        p.detail.text(),
                        p.detail
                            .msg()
                            .map(mcp_lanes_core::note::Msg::to_value)
                            .as_ref(),
                    ),
                ),
            ],
        );
        let _ = writeln!(err, "{line}");
    }
    if let Some(tail) = stderr_tail {
        let _ = writeln!(
            err,
            "{}",
            lang.text("cli.client.stderr", "the server's stderr ended with:")
        );
        for line in tail
            .lines()
            .rev()
            .take(10)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            let _ = writeln!(err, "  {line}");
        }
    }
    Err(Failure::Io(lang.fill(
        "cli.client.problems",
        "{count} problem(s) below the protocol talking to {target}",
        &[
            ("count", problems.len().to_string()),
            ("target", args.target.label()),
        ],
    )))
}

/// Prints the authorization flow's decisions, each with its rules.
fn print_decisions(lang: &Catalog, decisions: &[Decision]) -> Result<(), Failure> {
    let mut text = String::new();
    for d in decisions {
        let said = lang.note(
            d.note.text(),
            d.note
                .msg()
                .map(mcp_lanes_core::note::Msg::to_value)
                .as_ref(),
        );
        text.push_str(&format!("auth: {said}  [{}]\n", d.rules.join(", ")));
    }
    crate::print(&text)
}
