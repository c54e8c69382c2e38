//! Grading a recorded conversation (an imported transcript or capture, see
//! [`crate::import`]): [`grade`](super::grade), the grader `check` uses,
//! plus what a recording shows of both sides that a check of a server does
//! not need: request ids new or reused (RPC-ID), the MRTR rounds (M-MRTR:
//! input_required only where allowed, each retry with a new id, the same
//! keys and `requestState` unchanged; no server requests in the modern
//! era), error codes (RPC-CODES), and the server's refusals of a token
//! when it has any (A-CHALLENGE on each 401, A-SCOPE-STEP-UP on each 403
//! with a Bearer challenge). Rules only a live probe can show are n/a
//! with a sentence saying so. A failure at a message the recording marks as
//! a deliberate violation is an [`Outcome::ExpectedFailure`].

use serde_json::Value;

use super::exchange::{self, short};
use super::verdict::{Outcome, Verdict};
use crate::note::Note;
use crate::protocol::{methods, ResultType};
use crate::rules::{self, RuleId};
use crate::sim::{Actor, EventKind, Side, Timeline};

/// Rules a recording cannot show, and what it would take.
const LIVE_ONLY: &[RuleId] = &[rules::M_CAP_BEFORE_WORK, rules::M_MRTR_STATE, rules::H_HOST];

/// Rules graded here, beyond [`super::grade`]'s.
const RECORDED: &[RuleId] = &[rules::RPC_ID, rules::M_MRTR, rules::RPC_CODES];

/// Judges a conversation that is still going on (tap's log, the page's
/// `?tap=`): [`grade_recorded`]'s verdicts but those on a request whose
/// answer has not come yet, which may still come. Once the conversation is
/// over, [`grade_recorded`] says what never came.
pub fn grade_so_far(timeline: &Timeline) -> Vec<Verdict> {
    let mut out = grade_recorded(timeline);
    out.retain(|v| !(v.verdict == Outcome::Fail && awaited(v)));
    out
}

/// Whether a verdict fails a request only because its answer has not come.
fn awaited(v: &Verdict) -> bool {
    let key = v
        .got_msg
        .as_ref()
        .and_then(|m| m.get("key"))
        .and_then(Value::as_str);
    key == Some("check.no_answer")
}

/// Judges a recorded conversation: every rule [`super::grade`] judges,
/// and RPC-ID, M-MRTR and RPC-CODES; n/a verdicts say what the recording
/// does not show; a failure at a message marked as a deliberate violation
/// is an expected failure. Pure and deterministic; sorted like `grade`.
pub fn grade_recorded(timeline: &Timeline) -> Vec<Verdict> {
    let mut out = super::grade(timeline);
    for v in &mut out {
        if v.verdict == Outcome::NotApplicable && v.exchange.is_none() {
            if v.got == "not exercised by this run" {
                set_got(v, not_recorded());
            } else if v.got == "not exercised: an HTTP rule, and this run was on stdio" {
                set_got(
                    v,
                    crate::note!(
                        "check.na_no_http",
                        "not shown: an HTTP rule, and this recording has no HTTP part"
                    ),
                );
            }
        }
    }
    ids(timeline, &mut out);
    mrtr(timeline, &mut out);
    codes(timeline, &mut out);
    challenges(timeline, &mut out);
    for rule in RECORDED {
        if !out.iter().any(|v| v.rule == *rule) {
            out.push(not_applicable(rule, not_recorded()));
        }
    }
    for rule in LIVE_ONLY {
        let what = match *rule {
            rules::M_CAP_BEFORE_WORK => crate::note!(
                "check.live_side_effects",
                "the server's side effects, which no message shows"
            ),
            rules::M_MRTR_STATE => crate::note!(
                "check.live_tampered_state",
                "a tampered or expired requestState, sent on purpose"
            ),
            _ => crate::note!(
                "check.live_foreign_host",
                "a request with a Host that is not loopback"
            ),
        };
        out.push(not_applicable(
            rule,
            crate::note!(
                "check.na_live_probe",
                "needs a live probe ({what}), which a recording does not hold",
                what = what
            ),
        ));
    }
    mark_expected_failures(timeline, &mut out);
    super::sort(&mut out);
    out
}

