//! State a tool keeps from one call to the next, declared by a scenario
//! file's tool and kept by the server in virtual time: rate limits
//! (M-TOOL-RATE-LIMIT), handles a call returns and a later call passes back
//! (M-TOOL-HANDLE), quarantine after a declared violation
//! (M-TOOL-QUARANTINE) and long-running work that a status call polls
//! (M-TOOL-POLL). Every refusal is a tool error (`isError: true`) the model
//! can read: the request itself was valid, the tool declined the work.
//!
//! The state belongs to the server, not to a connection or a session:
//! every client of the server shares it, in both eras. It reads no clock:
//! the time is the server's `now`, the time of the input being handled.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::ToolSpec;
use super::tools::Answered;
use super::{ConnId, OutputKind, Server};
use crate::protocol::{Era, ProtocolVersion};
use crate::rules;
use crate::sim::SimTime;

/// What state a tool keeps between calls (all parts optional).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ToolState {
    /// At most so many calls per window (`rateLimit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<RateLimit>,
    /// A successful call returns a new handle (`returns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<Returns>,
    /// A call passes a handle an earlier call returned (`uses`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uses: Option<Uses>,
    /// A call matching a violation quarantines the tool (`quarantine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quarantine: Option<Quarantine>,
}

impl ToolState {
    /// Whether the tool keeps no state at all.
    pub fn is_empty(&self) -> bool {
        *self == ToolState::default()
    }
}

/// A rate limit: `calls` calls in any `window_ms` of virtual time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateLimit {
    /// Calls allowed per window (at least 1).
    pub calls: u32,
    /// The window, in virtual ms.
    pub window_ms: u64,
}

/// The handle a successful call returns: `{handle}` in the tool's result
/// is its id (`job-1`, `job-2`, … per kind).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Returns {
    /// The kind of handle, which also prefixes its id (e.g. `job`).
    pub handle: String,
    /// How long the work the handle names runs, in virtual ms; `None`: it
    /// is ready at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs_ms: Option<u64>,
}

/// The handle a call passes back as one of its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uses {
    /// The kind of handle it needs (a `returns.handle` of some tool).
    pub handle: String,
    /// The argument that carries it.
    pub argument: String,
    /// The result while the handle's work still runs (`{argument}` filled
    /// from the call); `None`: "HANDLE is still running."
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub while_running: Option<String>,
}

/// A violation that quarantines the tool, or all the server's tools.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quarantine {
    /// The arguments that make a call a violation (as an error's `when`).
    pub when: Value,
    /// What the violation is, in the server's words.
    pub violation: String,
    /// What is quarantined.
    pub scope: QuarantineScope,
}

/// What a quarantine shuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QuarantineScope {
    /// The tool that was misused.
    Tool,
    /// Every tool of the server.
    All,
}

/// A handle the server issued.
#[derive(Debug, Clone, PartialEq)]
struct Issued {
    kind: String,
    id: String,
    ready_at: Option<SimTime>,
}

/// A quarantine in force: `tool` (`None`: every tool) since `violation`.
#[derive(Debug, Clone, PartialEq)]
struct Quarantined {
    tool: Option<String>,
    violation: String,
}

/// What the server remembers of its tools' calls.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Ledger {
    /// The accepted calls of rate-limited tools, oldest first.
    calls: Vec<(String, SimTime)>,
    handles: Vec<Issued>,
    quarantined: Vec<Quarantined>,
}

/// Whether every key of `when` is among `arguments` with an equal value.
pub(crate) fn matches(when: &Value, arguments: &Value) -> bool {
    when.as_object().is_some_and(|when| {
        when.iter()
            .all(|(k, v)| arguments.get(k).is_some_and(|a| a == v))
    })
}

/// `text` with `{argument}` filled from `arguments`.
pub(crate) fn fill(text: &str, arguments: &Value) -> String {
    let mut out = text.to_string();
    if let Some(args) = arguments.as_object() {
        for (name, value) in args {
            let value = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            out = out.replace(&format!("{{{name}}}"), &value);
        }
    }
    out
}

