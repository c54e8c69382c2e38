//! The transcript JSON format of DESIGN.md: per set-up, an array of wire
//! messages in wire order, each wrapped as `{"message": …}` with
//! `direction` (`client->server`, `server->client`, or `undecided` for an
//! imported message whose sender is not known), `at_ms`, and where they
//! apply `between` (the two actors of a hop through a gateway or to an
//! authorization server, `client->gateway`), `legacy`, `violation`, `http`. [`crate::import`] reads it back.

use serde_json::{json, Map, Value};

use crate::sim::{Side, Timeline};

/// One set-up's transcript.
pub fn transcript(timeline: &Timeline) -> Value {
    let entries: Vec<Value> = timeline
        .messages()
        .map(|(event, m)| {
            let mut entry = Map::new();
            // A body-less HTTP response (202, a silent 404) has no message: null.
            let message = m.json.clone().unwrap_or_else(|| {
                if m.wire.is_empty() {
                    Value::Null
                } else {
                    Value::String(m.wire.clone())
                }
            });
            entry.insert("message".into(), message);
            entry.insert(
                "direction".into(),
                json!(match m.sender() {
                    Some(Side::Client) => "client->server",
                    Some(Side::Server) => "server->client",
                    // An imported message whose sender is not known.
                    None => "undecided",
                }),
            );
            // A hop between other actors (through a gateway, to or from an
            // authorization server): which two; `direction` says the side
            // the sender plays.
            if m.sender().is_some() && !m.is_mcp() {
                let (from, to) = m.ends();
                entry.insert(
                    "between".into(),
                    json!(format!("{}->{}", from.name(), to.name())),
                );
            }
            entry.insert("at_ms".into(), json!(event.at_ms));
            if m.legacy {
                entry.insert("legacy".into(), json!(true));
            }
            if let Some(why) = &m.violation {
                entry.insert("violation".into(), json!(why));
            }
            if let Some(http) = &m.http {
                let mut h = Map::new();
                if let Some(method) = &http.method {
                    h.insert("method".into(), json!(method));
                }
                if let Some(status) = http.status {
                    h.insert("status".into(), json!(status));
                }
                let headers: Map<String, Value> = http
                    .headers
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(v)))
                    .collect();
                h.insert("headers".into(), Value::Object(headers));
                entry.insert("http".into(), Value::Object(h));
            }
            Value::Object(entry)
        })
        .collect();
    Value::Array(entries)
}

/// The `run --format json` document for a scenario.
pub fn scenario_document(id: &str, timelines: &[Timeline]) -> Value {
    let setups: Vec<Value> = timelines
        .iter()
        .map(|t| json!({"label": t.label, "transcript": transcript(t)}))
        .collect();
    json!({"scenario": id, "setups": setups})
}
