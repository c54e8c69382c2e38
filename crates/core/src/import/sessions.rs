//! A transcript recorded over HTTP with several sessions (what `mcp-lanes
//! tap --upstream` records: each message with its HTTP headers): a lane per
//! `Mcp-Session-Id`, in the order the sessions begin, as a HAR capture is
//! read. Request ids start over in each session, so one lane would mix
//! conversations (and RPC-ID would see ids reused that were not).

use serde_json::Value;

use super::build::Entry;

/// A lane's title for one session of `source`: the session id as it is
/// when short, else its first eight characters and an ellipsis (servers
/// mint ids of 32 hex digits and more, which would fill a lane's title;
/// the whole id stays in each message's headers).
pub(super) fn title(source: &str, id: &str) -> String {
    if id.chars().count() <= 12 {
        return format!("{source} · {id}");
    }
    let head: String = id.chars().take(8).collect();
    format!("{source} · {head}…")
}

/// The session an entry's HTTP headers name.
fn named(entry: &Entry) -> Option<String> {
    entry
        .http
        .as_ref()?
        .headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("mcp-session-id"))
        .map(|(_, value)| value.clone())
}

/// `entries` split by session: each group's session (`None` for a
/// transcript of one session or none, kept whole) and its entries, in
/// their order. An entry that names none (the `initialize` that opens a
/// session) belongs to the session its answer names, else to the one
/// before it.
pub(super) fn split(entries: Vec<Entry>) -> Vec<(Option<String>, Vec<Entry>)> {
    let mut keys: Vec<Option<String>> = entries.iter().map(named).collect();
    let mut order: Vec<String> = Vec::new();
    for key in keys.iter().flatten() {
        if !order.contains(key) {
            order.push(key.clone());
        }
    }
    if order.len() < 2 {
        return vec![(None, entries)];
    }
    let ids: Vec<Option<Value>> = entries
        .iter()
        .map(|e| {
            serde_json::from_str::<Value>(&e.wire)
                .ok()
                .and_then(|v| v.get("id").cloned())
        })
        .collect();
    let answers: Vec<bool> = entries
        .iter()
        .map(|e| {
            serde_json::from_str::<Value>(&e.wire)
                .ok()
                .is_some_and(|v| v.get("result").is_some() || v.get("error").is_some())
        })
        .collect();
    for i in 0..keys.len() {
        if keys[i].is_some() {
            continue;
        }
        let answered = ids[i].as_ref().and_then(|id| {
            (i + 1..keys.len())
                .find(|&j| answers[j] && ids[j].as_ref() == Some(id))
                .and_then(|j| keys[j].clone())
        });
        let before = (0..i).rev().find_map(|j| keys[j].clone());
        keys[i] = answered.or(before).or_else(|| order.first().cloned());
    }
    // The order the sessions begin in, now that each entry has one.
    let mut begun: Vec<String> = Vec::new();
    for key in keys.iter().flatten() {
        if !begun.contains(key) {
            begun.push(key.clone());
        }
    }
    let mut groups: Vec<(Option<String>, Vec<Entry>)> = begun
        .iter()
        .map(|k| (Some(k.clone()), Vec::new()))
        .collect();
    for (entry, key) in entries.into_iter().zip(keys) {
        let lane = begun
            .iter()
            .position(|k| Some(k) == key.as_ref())
            .unwrap_or(0);
        groups[lane].1.push(entry);
    }
    groups
}
