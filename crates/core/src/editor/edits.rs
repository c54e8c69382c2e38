//! Edits of the request text that the UI offers as buttons: capability and
//! version toggles, the headers a conforming client would send, the MRTR
//! "answer and retry" builder and the answer to a server's own request.

use serde_json::{json, Map, Value};

use super::{parse, pretty};
use crate::protocol::{elicitation, meta, methods, ClientCapabilities, ResultType};
use crate::settings::Capability;
use crate::transport::http::{self};

/// Turns a declared client capability on or off in a request's `_meta`
/// (modern) or `params.capabilities` (legacy initialize).
pub fn set_capability(text: &str, cap: Capability, on: bool) -> Result<String, String> {
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| format!("fix the JSON first: {e}"))?;
    let target = caps_slot(&mut value).ok_or(
        "this request has no _meta clientCapabilities (nor initialize capabilities) to change",
    )?;
    let mut caps = ClientCapabilities::from_json(target);
    crate::settings::set_capability_in(&mut caps, cap, on);
    *target = caps.to_json();
    Ok(pretty(&value))
}

/// Which capabilities the request currently declares.
pub fn declared(text: &str) -> Vec<Capability> {
    serde_json::from_str::<Value>(text)
        .map(|v| declared_in(&v))
        .unwrap_or_default()
}

pub(super) fn is_initialize(value: &Value) -> bool {
    value.get("method").and_then(Value::as_str) == Some(methods::INITIALIZE)
}

pub(super) fn declared_in(value: &Value) -> Vec<Capability> {
    let params = value.get("params");
    let slot = if is_initialize(value) {
        params.and_then(|p| p.get("capabilities"))
    } else {
        params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta::CLIENT_CAPABILITIES))
    };
    let Some(slot) = slot else {
        return Vec::new();
    };
    let caps = ClientCapabilities::from_json(slot);
    Capability::ALL
        .into_iter()
        .filter(|c| crate::settings::has_capability(&caps, *c))
        .collect()
}

/// The version a request names, where [`set_version`] puts it.
pub(super) fn version_in(value: &Value) -> Option<String> {
    let params = value.get("params")?;
    let version = if is_initialize(value) {
        params.get("protocolVersion")
    } else {
        params.get("_meta")?.get(meta::PROTOCOL_VERSION)
    };
    version.and_then(Value::as_str).map(str::to_string)
}

pub(super) fn caps_slot(value: &mut Value) -> Option<&mut Value> {
    let is_init = is_initialize(value);
    let params = value.get_mut("params")?.as_object_mut()?;
    if is_init {
        return Some(params.entry("capabilities").or_insert_with(|| json!({})));
    }
    let meta = params.get_mut("_meta")?.as_object_mut()?;
    Some(
        meta.entry(meta::CLIENT_CAPABILITIES)
            .or_insert_with(|| json!({})),
    )
}

/// Switches the protocol version a request names (modern `_meta` or legacy
/// initialize params), without retyping.
pub fn set_version(text: &str, version: &str) -> Result<String, String> {
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| format!("fix the JSON first: {e}"))?;
    let is_init = is_initialize(&value);
    let params = value
        .get_mut("params")
        .and_then(Value::as_object_mut)
        .ok_or("this request has no params object")?;
    if is_init {
        params.insert("protocolVersion".into(), json!(version));
    } else {
        let meta_obj = params.entry("_meta").or_insert_with(|| json!({}));
        let meta_obj = meta_obj
            .as_object_mut()
            .ok_or("params._meta is not an object")?;
        meta_obj.insert(meta::PROTOCOL_VERSION.into(), json!(version));
    }
    Ok(pretty(&value))
}

/// The HTTP headers a conforming client would send with this body.
pub fn headers_for(text: &str) -> Vec<(String, String)> {
    match serde_json::from_str::<Value>(text) {
        Ok(value) if value.get("params").and_then(|p| p.get("_meta")).is_some() => {
            http::modern_headers(&value)
        }
        Ok(value) => {
            let mut headers = http::legacy_headers(None, None);
            if let Some(m) = value.get("method").and_then(Value::as_str) {
                headers.push((http::METHOD_HEADER.into(), m.into()));
            }
            headers
        }
        Err(_) => http::legacy_headers(None, None),
    }
}

