//! The era and revision of each message of a recording, from the messages
//! themselves, as the grader reads eras (`check::era`; E-TERMS: an era is
//! a message shape): a wrapper's `legacy` (as mcp-lanes writes it), `initialize` and
//! `notifications/initialized` are legacy (the revision the handshake
//! settled on); `server/discover`, a `_meta` with a protocol version, or an
//! `MCP-Protocol-Version` header naming 2026-07-28 are modern; a response
//! has its request's era, but for a legacy server's refusal of a modern
//! probe (an error no modern server sends, in a lane that then shakes
//! hands with `initialize`), which is legacy; anything else the era of the conversation so far
//! (legacy once an initialize was seen, else modern if nothing in the lane
//! is an initialize).

use serde_json::Value;

use super::build::Entry;
use crate::protocol::version::Era;
use crate::protocol::{meta, methods, ErrorCode, ProtocolVersion};
use crate::transport::http;

/// Each entry's revision (`2026-07-28`, or the legacy revision of its
/// session): the schema its message follows, and so its era.
pub(super) fn revisions(entries: &[Entry], json: &[Option<Value>]) -> Vec<ProtocolVersion> {
    let lane_legacy = json
        .iter()
        .any(|b| method(b.as_ref()) == Some(methods::INITIALIZE));
    let mut session: Option<String> = None;
    // Requests so far: their id, method and revision.
    let mut requests: Vec<(&Value, &str, ProtocolVersion)> = Vec::new();
    let mut out = Vec::with_capacity(entries.len());
    for (entry, body) in entries.iter().zip(json) {
        let body = body.as_ref();
        let legacy = |session: &Option<String>| {
            ProtocolVersion::new(
                session
                    .clone()
                    .unwrap_or_else(|| ProtocolVersion::NEWEST_LEGACY.to_string()),
            )
        };
        let name = method(body);
        let id = body.and_then(|b| b.get("id")).filter(|i| !i.is_null());
        let header = entry
            .http
            .as_ref()
            .and_then(|h| http::header(&h.headers, http::PROTOCOL_VERSION_HEADER));
        let has_meta_version = body
            .and_then(|b| b.get("params"))
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta::PROTOCOL_VERSION))
            .is_some();
        let answered = match (name, id) {
            (None, Some(id)) => requests.iter().rev().find(|(i, ..)| *i == id),
            _ => None,
        };
        let revision = if entry.legacy == Some(true) {
            legacy(&session)
        } else if entry.legacy == Some(false) {
            ProtocolVersion::modern()
        } else if name == Some(methods::INITIALIZE) {
            let asked = body
                .and_then(|b| b.get("params"))
                .and_then(|p| p.get("protocolVersion"))
                .and_then(Value::as_str)
                .filter(|v| ProtocolVersion::LEGACY.contains(v));
            if let Some(v) = asked {
                session = Some(v.to_string());
            }
            legacy(&session)
        } else if name == Some(methods::INITIALIZED) {
            legacy(&session)
        } else if name == Some(methods::DISCOVER) || has_meta_version {
            ProtocolVersion::modern()
        } else if let Some((_, request_method, revision)) = answered {
            // A legacy server's refusal of a modern probe (the lane then
            // shakes hands with `initialize`): an error no modern server
            // sends is the legacy server's, in its era (E-TERMS).
            let code = body
                .and_then(|b| b.get("error"))
                .and_then(|e| e.get("code"))
                .and_then(Value::as_i64);
            let refused_by_legacy = lane_legacy
                && revision.era() == Era::Modern
                && code.is_some_and(|c| !ErrorCode(c).is_recognized_modern());
            if refused_by_legacy {
                out.push(legacy(&session));
                continue;
            }
            if *request_method == methods::INITIALIZE {
                let settled = body
                    .and_then(|b| b.get("result"))
                    .and_then(|r| r.get("protocolVersion"))
                    .and_then(Value::as_str)
                    .filter(|v| ProtocolVersion::LEGACY.contains(v));
                if let Some(v) = settled {
                    session = Some(v.to_string());
                }
            }
            revision.clone()
        } else if let Some(h) = header {
            match ProtocolVersion::era_of(h) {
                Era::Modern => ProtocolVersion::modern(),
                Era::Legacy => {
                    if ProtocolVersion::LEGACY.contains(&h) {
                        ProtocolVersion::new(h)
                    } else {
                        legacy(&session)
                    }
                }
            }
        } else if session.is_some() || lane_legacy {
            legacy(&session)
        } else {
            ProtocolVersion::modern()
        };
        if let (Some(name), Some(id)) = (name, id) {
            requests.push((id, name, revision.clone()));
        }
        out.push(revision);
    }
    out
}

/// A message's method, when it has one.
fn method(body: Option<&Value>) -> Option<&str> {
    body?.get("method")?.as_str()
}
