//! A live check from the browser, without the I/O: the core's check plan
//! ([`Plan`], the same flows `mcp-lanes check` runs) against a real server
//! over HTTP, each flow's client run one exchange at a time and recorded
//! as the page's [`Timeline`] on the real clock. The browser side
//! (`hooks::live_fetch`) does the `fetch`es and the timers and hands each
//! answer here with the milliseconds since the run started; this module
//! decides nothing about the protocol either: the plan and the client do
//! ([`Client::handle_http`], [`Client::handle_failure`],
//! [`Client::handle_timeout`]), and the core grades the merged run
//! ([`Plan::report`]) as the CLI does.
//!
//! No tool of the server's is ever called unless the person names it (as
//! `--tool` does).
//!
//! Data layer: plain Rust over the core, tested natively against the core's
//! own server.

use std::rc::Rc;

use mcp_lanes_core::check::{self, Plan, PlanOptions, Report, Verdict};
use mcp_lanes_core::client::{Client, ClientAction, Flow, TransportFailure};
use mcp_lanes_core::note::Note;
use mcp_lanes_core::protocol::ProtocolVersion;
use mcp_lanes_core::rules::{self, RuleId};
use mcp_lanes_core::sim::{
    request_id, EventKind, HttpInfo, Recorded, Recorder, Side, Summary, Timeline,
};
use mcp_lanes_core::transport::http::{self as core_http, HttpResponse};
use mcp_lanes_core::transport::{HttpRequest, TransportKind};
use serde_json::Value;

use crate::checked::{Checked, GradedRun};
use crate::i18n::{t, tf};

/// How long one exchange may take, in milliseconds.
pub const EXCHANGE_MS: u64 = 10_000;

/// The largest answer read, in bytes.
pub const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;

/// Most events one run records (a server that floods is stopped there).
pub const MAX_EVENTS: usize = 2_000;

/// The check plan of a live check: every flow over HTTP, calling only the
/// tools the person named (`tools`: name and arguments).
pub fn plan(tools: Vec<(String, Value)>) -> Plan {
    let mut options = PlanOptions::new(TransportKind::Http);
    options.tools = tools;
    options.read_only_tools = false;
    options.probe_ms = EXCHANGE_MS;
    Plan::new(options)
}

/// The tool the person named in the check panel, with its arguments (a
/// JSON object), as `--tool NAME --args JSON`; none for an empty name. An
/// error says what is wrong with the arguments.
pub fn named_tool(name: &str, arguments: &str) -> Result<Vec<(String, Value)>, String> {
    let name = name.trim();
    if name.is_empty() {
        return Ok(Vec::new());
    }
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    match serde_json::from_str::<Value>(text) {
        Ok(value) if value.is_object() => Ok(vec![(name.to_string(), value)]),
        Ok(_) => Err(tf("check.args_not_object", &[("tool", name)])),
        Err(e) => Err(tf(
            "check.args_not_json",
            &[("tool", name), ("error", &e.to_string())],
        )),
    }
}

/// The check so far, for the page to draw while it runs: the flows
/// recorded, then the one in progress, merged into one lane, not graded
/// yet.
pub fn progress(plan: &Plan, current: Option<(&Flow, &LiveRun)>, target: &str) -> Checked {
    let (done, labels) = plan.timelines();
    let mut timelines = done.to_vec();
    let mut labels = labels.to_vec();
    if let Some((flow, run)) = current {
        timelines.push(run.timeline());
        labels.push(flow.label.clone());
    }
    let label = format!("check: {target}");
    let runs = check::merge_labelled(&label, &timelines, &labels)
        .map(|timeline| GradedRun {
            timeline: Rc::new(timeline),
            verdicts: Rc::new(Vec::new()),
        })
        .into_iter()
        .collect();
    Checked {
        source: t("live.source"),
        target: target.to_string(),
        era: None,
        runs,
        graded_here: true,
        notices: Vec::new(),
    }
}

/// The finished check: the plan's report (merged and graded by the core,
/// as `mcp-lanes check` grades it), with S-SCHEMA from `schema` when the
/// page could validate the messages, else one n/a verdict saying where it
/// is checked.
pub fn finished(plan: &Plan, target: &str, schema: Option<Vec<Verdict>>) -> Checked {
    let Some(mut report) = plan.report(target) else {
        return progress(plan, None, target);
    };
    match schema {
        Some(verdicts) => report.verdicts.extend(verdicts),
        None => report.verdicts.push(check::schema_elsewhere()),
    }
    check::sort(&mut report.verdicts);
    from_report(report)
}

