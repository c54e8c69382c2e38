//! Who sent each message of a recording. In order of authority: what the
//! recording says (a wrapper's `from` or `direction`, the side of a HAR
//! entry a body was in); the method's sender in [`methods::METHODS`] for a
//! request or notification; a request no revision defines is the client's
//! when it is shaped as a modern request (`_meta` with a protocol version:
//! modern servers never send requests, M-MRTR); a response goes back to
//! whoever sent the latest request with its id. Anything else is never
//! guessed: it is undecided, with the reason.

use serde_json::Value;

use super::build::Entry;
use crate::note::Note;
use crate::protocol::{meta, methods};
use crate::sim::Side;

/// Who sent each of `entries` (`json`: each one's parsed body): the side,
/// or why it cannot be known.
pub(super) fn decide(entries: &[Entry], json: &[Option<Value>]) -> Vec<Result<Side, Note>> {
    // Requests awaiting an answer: their id, and who sent them if known.
    let mut pending: Vec<(&Value, Option<Side>)> = Vec::new();
    let mut out = Vec::with_capacity(entries.len());
    for (entry, body) in entries.iter().zip(json) {
        let body = body.as_ref().filter(|b| b.is_object());
        let method = body.and_then(|b| b.get("method")).and_then(Value::as_str);
        let id = body.and_then(|b| b.get("id")).filter(|id| !id.is_null());
        let response = method.is_none()
            && body.is_some_and(|b| b.get("result").is_some() || b.get("error").is_some());
        let decided = if entry.undecided {
            Err(crate::note!(
                "import.undecided_marked",
                "the recording marks who sent it as unknown"
            ))
        } else if let Some(side) = entry.from {
            Ok(side)
        } else if let Some(method) = method {
            by_method(method, body, id.is_some())
        } else if response {
            match id {
                Some(id) => match pending.iter().rev().find(|(p, _)| *p == id) {
                    Some((_, Some(sender))) => Ok(sender.peer()),
                    Some((_, None)) => Err(crate::note!(
                        "import.undecided_answer",
                        "a response to id {id}, whose request's sender is not known either",
                        id = id.to_string()
                    )),
                    None => Err(crate::note!(
                        "import.undecided_id",
                        "a response to id {id}, which no earlier request used",
                        id = id.to_string()
                    )),
                },
                None => Err(crate::note!(
                    "import.undecided_null_id",
                    "an error with id null answers no request by its id"
                )),
            }
        } else {
            match &entry.http {
                Some(http) if http.status.is_some() => Ok(Side::Server),
                Some(http) if http.method.is_some() => Ok(Side::Client),
                _ => Err(crate::note!(
                    "import.undecided_other",
                    "not a JSON-RPC message, and the recording does not say who sent it"
                )),
            }
        };
        if let (Some(_), Some(id)) = (method, id) {
            pending.push((id, decided.as_ref().ok().copied()));
        } else if let (true, Some(id)) = (response, id) {
            let answered_by = decided.as_ref().ok().copied();
            let found = pending.iter().rposition(|(p, sender)| {
                *p == id && answered_by.is_none_or(|a| *sender != Some(a))
            });
            if let Some(at) = found {
                pending.remove(at);
            }
        }
        out.push(decided);
    }
    out
}

/// The sender of a request or notification named `method`.
fn by_method(method: &str, body: Option<&Value>, has_id: bool) -> Result<Side, Note> {
    if let Some(row) = methods::find(method) {
        return Ok(match row.from {
            methods::Sender::Client => Side::Client,
            methods::Sender::Server => Side::Server,
        });
    }
    let modern_shape = body
        .and_then(|b| b.get("params"))
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(meta::PROTOCOL_VERSION))
        .is_some();
    if has_id && modern_shape {
        return Ok(Side::Client);
    }
    Err(crate::note!(
        "import.undecided_method",
        "no revision defines {method}, and it is not shaped as a modern request (`_meta` with a protocol version), so who sent it is not known",
        method = method
    ))
}