/// "Not shown by this recording."
fn not_recorded() -> Note {
    crate::note!(
        "check.na_not_recorded",
        "not shown by this recording (`mcp-lanes check` sends the requests that show it)"
    )
}

fn set_got(v: &mut Verdict, got: Note) {
    let (text, msg) = got.into_parts();
    v.got = text;
    v.got_msg = msg;
}

fn not_applicable(rule: RuleId, why: Note) -> Verdict {
    let summary = rules::find(rule).map(|r| r.summary).unwrap_or("");
    Verdict::new(rule, Outcome::NotApplicable, short(summary, 100), why, None)
}

/// Turns every failure at a message the recording marks as a deliberate
/// violation (`MessageEvent::violation`) into an
/// [`Outcome::ExpectedFailure`]. [`grade_recorded`] does it to its own
/// verdicts; call it again on verdicts added after it (S-SCHEMA's).
pub fn mark_expected_failures(timeline: &Timeline, out: &mut [Verdict]) {
    for v in out.iter_mut().filter(|v| v.verdict == Outcome::Fail) {
        let marked = v
            .exchange
            .and_then(|i| timeline.events.get(i))
            .and_then(|e| e.message())
            .is_some_and(|m| m.violation.is_some());
        if marked {
            v.verdict = Outcome::ExpectedFailure;
        }
    }
}

/// Adds S-SCHEMA's verdicts on a recording (`schema`, computed where the
/// validator is linked: `check::schema::verdicts` in the CLI, the page's
/// schema worker) to the verdicts [`grade_recorded`] gave it, as `check
/// --transcript` and the page both do: a message the recording marks as a
/// violation fails as expected there too, and the result is in the
/// grader's order.
pub fn add_schema(timeline: &Timeline, verdicts: &mut Vec<Verdict>, schema: Vec<Verdict>) {
    verdicts.extend(schema);
    mark_expected_failures(timeline, verdicts);
    super::sort(verdicts);
}

/// The two sides as indexes.
fn slot(side: Side) -> usize {
    match side {
        Side::Client => 0,
        Side::Server => 1,
    }
}

/// RPC-ID: each request's id is a string or integer, not one a request of
/// the same sender still awaits, and in a legacy session (per
/// `Mcp-Session-Id` on HTTP) never one used before.
fn ids(timeline: &Timeline, out: &mut Vec<Verdict>) {
    let mut pending: [Vec<Value>; 2] = [Vec::new(), Vec::new()];
    let mut used: [Vec<(Option<String>, Value)>; 2] = [Vec::new(), Vec::new()];
    for event in &timeline.events {
        let message = match &event.kind {
            EventKind::Message(m) => m,
            EventKind::Timeout { side, request_id } => {
                // As the timeline writes it: a string id quoted.
                pending[slot(*side)].retain(|id| {
                    let text = id.to_string();
                    text != *request_id
                });
                continue;
            }
            _ => continue,
        };
        let (Some(side), Some(body)) = (message.sender(), message.json.as_ref()) else {
            continue;
        };
        // Through a gateway the client's conversation is with the gateway
        // (G-FORWARD): a hop between the gateway and the server carries
        // the same id again, and is not what the client saw.
        let (from, to) = message.ends();
        if from != Actor::Client && to != Actor::Client {
            continue;
        }
        let method = body.get("method").and_then(Value::as_str);
        let Some(id) = body.get("id") else {
            if method == Some(methods::CANCELLED) {
                if let Some(id) = body.get("params").and_then(|p| p.get("requestId")) {
                    pending[slot(side)].retain(|p| p != id);
                }
            }
            continue;
        };
        if method.is_none() {
            // A response: the peer's request is answered.
            let theirs = &mut pending[slot(side.peer())];
            if let Some(at) = theirs.iter().rposition(|p| p == id) {
                theirs.remove(at);
            }
            continue;
        }
        let mine = slot(side);
        let session = message
            .http
            .as_ref()
            .and_then(|h| crate::transport::http::header(&h.headers, "mcp-session-id"))
            .map(str::to_string);
        let text = short(&id.to_string(), 40);
        let got = if !(id.is_string() || id.is_i64() || id.is_u64()) {
            Some(crate::note!(
                "check.rpc_id_type",
                "id {id}: not a string or an integer",
                id = text
            ))
        } else if pending[mine].contains(id) {
            Some(crate::note!(
                "check.rpc_id_awaited",
                "id {id}, which an earlier request still awaiting its answer has",
                id = text
            ))
        } else if message.legacy && used[mine].iter().any(|(s, u)| *s == session && u == id) {
            Some(crate::note!(
                "check.rpc_id_reused",
                "id {id}, used before in this legacy session",
                id = text
            ))
        } else {
            None
        };
        out.push(Verdict::judge(
            rules::RPC_ID,
            got.is_none(),
            crate::note!(
                "check.rpc_id",
                "a string or integer id that no awaited request of the same sender has (in a legacy session, one never used before)"
            ),
            got.unwrap_or_else(|| crate::note!("check.rpc_id_new", "id {id}, new", id = text)),
            event.index,
        ));
        pending[mine].push(id.clone());
        used[mine].push((session, id.clone()));
    }
}

