//! The wire forms of the flow's requests: form and query encoding, query
//! parsing, and reading a JSON document from an answer.

use serde_json::{Map, Value};

use super::Call;
use crate::check::protection::Answer;

/// `application/x-www-form-urlencoded` (and query) encoding of one value.
pub fn encode(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub(super) fn decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The query parameters of a URL, decoded.
pub fn query(url: &str) -> Vec<(String, String)> {
    let Some((_, q)) = url.split_once('?') else {
        return Vec::new();
    };
    let q = q.split('#').next().unwrap_or_default();
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
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
