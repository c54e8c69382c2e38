//! Secrets out of what leaves the program: access and refresh tokens,
//! authorization codes, PKCE code verifiers, client secrets, passwords,
//! signed assertions (a client's JWT, a workload's, an ID-JAG), DPoP proofs
//! (RFC 9449: signed with the client's key) and private keys are replaced by [`REDACTED`] in exports, permalinks and recorded files,
//! unless the person asks to keep them. Three places hold them: an
//! `Authorization` (or cookie, API key) header's value, the parameters of a
//! query string or form body (`code=…`, `code_verifier=…`), and the members
//! of a JSON body (`"access_token": "…"`). What is redacted keeps its
//! shape: a header keeps its scheme (`Bearer [redacted]`), a parameter and
//! a member their names, so a reader still sees which step carried what.

use serde_json::Value;

use crate::sim::{EventKind, Timeline};

/// What a secret becomes.
pub const REDACTED: &str = "[redacted]";

/// Headers whose whole value is a credential (after a scheme word).
const HEADERS: &[&str] = &[
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
    "x-api-key",
    "api-key",
    "dpop",
];

/// JSON members and query or form parameters that hold a secret.
const MEMBERS: &[&str] = &[
    "access_token",
    "refresh_token",
    "id_token",
    "code_verifier",
    "client_secret",
    "password",
    "assertion",
    "client_assertion",
    "subject_token",
    "device_code",
    "private_key",
    "private_key_pem",
];

/// Query or form parameters that hold a secret beside [`MEMBERS`]: the
/// authorization code (a JSON member named `code` is left alone: JSON-RPC
/// errors and tool arguments use that name for other things).
const PARAMETERS: &[&str] = &["code"];

fn is_header(name: &str) -> bool {
    HEADERS.iter().any(|h| h.eq_ignore_ascii_case(name))
}

fn is_member(name: &str) -> bool {
    MEMBERS.iter().any(|m| m.eq_ignore_ascii_case(name))
}

fn is_parameter(name: &str) -> bool {
    is_member(name) || PARAMETERS.contains(&name)
}

/// A credential header's value: its scheme word kept (`Bearer`, `Basic`),
/// the rest redacted.
pub fn header_value(value: &str) -> String {
    match value.trim().split_once(' ') {
        Some((scheme, _)) if scheme.chars().all(|c| c.is_ascii_alphabetic()) => {
            format!("{scheme} {REDACTED}")
        }
        _ => REDACTED.to_string(),
    }
}

/// A header as it may be written: credentials redacted, others unchanged.
pub fn header(name: &str, value: &str) -> String {
    if is_header(name) {
        header_value(value)
    } else {
        params(value)
    }
}

/// The secret parameters of a query string, form body or URL redacted
/// (`code=abc&state=x` to `code=[redacted]&state=x`).
pub fn params(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut start = 0;
    let pair = |seg: &str, out: &mut String| match seg.split_once('=') {
        Some((name, value)) if !value.is_empty() && is_parameter(name) => {
            out.push_str(name);
            out.push('=');
            out.push_str(REDACTED);
        }
        _ => out.push_str(seg),
    };
    for (i, c) in text.char_indices() {
        if matches!(c, '?' | '&' | '#' | '"' | ',' | ';') || c.is_whitespace() {
            pair(&text[start..i], &mut out);
            out.push(c);
            start = i + c.len_utf8();
        }
    }
    pair(&text[start..], &mut out);
    out
}

/// A body as sent: JSON with its secret members redacted (written
/// compactly again only when something changed), else a form body's or
/// URL's secret parameters.
pub fn text(body: &str) -> String {
    let trimmed = body.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        if let Ok(mut v) = serde_json::from_str::<Value>(body) {
            if json(&mut v) {
                return v.to_string();
            }
            return body.to_string();
        }
    }
    if body.contains('=') {
        params(body)
    } else {
        body.to_string()
    }
}

/// Redacts a JSON document in place: secret members, credential headers
/// (as an object's members, `[name, value]` pairs or HAR's `{name,
/// value}`), and secret parameters or JSON inside any string. Returns
/// whether anything changed.
pub fn json(value: &mut Value) -> bool {
    match value {
        Value::Object(map) => {
            // HAR's `{name, value}`: a header, query or form parameter.
            let name = map.get("name").and_then(Value::as_str).unwrap_or_default();
            let (named_header, named_secret) = (is_header(name), is_parameter(name));
            let mut changed = false;
            for (key, v) in map.iter_mut() {
                if let Value::String(s) = v {
                    let new = if is_header(key) || (named_header && key == "value") {
                        header_value(s)
                    } else if !s.is_empty() && (is_member(key) || (named_secret && key == "value"))
                    {
                        REDACTED.to_string()
                    } else {
                        text(s)
                    };
                    if new != *s {
                        *s = new;
                        changed = true;
                    }
                } else {
                    changed |= json(v);
                }
            }
            changed
        }
        Value::Array(items) => {
            if let [Value::String(name), Value::String(v)] = items.as_mut_slice() {
                if is_header(name) {
                    let new = header_value(v);
                    let changed = new != *v;
                    *v = new;
                    return changed;
                }
            }
            items.iter_mut().fold(false, |c, v| json(v) | c)
        }
        Value::String(s) => {
            let new = text(s);
            let changed = new != *s;
            *s = new;
            changed
        }
        _ => false,
    }
}