/// An input_required result waiting for its retry.
struct Round {
    method: String,
    id: Value,
    keys: Vec<String>,
    state: Option<Value>,
}

/// M-MRTR: input_required only for tools/call, prompts/get and
/// resources/read; the retry has a new id, answers the same keys and
/// echoes `requestState` unchanged; a modern server sends no request.
fn mrtr(timeline: &Timeline, out: &mut Vec<Verdict>) {
    let mut rounds: Vec<Round> = Vec::new();
    for ex in exchange::exchanges(timeline) {
        let params = ex.params();
        let retry = params.get("inputResponses").or(params.get("requestState"));
        if retry.is_some() {
            if let Some(at) = rounds.iter().rposition(|r| r.method == ex.method) {
                let round = rounds.remove(at);
                let answered: Vec<String> = params
                    .get("inputResponses")
                    .and_then(Value::as_object)
                    .map(|m| m.keys().cloned().collect())
                    .unwrap_or_default();
                let mut problems = Note::from(String::new());
                if ex.body.get("id") == Some(&round.id) {
                    problems.push(crate::note!(
                        "check.mrtr_same_id",
                        "The retry has the same id."
                    ));
                }
                let same_keys = answered.len() == round.keys.len()
                    && answered.iter().all(|k| round.keys.contains(k));
                if !same_keys {
                    problems.push(crate::note!(
                        "check.mrtr_other_keys",
                        "Its inputResponses answer {keys}.",
                        keys = answered.join(", ")
                    ));
                }
                if params.get("requestState") != round.state.as_ref() {
                    problems.push(crate::note!(
                        "check.mrtr_other_state",
                        "Its requestState is not the one given."
                    ));
                }
                out.push(Verdict::judge(
                    rules::M_MRTR,
                    problems.is_empty(),
                    crate::note!(
                        "check.mrtr_retry",
                        "the retry of {method}: a new id, inputResponses keyed as the inputRequests ({keys}), requestState echoed unchanged",
                        method = ex.method,
                        keys = round.keys.join(", ")
                    ),
                    if problems.text().is_empty() {
                        crate::note!("check.all_there", "all there")
                    } else {
                        problems
                    },
                    ex.index,
                ));
            }
        }
        let Some(result) = ex.result() else {
            continue;
        };
        if ResultType::of(result).as_ref() != Some(&ResultType::INPUT_REQUIRED) {
            continue;
        }
        let requests = result.get("inputRequests").and_then(Value::as_object);
        let shaped = result.get("inputRequests").is_none_or(Value::is_object);
        let allowed = methods::may_require_input(ex.method);
        out.push(Verdict::judge(
            rules::M_MRTR,
            allowed && shaped,
            crate::note!(
                "check.mrtr_input_required",
                "input_required only for tools/call, prompts/get or resources/read; inputRequests, if any, an object"
            ),
            crate::note!(
                "check.mrtr_input_required_got",
                "input_required for {method}, inputRequests {requests}",
                method = ex.method,
                requests = requests.map_or("{}".to_string(), |r| short(
                    &Value::Object(r.clone()).to_string(),
                    60
                ))
            ),
            ex.at(),
        ));
        if let Some(id) = ex.body.get("id") {
            rounds.push(Round {
                method: ex.method.to_string(),
                id: id.clone(),
                keys: requests
                    .map(|r| r.keys().cloned().collect())
                    .unwrap_or_default(),
                state: result.get("requestState").cloned(),
            });
        }
    }
    for (event, message) in timeline.messages() {
        let Some(body) = message.json.as_ref() else {
            continue;
        };
        let request = body.get("method").is_some() && body.get("id").is_some();
        if message.sender() == Some(Side::Server) && request && !message.legacy {
            out.push(Verdict::judge(
                rules::M_MRTR,
                false,
                crate::note!(
                    "check.mrtr_no_server_requests",
                    "no request from a modern server: it asks for input with input_required"
                ),
                format!(
                    "request {}",
                    body.get("method").and_then(Value::as_str).unwrap_or("")
                ),
                event.index,
            ));
        }
    }
}