fn from_report(report: Report) -> Checked {
    Checked {
        source: t("live.source"),
        target: report.target,
        era: Some(report.era),
        runs: vec![GradedRun {
            timeline: Rc::new(report.timeline),
            verdicts: Rc::new(report.verdicts),
        }],
        graded_here: true,
        notices: Vec::new(),
    }
}

/// A POST to make.
#[derive(Debug, Clone, PartialEq)]
pub struct Post {
    /// The request (method, headers, body) the client chose.
    pub request: HttpRequest,
    /// Its event in the timeline.
    pub event: usize,
    /// The client's wait for its answer, if it waits for one.
    pub awaited: Option<u64>,
}

/// One run in progress.
pub struct LiveRun {
    client: Client,
    rec: Recorder,
    revision: ProtocolVersion,
    label: String,
    target: String,
    client_label: String,
    /// What went wrong below the protocol, in words.
    pub problems: Vec<String>,
    closed: bool,
}

impl LiveRun {
    /// A run of `flow` against the server at `target` (a URL, for the
    /// timeline's header).
    pub fn new(flow: &Flow, target: &str) -> LiveRun {
        let mut config = flow.client.clone();
        config.request_timeout_ms = Some(EXCHANGE_MS);
        config.host_kill_ms = None;
        LiveRun {
            client_label: config.label(),
            client: Client::new(config, flow.script.clone(), TransportKind::Http),
            rec: Recorder::new(),
            revision: ProtocolVersion::modern(),
            label: flow.label.text().to_string(),
            target: target.to_string(),
            problems: Vec::new(),
            closed: false,
        }
    }

    /// Begins at `now` (milliseconds since the run started).
    pub fn start(&mut self, now: u64) {
        self.client.start(at(now));
    }

    fn push(
        &mut self,
        now: u64,
        kind: EventKind,
        rules: Vec<RuleId>,
        note: impl Into<Note>,
    ) -> usize {
        self.rec.push(now, kind, rules, note)
    }

    /// The next POST the client makes, recording what it did before it;
    /// `None` when it has nothing to send now.
    pub fn next_post(&mut self, now: u64) -> Option<Post> {
        while let Some(out) = self.client.poll_output() {
            let timeout = match &out.action {
                ClientAction::Record(EventKind::Timeout { request_id, .. }) => {
                    Some(request_id.to_string())
                }
                _ => None,
            };
            match self.rec.client_output(now, out) {
                Recorded::Sent {
                    event,
                    text,
                    http,
                    revision,
                } => {
                    self.revision = revision;
                    let awaited = self
                        .client
                        .awaited()
                        .filter(|a| request_id(&text) == a.id)
                        .map(|a| a.serial);
                    if let Some(request) = http {
                        return Some(Post {
                            request,
                            event,
                            awaited,
                        });
                    }
                }
                Recorded::Noted { .. } => {
                    if let Some(id) = timeout {
                        self.problems.push(tf(
                            "live.no_answer",
                            &[("id", &id), ("ms", &EXCHANGE_MS.to_string())],
                        ));
                    }
                }
                Recorded::Closed { .. } => self.closed = true,
                // Anything newer is recorded already and has nothing to post.
                _ => {}
            }
        }
        None
    }

    /// The answer to `post` came at `now`: its status, headers and body (a
    /// JSON body, or a whole `text/event-stream`).
    pub fn answered(
        &mut self,
        now: u64,
        post: &Post,
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    ) {
        self.rec.delivered(post.event, now);
        let info = HttpInfo {
            method: None,
            status: Some(status),
            headers: headers.clone(),
            event_id: None,
        };
        let mut response = HttpResponse::json(status, body);
        response.headers = headers;
        let note = tf("live.http_answer", &[("status", &status.to_string())]);
        if core_http::is_event_stream(&response) {
            for data in core_http::sse_events(&response.body) {
                self.received(now, &data, Some(info.clone()), note.clone());
            }
        } else {
            self.received(now, &response.body, Some(info), note);
        }
        if self.rec.len() >= MAX_EVENTS {
            self.problems
                .push(tf("live.too_many", &[("count", &MAX_EVENTS.to_string())]));
            self.closed = true;
            return;
        }
        self.client.handle_http(at(now), &response);
    }

    fn received(&mut self, now: u64, text: &str, http: Option<HttpInfo>, note: String) {
        let revision = self.revision.clone();
        self.rec.message(
            now,
            Side::Server,
            text,
            revision,
            None,
            http,
            Vec::new(),
            note,
        );
    }