/// A timeline with every message's secrets redacted: its wire text, its
/// parsed JSON and its HTTP headers.
pub fn timeline(timeline: &Timeline) -> Timeline {
    let mut t = timeline.clone();
    for event in &mut t.events {
        if let EventKind::Message(m) = &mut event.kind {
            m.wire = text(&m.wire);
            if let Some(v) = m.json.as_mut() {
                json(v);
            }
            if let Some(http) = m.http.as_mut() {
                for (name, value) in &mut http.headers {
                    *value = header(name, value);
                }
            }
        }
    }
    t
}

/// [`timeline`] for each, unless `keep` (the person asked to keep them).
pub fn timelines(timelines: &[Timeline], keep: bool) -> Vec<Timeline> {
    if keep {
        timelines.to_vec()
    } else {
        timelines.iter().map(timeline).collect()
    }
}

/// A permalink's state with the editor's secrets redacted: its headers'
/// credentials, and tokens or codes in its request text or target.
pub fn share_state(state: &crate::share::ShareState) -> crate::share::ShareState {
    let mut s = state.clone();
    if let Some(e) = s.editor.as_mut() {
        e.text = text(&e.text);
        e.target = params(&e.target);
        for (name, value) in &mut e.headers {
            *value = header(name, value);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn headers_keep_their_scheme() {
        assert_eq!(
            header("Authorization", "Bearer abc.def"),
            "Bearer [redacted]"
        );
        assert_eq!(header("x-api-key", "k123"), "[redacted]");
        // A DPoP-bound token keeps its scheme; the proof is gone whole.
        assert_eq!(header("Authorization", "DPoP eyJ.x.y"), "DPoP [redacted]");
        assert_eq!(header("DPoP", "eyJh.eyJq.sig"), "[redacted]");
        assert_eq!(header("DPoP-Nonce", "n-1"), "n-1");
        assert_eq!(
            header("content-type", "application/json"),
            "application/json"
        );
    }

    #[test]
    fn parameters_keep_their_names() {
        assert_eq!(
            params("/cb?code=abc&iss=https%3A%2F%2Fa"),
            "/cb?code=[redacted]&iss=https%3A%2F%2Fa"
        );
        assert_eq!(
            params("grant_type=authorization_code&code=c-1&code_verifier=v&resource=r"),
            "grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]&resource=r"
        );
        assert_eq!(
            params("grant_type=client_credentials&client_assertion_type=t&client_assertion=h.c.s"),
            "grant_type=client_credentials&client_assertion_type=t&client_assertion=[redacted]"
        );
        assert_eq!(
            params("grant_type=g&assertion=a.b.c&subject_token=i.d.t&subject_token_type=id"),
            "grant_type=g&assertion=[redacted]&subject_token=[redacted]&subject_token_type=id"
        );
        assert_eq!(
            params("code_challenge=x&scope=a"),
            "code_challenge=x&scope=a"
        );
    }

    #[test]
    fn json_members_pairs_and_har_headers() {
        let mut v = json!({
            "access_token": "t", "refresh_token": "r", "token_type": "Bearer",
            "private_key_pem": "-----BEGIN PRIVATE KEY-----", "signing_algorithm": "ES256",
            "error": {"code": -32602},
            "headers": [["authorization", "Bearer t"], ["accept", "x"]],
            "har": [{"name": "Authorization", "value": "Bearer t"}],
            "http": {"headers": {"authorization": "Bearer t"}},
            "arguments": {"code": "fn main() {}"}
        });
        assert!(json(&mut v));
        assert_eq!(
            v,
            json!({
                "access_token": REDACTED, "refresh_token": REDACTED, "token_type": "Bearer",
                "private_key_pem": REDACTED, "signing_algorithm": "ES256",
                "error": {"code": -32602},
                "headers": [["authorization", "Bearer [redacted]"], ["accept", "x"]],
                "har": [{"name": "Authorization", "value": "Bearer [redacted]"}],
                "http": {"headers": {"authorization": "Bearer [redacted]"}},
                "arguments": {"code": "fn main() {}"}
            })
        );
        let mut clean = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
        assert!(!json(&mut clean));
    }
}