/// RPC-CODES: a modern error's code is not -32002 or -32042, nor in the
/// legacy -32000..-32019 or the reserved, undefined -32023..-32099.
fn codes(timeline: &Timeline, out: &mut Vec<Verdict>) {
    for (event, message) in timeline.messages() {
        let Some(body) = message.json.as_ref() else {
            continue;
        };
        if message.legacy || message.sender().is_none() || body.get("method").is_some() {
            continue;
        }
        let Some(code) = body
            .get("error")
            .and_then(|e| e.get("code"))
            .and_then(Value::as_i64)
        else {
            continue;
        };
        let bad = code == -32002
            || code == -32042
            || (-32019..=-32000).contains(&code)
            || (-32099..=-32023).contains(&code);
        out.push(Verdict::judge(
            rules::RPC_CODES,
            !bad,
            crate::note!(
                "check.rpc_codes",
                "a defined code: not -32002 or -32042, none of the legacy -32000..-32019 or the reserved -32023..-32099"
            ),
            format!("error {code}"),
            event.index,
        ));
    }
}

/// A-CHALLENGE on every 401 the MCP server (or a gateway in front of it)
/// answered, and A-SCOPE-STEP-UP on every 403 of theirs that carries a
/// Bearer challenge, judged as `check` judges a live server's. A
/// recording with neither says nothing of authorization, which is
/// optional: no verdict.
fn challenges(timeline: &Timeline, out: &mut Vec<Verdict>) {
    use super::protection::{self, challenge, Answer};
    for (event, message) in timeline.messages() {
        let Some((http, status)) = message.http.as_ref().and_then(|h| Some((h, h.status?))) else {
            continue;
        };
        let (from, to) = message.ends();
        let resource = matches!(from, Actor::Server | Actor::Gateway);
        if message.sender().is_none() || !resource || to != Actor::Client {
            continue;
        }
        let answer = Answer {
            status,
            headers: http.headers.clone(),
            body: message.wire.clone(),
        };
        let (rule, (ok, got)) = match status {
            401 => (rules::A_CHALLENGE, protection::challenge_outcome(&answer)),
            403 if challenge::bearer(&answer.headers).is_some() => {
                (rules::A_SCOPE_STEP_UP, protection::scope_outcome(&answer))
            }
            _ => continue,
        };
        out.push(Verdict::judge(
            rule,
            ok,
            protection::expected(rule),
            got,
            event.index,
        ));
    }
}