    /// The exchange of `post` failed below the protocol (`why`: what the
    /// browser said).
    pub fn failed(&mut self, now: u64, post: &Post, why: &str) {
        self.problems.push(why.to_string());
        let failure = TransportFailure::Closed(why.to_string());
        let still =
            post.awaited.is_some() && self.client.awaited().map(|a| a.serial) == post.awaited;
        if still {
            self.client.handle_failure(at(now), &failure);
        } else {
            self.push(
                now,
                EventKind::Dropped {
                    side: Side::Client,
                    what: why.to_string(),
                },
                vec![rules::C_EXCHANGE_FAILED],
                tf("live.unawaited", &[("why", why)]),
            );
        }
    }

    /// The client's next deadline, in milliseconds since the start.
    pub fn deadline(&self) -> Option<u64> {
        self.client.poll_timeout().map(|t| t.as_millis())
    }

    /// Time reached the client's deadline.
    pub fn timeout(&mut self, now: u64) {
        self.client.handle_timeout(at(now));
    }

    /// Whether the run is over.
    pub fn is_done(&self) -> bool {
        self.closed || self.client.is_done()
    }

    /// The timeline so far (the page draws it as it grows).
    pub fn timeline(&self) -> Timeline {
        // The run ends when its last message arrives, not when it is sent:
        // the next flow of the merged lane starts after it, so no arrow
        // runs on through the next flow's exchanges.
        let ended_at_ms = self
            .rec
            .events()
            .iter()
            .map(|e| {
                e.at_ms
                    .max(e.message().and_then(|m| m.delivered_at_ms).unwrap_or(0))
            })
            .max()
            .unwrap_or(0);
        let outcome = if self.problems.is_empty() {
            t("live.outcome")
        } else {
            tf(
                "live.outcome_problems",
                &[
                    ("count", &self.problems.len().to_string()),
                    ("problems", &self.problems.join("; ")),
                ],
            )
        };
        Timeline {
            label: self.label.clone(),
            transport: TransportKind::Http,
            client_label: self.client_label.clone(),
            server_label: self.target.clone(),
            actors: Vec::new(),
            events: self.rec.events().to_vec(),
            summary: Summary {
                leaked_locks: 0,
                ended_at_ms,
                outcome,
                outcome_msg: None,
            },
        }
    }
}