/// An argument's value as the handle it names.
fn handle_of(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

impl Server {
    /// A tool's answer with this text, shaped for the revision
    /// (`resultType` in a modern one).
    pub(crate) fn tool_text(
        &self,
        text: &str,
        is_error: bool,
        revision: &ProtocolVersion,
    ) -> Value {
        let content = Server::text_content(text);
        if revision.era() == Era::Modern {
            self.modern_content(content, is_error)
        } else if is_error {
            serde_json::json!({"content": content, "isError": true})
        } else {
            serde_json::json!({"content": content})
        }
    }

    /// Runs a call through the state `tool` keeps, after its arguments and
    /// declared failures passed: `Some` is the answer (a refusal as a tool
    /// error, or "still running"); `None` lets the tool work (a handle it
    /// returns is minted when it completes, [`Server::mint_handle`]).
    pub(crate) fn tool_state(
        &mut self,
        conn: &ConnId,
        tool: &mut ToolSpec,
        arguments: &Value,
        revision: &ProtocolVersion,
    ) -> Option<Answered> {
        let now = self.now;
        let name = tool.name.clone();
        let state = tool.state.clone();
        if let Some(q) = self
            .ledger
            .quarantined
            .iter()
            .find(|q| q.tool.as_deref().is_none_or(|t| t == name))
        {
            let text = format!(
                "{name} is quarantined after a violation ({}): it refuses every call.",
                q.violation
            );
            let note = crate::note!("server.state.quarantined", "{tool} is quarantined since an earlier call broke a rule the server declared ({violation}): a tool error with isError true, and the tool does nothing.", tool = name, violation = q.violation);
            let result = self.tool_text(&text, true, revision);
            return Some((
                result,
                vec![rules::M_TOOL_QUARANTINE, rules::M_TOOL_ERROR],
                note,
            ));
        }
        if let Some(q) = state
            .quarantine
            .as_ref()
            .filter(|q| matches(&q.when, arguments))
        {
            let violation = fill(&q.violation, arguments);
            let (text, what) = match q.scope {
                QuarantineScope::Tool => (
                    format!("Refused: {violation}. {name} now refuses every call."),
                    crate::note!("server.state.scope_tool", "the tool"),
                ),
                QuarantineScope::All => (
                    format!("Refused: {violation}. This server's tools now refuse every call."),
                    crate::note!("server.state.scope_all", "every tool of the server"),
                ),
            };
            self.ledger.quarantined.push(Quarantined {
                tool: (q.scope == QuarantineScope::Tool).then(|| name.clone()),
                violation: violation.clone(),
            });
            let note = crate::note!("server.state.quarantines", "This call of {tool} matches a violation the server declares ({violation}): it is refused with a tool error, and from now on {what} refuses every call.", tool = name, violation = violation, what = what);
            let result = self.tool_text(&text, true, revision);
            return Some((
                result,
                vec![rules::M_TOOL_QUARANTINE, rules::M_TOOL_ERROR],
                note,
            ));
        }
        if let Some(limit) = state.rate_limit {
            let window = limit.window_ms;
            let recent: Vec<SimTime> = self
                .ledger
                .calls
                .iter()
                .filter(|(t, at)| *t == name && now.millis_since(*at) < window)
                .map(|(_, at)| *at)
                .collect();
            if recent.len() >= limit.calls as usize {
                let oldest = recent.first().copied().unwrap_or(now);
                let retry = oldest.plus_millis(window).millis_since(now);
                let text = format!(
                    "Rate limit: {name} takes {} calls per {window} ms. Retry in {retry} ms.",
                    limit.calls
                );
                let note = crate::note!("server.state.rate_limited", "{tool} allows {calls} calls per {window} ms and this is one more: a tool error with isError true that names the limit and when to retry (in {retry} ms); the tool does nothing.", tool = name, calls = limit.calls, window = window, retry = retry);
                let result = self.tool_text(&text, true, revision);
                return Some((
                    result,
                    vec![rules::M_TOOL_RATE_LIMIT, rules::M_TOOL_ERROR],
                    note,
                ));
            }
            self.ledger
                .calls
                .retain(|(t, at)| *t != name || now.millis_since(*at) < window);
            self.ledger.calls.push((name.clone(), now));
        }
        if let Some(uses) = &state.uses {
            let given = handle_of(arguments.get(&uses.argument));
            let issued = self
                .ledger
                .handles
                .iter()
                .find(|h| h.kind == uses.handle && h.id == given)
                .cloned();
            match issued {
                None => {
                    let text = format!(
                        "Unknown {} handle: {given}. Pass a handle this server returned.",
                        uses.handle
                    );
                    let note = crate::note!("server.state.unknown_handle", "\"{handle}\" is not a {kind} handle this server issued: a tool error the model can read, not a JSON-RPC error; the tool does nothing.", handle = given, kind = uses.handle);
                    let result = self.tool_text(&text, true, revision);
                    return Some((
                        result,
                        vec![rules::M_TOOL_HANDLE, rules::M_TOOL_ERROR],
                        note,
                    ));
                }
                Some(Issued {
                    ready_at: Some(ready),
                    ..
                }) if ready > now => {
                    let text = match &uses.while_running {
                        Some(t) => fill(t, arguments),
                        None => format!("{given} is still running."),
                    };
                    let note = crate::note!("server.state.still_running", "{handle} is still running (its work ends at {ready} ms): the status call answers at once that it runs, and the client asks again later.", handle = given, ready = ready.as_millis());
                    let result = self.tool_text(&text, false, revision);
                    return Some((result, vec![rules::M_TOOL_POLL, rules::M_TOOL_HANDLE], note));
                }
                Some(Issued { ready_at, .. }) => {
                    let (rules, note) = match ready_at {
                        Some(ready) => (
                            vec![rules::M_TOOL_POLL, rules::M_TOOL_HANDLE],
                            crate::note!("server.state.done", "{handle}'s work ended at {ready} ms: the status call now answers done, with its result.", handle = given, ready = ready.as_millis()),
                        ),
                        None => (
                            vec![rules::M_TOOL_HANDLE],
                            crate::note!("server.state.known_handle", "{handle} is a {kind} handle this server issued: {tool} works on it.", handle = given, kind = uses.handle, tool = name),
                        ),
                    };
                    self.note(conn, OutputKind::Decision, &rules, note);
                }
            }
        }
        None
    }

    /// Mints the handle a tool returns (`returns`), once the call
    /// completes: not on a round that only asks the user (MRTR or a legacy
    /// elicitation), so an unanswered question leaves no handle behind.
    /// The handle's id, which the caller fills into `{handle}`.
    pub(crate) fn mint_handle(&mut self, conn: &ConnId, tool: &ToolSpec) -> Option<String> {
        let now = self.now;
        let name = tool.name.clone();
        let returns = tool.state.returns.as_ref()?;
        let n = self
            .ledger
            .handles
            .iter()
            .filter(|h| h.kind == returns.handle)
            .count()
            + 1;
        let id = format!("{}-{n}", returns.handle);
        let ready_at = returns.runs_ms.map(|ms| now.plus_millis(ms));
        self.ledger.handles.push(Issued {
            kind: returns.handle.clone(),
            id: id.clone(),
            ready_at,
        });
        let (rules, note) = match ready_at {
            Some(ready) => (
                vec![rules::M_TOOL_HANDLE, rules::M_TOOL_POLL],
                crate::note!("server.state.starts", "{tool} starts work that runs until {ready} ms and answers at once with its handle {handle}; a status call passes the handle back to ask how it goes.", tool = name, ready = ready.as_millis(), handle = id),
            ),
            None => (
                vec![rules::M_TOOL_HANDLE],
                crate::note!("server.state.issues", "{tool} answers with a new handle, {handle}: server-side state a later call names by passing it back.", tool = name, handle = id),
            ),
        };
        self.note(conn, OutputKind::Decision, &rules, note);
        Some(id)
    }
}
