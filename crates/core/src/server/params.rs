#![allow(clippy::result_large_err)] // a Refusal is built once per refused request
//! `Mcp-Param-*` headers (SEP-2243, H-PARAM-HEADERS): a tool argument whose
//! schema property carries `x-mcp-header: NAME` is mirrored by the client in
//! the header `Mcp-Param-NAME`, so routers can act on it without reading the
//! body. The server checks that every such header agrees with the body.

use serde_json::Value;

use super::{Fault, Refusal, ServerConfig};
use crate::note::Note;
use crate::rules;
use crate::transport::http::{self, HttpRequest};

/// Prefix of the mirrored-argument headers.
pub const PARAM_HEADER_PREFIX: &str = "Mcp-Param-";

/// The `(header name, property, type)` of every valid `x-mcp-header`
/// annotation among the top-level properties of `schema`.
pub(crate) fn annotated(schema: &Value) -> Vec<(String, String, String)> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    props
        .iter()
        .filter_map(|(prop, def)| {
            let header = def.get("x-mcp-header")?.as_str()?;
            let kind = def.get("type")?.as_str()?;
            let valid = !header.is_empty()
                && header
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                && matches!(kind, "string" | "integer" | "boolean");
            valid.then(|| (header.to_string(), prop.clone(), kind.to_string()))
        })
        .collect()
}

/// Whether the decoded header text `text` stands for `value`.
fn agrees(text: &str, value: &Value) -> bool {
    match value {
        Value::String(s) => s == text,
        Value::Bool(b) => text == if *b { "true" } else { "false" },
        Value::Number(n) => match (n.as_f64(), text.parse::<f64>()) {
            (Some(a), Ok(b)) => a == b,
            _ => false,
        },
        _ => false,
    }
}

fn refusal(message: String, note: Note) -> Refusal {
    Refusal::new(
        Fault::HeaderMismatch,
        message,
        &[rules::H_PARAM_HEADERS, rules::H_HEADERS, rules::H_STATUS],
        note,
    )
}

/// Checks the `Mcp-Param-*` headers of a `tools/call` against its arguments.
pub(crate) fn check(
    config: &ServerConfig,
    req: &HttpRequest,
    params: &Value,
) -> Result<(), Refusal> {
    let name = params.get("name").and_then(Value::as_str).unwrap_or("");
    let Some(tool) = config.tool(name) else {
        return Ok(());
    };
    let arguments = params.get("arguments");
    for (header, prop, _) in annotated(&tool.input_schema) {
        let full = format!("{PARAM_HEADER_PREFIX}{header}");
        let value = arguments
            .and_then(|a| a.get(&prop))
            .filter(|v| !v.is_null());
        match (req.header(&full), value) {
            (None, None) => {}
            (None, Some(_)) => {
                return Err(refusal(
                    format!("Header mismatch: required header {full} is missing"),
                    crate::note!("server.params.s_argument_marked_x", "{name}'s argument {prop} is marked x-mcp-header {header}, so the request must mirror it in {full}: 400 with -32020.", name = name, prop = prop, header = header, full = full),
                ))
            }
            (Some(_), None) => {
                return Err(refusal(
                    format!("Header mismatch: {full} is present but the argument {prop} is not"),
                    crate::note!("server.params.mirrors_argument_body_does", "{full} mirrors an argument the body does not have: the two disagree, 400 with -32020.", full = full),
                ))
            }
            (Some(raw), Some(value)) => {
                let Some(text) = http::decode_header_value(raw) else {
                    return Err(refusal(
                        format!("Header mismatch: {full} value '{raw}' is not valid base64 sentinel encoding"),
                        crate::note!("server.params.base64_value_must_canonical", "An =?base64?…?= value must be canonical, padded base64 of UTF-8 text."),
                    ));
                };
                if !agrees(&text, value) {
                    return Err(refusal(
                        format!("Header mismatch: {full} header value '{text}' does not match body value '{value}'"),
                        crate::note!("server.params.after_decoding_must_stand", "{full} (after decoding) must stand for the same value as arguments.{prop}: 400 with -32020.", full = full, prop = prop),
                    ));
                }
            }
        }
    }
    Ok(())
}