fn at(ms: u64) -> mcp_lanes_core::sim::SimTime {
    mcp_lanes_core::sim::SimTime::from_millis(ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_lanes_core::check::Outcome;
    use mcp_lanes_core::server::{presets, Server};
    use mcp_lanes_core::sim::SimTime;
    use serde_json::json;

    /// Runs the whole live check, each POST answered by `answer` (status,
    /// headers, body) as the browser's fetch would hand it over.
    fn check_with(
        tools: Vec<(String, Value)>,
        mut answer: impl FnMut(u64, &HttpRequest) -> (u16, Vec<(String, String)>, String),
    ) -> Checked {
        let mut plan = plan(tools);
        let mut now = 0;
        while let Some(planned) = plan.next() {
            let mut run = LiveRun::new(&planned.flow, "http://127.0.0.1:1/mcp");
            run.start(now);
            for _ in 0..200 {
                if let Some(post) = run.next_post(now) {
                    now += 1;
                    let (status, headers, body) = answer(now, &post.request);
                    run.answered(now, &post, status, headers, body);
                    continue;
                }
                if run.is_done() {
                    break;
                }
                match run.deadline() {
                    Some(t) => {
                        now = now.max(t);
                        run.timeout(now);
                    }
                    None => break,
                }
            }
            plan.record(&planned, run.timeline());
        }
        finished(&plan, "http://127.0.0.1:1/mcp", None)
    }

    /// The whole live check against the core's own server over its HTTP
    /// entry, as the browser would over fetch; a request for `gateway`'s
    /// method, if any, gets `status` with a plain-text body instead, as a
    /// gateway's timeout would.
    fn check_against(
        preset: &str,
        tools: Vec<(String, Value)>,
        gateway: Option<(&str, u16)>,
    ) -> Checked {
        let mut server = Server::new(presets::server(preset).expect("preset"));
        check_with(tools, |now, request| match gateway {
            Some((method, status)) if request.body.contains(method) => (
                status,
                vec![("content-type".into(), "text/plain; charset=utf-8".into())],
                "Gateway Timeout".into(),
            ),
            _ => {
                let r = server
                    .handle_http(SimTime::from_millis(now), request)
                    .response;
                (r.status, r.headers, r.body)
            }
        })
    }

    fn outcome(checked: &Checked, rule: &str) -> Outcome {
        checked
            .summary()
            .rules
            .iter()
            .find(|c| c.rule == rule)
            .map(|c| c.outcome())
            .unwrap_or(Outcome::NotApplicable)
    }

    #[test]
    fn s_answer_a_gateway_timeout_instead_of_an_answer_fails() {
        // The gateway's text is that POST's whole answer: the request fails
        // S-ANSWER even though the client closes the flow right after.
        for method in [check::plan::NO_SUCH_METHOD, "resources/list"] {
            let checked = check_against("deploy-console", Vec::new(), Some((method, 504)));
            let answers: Vec<_> = checked
                .verdicts()
                .into_iter()
                .filter(|v| v.rule == rules::S_ANSWER && v.verdict != Outcome::Pass)
                .collect();
            assert!(!answers.is_empty(), "{method}");
            assert!(
                answers.iter().all(|v| v.verdict == Outcome::Fail),
                "{method}: {answers:?}"
            );
        }
    }

    #[test]
    fn m_cap_required_a_live_check_of_a_correct_server_fails_nothing_and_runs_the_plan() {
        let checked = check_against(
            "deploy-console",
            vec![("notify_oncall".into(), json!({"service": "api"}))],
            None,
        );
        assert_eq!(
            checked.runs.len(),
            1,
            "one merged lane, as the CLI's report"
        );
        let failed: Vec<_> = checked
            .verdicts()
            .into_iter()
            .filter(|v| v.verdict == Outcome::Fail)
            .collect();
        assert!(failed.is_empty(), "{failed:?}");
        for rule in [
            rules::S_ANSWER,
            rules::M_DISCOVER,
            rules::M_UNKNOWN_TOOL,
            rules::M_UNKNOWN_METHOD,
            rules::M_META_REQUIRED,
            rules::M_VERSION,
            rules::M_CAP_REQUIRED,
            rules::M_STATELESS,
            rules::H_HEADERS,
            rules::H_STATUS,
        ] {
            assert_eq!(outcome(&checked, rule), Outcome::Pass, "{rule}");
        }
        assert_eq!(
            outcome(&checked, rules::S_SCHEMA),
            Outcome::NotApplicable,
            "S-SCHEMA is said to be checked elsewhere"
        );
    }

    #[test]
    fn every_arrow_of_the_merged_lane_arrives_before_the_next_flow_begins() {
        let checked = check_against("deploy-console", Vec::new(), None);
        let timeline = &checked.runs[0].timeline;
        let starts: Vec<u64> = timeline
            .events
            .iter()
            .filter(|e| e.rules.is_empty() && matches!(e.kind, EventKind::Decision { .. }))
            .filter(|e| e.note.starts_with("Flow "))
            .map(|e| e.at_ms)
            .collect();
        assert!(starts.len() > 1, "{starts:?}");
        for (e, m) in timeline.messages() {
            if let Some(arrives) = m.delivered_at_ms {
                assert!(
                    !starts.iter().any(|s| *s > e.at_ms && *s < arrives),
                    "{} sent at {} arrives at {arrives}, after a flow starts",
                    m.label,
                    e.at_ms
                );
            }
        }
    }

    #[test]
    fn s_answer_the_page_calls_no_tool_it_was_not_given() {
        let checked = check_against("deploy-console", Vec::new(), None);
        let calls = checked.runs[0]
            .timeline
            .messages()
            .filter(|(_, m)| m.from == Side::Client)
            .filter_map(|(_, m)| m.json.as_ref())
            .filter(|b| b.get("method") == Some(&json!("tools/call")))
            .filter(|b| b.pointer("/params/name") != Some(&json!(check::plan::NO_SUCH_TOOL)))
            .count();
        assert_eq!(calls, 0);
    }

    #[test]
    fn a_failed_exchange_goes_to_the_client() {
        let mut plan = plan(Vec::new());
        let planned = plan.next().expect("the discover flow");
        let mut run = LiveRun::new(&planned.flow, "http://127.0.0.1:1/mcp");
        run.start(0);
        let post = run.next_post(0).expect("a first POST");
        run.failed(5, &post, "TypeError: Failed to fetch");
        assert_eq!(run.problems.len(), 1);
        let t = run.timeline();
        assert!(t.summary.outcome.contains("Failed to fetch"));
    }
}