/// Builds the MRTR retry for an `input_required` reply: same request, a new
/// id, `inputResponses` answering every input request (as an accepting
/// user would) and `requestState` echoed unchanged (M-MRTR).
pub fn answer_and_retry(request_text: &str, reply: &Value, new_id: i64) -> Result<String, String> {
    let mut request: Value =
        serde_json::from_str(request_text).map_err(|e| format!("the request is not JSON: {e}"))?;
    let result = reply.get("result").ok_or("the reply is not a result")?;
    if !ResultType::INPUT_REQUIRED.is_of(result) {
        return Err("the reply is not input_required".into());
    }
    let requests = result
        .get("inputRequests")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut responses = Map::new();
    for (key, input) in &requests {
        let schema = input.get("params").and_then(|p| p.get("requestedSchema"));
        responses.insert(key.clone(), elicitation::accept_with_defaults(schema));
    }
    let params = request
        .get_mut("params")
        .and_then(Value::as_object_mut)
        .ok_or("the request has no params")?;
    params.insert("inputResponses".into(), Value::Object(responses));
    match result.get("requestState") {
        Some(state) => params.insert("requestState".into(), state.clone()),
        None => params.remove("requestState"),
    };
    request["id"] = json!(new_id);
    Ok(pretty(&request))
}

/// The JSON-RPC response a person sends back to a request the server sent
/// on its own while handling theirs (a legacy `elicitation/create`), ready
/// to edit: the same id and an accepting answer with a value for every
/// requested field. Any other server request gets the -32601 a client that
/// does not implement it answers (L-UNDECLARED). `None` when `message` is
/// not a request.
pub fn answer_server_request(message: &Value) -> Option<String> {
    let id = message.get("id").filter(|id| !id.is_null())?;
    let method = message.get("method").and_then(Value::as_str)?;
    let mut reply = Map::new();
    reply.insert("jsonrpc".into(), Value::from("2.0"));
    reply.insert("id".into(), id.clone());
    if method == methods::ELICITATION_CREATE {
        let schema = message.get("params").and_then(|p| p.get("requestedSchema"));
        reply.insert("result".into(), elicitation::accept_with_defaults(schema));
    } else {
        reply.insert(
            "error".into(),
            parse(r#"{"code":-32601,"message":"Method not found"}"#),
        );
    }
    Some(pretty(&Value::Object(reply)))
}

/// Valid JSON text without the whitespace between its tokens: one line, as
/// a client writes a message on stdio, without re-serialising it.
pub(super) fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c.is_ascii_whitespace() {
            continue;
        }
        out.push(c);
    }
    out
}

/// `text` with the id of the request it holds replaced by `id`, the rest
/// as written (spacing, key order, other values): the "bump the id after
/// each Send" option. `None` when the text is not a JSON-RPC request
/// (no method, no id, not JSON).
pub fn with_id(text: &str, id: i64) -> Option<String> {
    if text.len() > super::MAX_REQUEST_BYTES {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    value.get("method")?;
    value.get("id")?;
    let (start, end) = top_level_value(text, "id")?;
    Some(format!("{}{id}{}", &text[..start], &text[end..]))
}

/// The byte span of the value of member `key` of the top-level object in
/// valid JSON `text` (the first such member).
fn top_level_value(text: &str, key: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let string_end = |from: usize| -> Option<usize> {
        // `from` is an opening quote: the index after the closing one.
        let mut i = from + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'"' => return Some(i + 1),
                _ => i += 1,
            }
        }
        None
    };
    let skip_ws = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'"' => {
                let end = string_end(i)?;
                let after = skip_ws(end);
                if depth == 1 && bytes.get(after) == Some(&b':') && &text[i + 1..end - 1] == key {
                    let start = skip_ws(after + 1);
                    let stop = if bytes.get(start) == Some(&b'"') {
                        string_end(start)?
                    } else {
                        let mut j = start;
                        while j < bytes.len()
                            && !matches!(bytes[j], b',' | b'}' | b']')
                            && !bytes[j].is_ascii_whitespace()
                        {
                            j += 1;
                        }
                        j
                    };
                    return Some((start, stop));
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    None
}
