//! The wire forms of the flow's requests: form bodies and queries (with
//! [`crate::auth::form`], the lab's encoding), and reading a JSON document
//! from an answer.

use serde_json::{Map, Value};

use super::Call;
use crate::check::protection::Answer;

pub use crate::auth::form::encode;

/// The query parameters of a URL, decoded (the shared reader,
/// [`crate::auth::form::parse`]).
pub fn query(url: &str) -> Vec<(String, String)> {
    let Some((_, q)) = url.split_once('?') else {
        return Vec::new();
    };
    crate::auth::form::parse(q.split('#').next().unwrap_or_default())
}

pub(super) fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

pub(super) fn get(url: &str) -> Call {
    Call {
        method: "GET".into(),
        url: url.into(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: String::new(),
        dpop: None,
    }
}

pub(super) fn document(answer: &Result<Answer, String>) -> Option<Map<String, Value>> {
    let answer = answer.as_ref().ok()?;
    if !(200..300).contains(&answer.status) {
        return None;
    }
    match serde_json::from_str::<Value>(&answer.body).ok()? {
        Value::Object(map) => Some(map),
        _ => None,
    }
}

pub(super) fn text<'a>(doc: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    doc.get(key).and_then(Value::as_str)
}

pub(super) fn strings(doc: &Map<String, Value>, key: &str) -> Vec<String> {
    doc.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}
