//! S-SCHEMA: every message the server sent, validated against the official
//! JSON Schema of the revision it speaks (`spec/<revision>/schema.json`,
//! embedded at build time), the way the core's schema tests validate the
//! simulator's messages: a request or notification against the
//! definitions whose `method` is its method; a result against the
//! revision's result envelope and the result type of the request it
//! answers (`InputRequiredResult` for `input_required`); an error against
//! the error envelope and its code's definition where the revision has
//! one. Behind the `schema` feature: the CLI links it, and the page runs it
//! in a worker of its own (the validator is too big for the page's
//! bundles).

use std::collections::HashMap;

use super::{Outcome, Verdict};
use crate::protocol::methods;
use crate::rules;
use crate::sim::{Side, Timeline};
use jsonschema::{Draft, Validator};
use serde_json::{json, Map, Value};

/// The official schemas, by revision.
const SCHEMAS: &[(&str, &str)] = &[
    (
        "2024-11-05",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spec/2024-11-05/schema.json"
        )),
    ),
    (
        "2025-03-26",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spec/2025-03-26/schema.json"
        )),
    ),
    (
        "2025-06-18",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spec/2025-06-18/schema.json"
        )),
    ),
    (
        "2025-11-25",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spec/2025-11-25/schema.json"
        )),
    ),
    (
        "2026-07-28",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spec/2026-07-28/schema.json"
        )),
    ),
];

/// The result type of a client request, as its row in `METHODS` names it
/// (a server's results answer the client's requests).
fn result_type_for(method: &str) -> Option<&'static str> {
    methods::find(method)
        .filter(|m| m.from == methods::Sender::Client)
        .and_then(|m| m.result_schema)
}

/// One revision's definitions and compiled validators.
struct Revision {
    draft: Draft,
    meta_schema: String,
    defs_key: &'static str,
    defs: Map<String, Value>,
    cache: HashMap<String, Option<Validator>>,
}

impl Revision {
    fn load(text: &str) -> Option<Revision> {
        let root: Value = serde_json::from_str(text).ok()?;
        let meta_schema = root.get("$schema")?.as_str()?.to_string();
        let (draft, defs_key) = if meta_schema.contains("draft-07") {
            (Draft::Draft7, "definitions")
        } else {
            (Draft::Draft202012, "$defs")
        };
        Some(Revision {
            draft,
            meta_schema,
            defs_key,
            defs: root.get(defs_key)?.as_object()?.clone(),
            cache: HashMap::new(),
        })
    }

    /// The errors of `instance` against definition `def`, one line each.
    fn errors(&mut self, def: &str, instance: &Value) -> Vec<String> {
        if !self.cache.contains_key(def) {
            let validator = self.defs.contains_key(def).then(|| {
                let mut schema = Map::new();
                schema.insert("$schema".into(), json!(self.meta_schema));
                schema.insert("$ref".into(), json!(format!("#/{}/{def}", self.defs_key)));
                schema.insert(self.defs_key.into(), Value::Object(self.defs.clone()));
                jsonschema::options()
                    .with_draft(self.draft)
                    .build(&Value::Object(schema))
                    .ok()
            });
            self.cache.insert(def.to_string(), validator.flatten());
        }
        match self.cache.get(def) {
            Some(Some(validator)) => validator
                .iter_errors(instance)
                .take(3)
                .map(|e| {
                    let path = e.instance_path().to_string();
                    let at = if path.is_empty() { "/".into() } else { path };
                    format!("{at}: {e}")
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn has(&self, def: &str) -> bool {
        self.defs.contains_key(def)
    }

    /// The definitions whose `method` is the constant `method`.
    fn defs_for_method(&self, method: &str) -> Vec<String> {
        let mut found: Vec<String> = self
            .defs
            .iter()
            .filter(|(_, d)| d.pointer("/properties/method/const") == Some(&json!(method)))
            .map(|(k, _)| k.clone())
            .collect();
        if found.len() > 1 {
            found.retain(|k| {
                !matches!(
                    k.as_str(),
                    "ClientNotification" | "ServerNotification" | "ClientRequest" | "ServerRequest"
                )
            });
        }
        found
    }

    /// The definition for an error code: `(name, whole_response)`.
    fn def_for_error_code(&self, code: i64) -> Option<(String, bool)> {
        crate::protocol::schema_defs::error_code_definition(&self.defs, code)
    }

    /// What is wrong with one server message (`origin`: the method of the
    /// request it answers), as `definition: error` lines; empty when valid.
    fn check(&mut self, message: &Value, origin: Option<&str>) -> Vec<String> {
        let mut out = Vec::new();
        let mut against = |rev: &mut Revision, def: &str, instance: &Value| {
            for e in rev.errors(def, instance) {
                out.push(format!("{def} {e}"));
            }
        };
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            let defs = self.defs_for_method(method);
            if defs.is_empty() {
                let generic = if message.get("id").is_some() {
                    "JSONRPCRequest"
                } else {
                    "JSONRPCNotification"
                };
                against(self, generic, message);
            }
            for def in defs {
                against(self, &def, message);
            }
        } else if let Some(result) = message.get("result") {
            let envelope = if self.has("JSONRPCResultResponse") {
                "JSONRPCResultResponse"
            } else {
                "JSONRPCResponse"
            };
            against(self, envelope, message);
            let input_required =
                result.get("resultType").and_then(Value::as_str) == Some("input_required");
            let def = if input_required {
                Some("InputRequiredResult")
            } else {
                origin.and_then(result_type_for)
            };
            if let Some(def) = def.filter(|d| self.has(d)) {
                against(self, def, result);
            }
        } else if let Some(error) = message.get("error") {
            let envelope = if self.has("JSONRPCErrorResponse") {
                "JSONRPCErrorResponse"
            } else {
                "JSONRPCError"
            };
            against(self, envelope, message);
            if let Some(code) = error.get("code").and_then(Value::as_i64) {
                if let Some((def, whole)) = self.def_for_error_code(code) {
                    against(self, &def, if whole { message } else { error });
                }
            }
        } else {
            out.push("neither method, result nor error".into());
        }
        out
    }
}

/// One S-SCHEMA verdict per JSON-RPC message the server sent: pass when it
/// validates against its revision's schema, fail with the first errors
/// otherwise, n/a (one, run-wide) when there was no such message or its
/// revision has no schema here.
pub fn verdicts(timeline: &Timeline) -> Vec<Verdict> {
    let mut revisions: HashMap<&str, Option<Revision>> = HashMap::new();
    let mut origins: Vec<(Value, String)> = Vec::new();
    let mut out = Vec::new();
    // What the client sent: a message sent back unchanged is an echo, not
    // the server's own (S-ANSWER says so), and is not judged here.
    let mut sent: Vec<&str> = Vec::new();
    // Whether the client's last message was JSON-RPC: an HTTP exchange that
    // is not (an OAuth metadata document fetched, a token request) has no
    // MCP schema to be judged by.
    let mut asked_json_rpc = true;
    let json_rpc =
        |body: Option<&Value>| body.is_some_and(|b| b.is_array() || b.get("jsonrpc").is_some());
    for (event, message) in timeline.messages() {
        // Whose message an undecided one is, and so what it answers, is
        // not known: no schema to judge it by.
        if message.undecided.is_some() {
            continue;
        }
        // A hop to or from an authorization server is not an MCP message;
        // one through a gateway is (G-FORWARD).
        if !message.carries_mcp() {
            continue;
        }
        if message.from == Side::Client {
            sent.push(&message.wire);
            asked_json_rpc = json_rpc(message.json.as_ref());
        } else if sent.contains(&message.wire.as_str())
            || (!asked_json_rpc && !json_rpc(message.json.as_ref()))
        {
            continue;
        }
        let Some(body) = message.json.as_ref() else {
            continue;
        };
        let method = body.get("method").and_then(Value::as_str);
        if message.from == Side::Client {
            if let (Some(method), Some(id)) = (method, body.get("id")) {
                origins.push((id.clone(), method.to_string()));
            }
            continue;
        }
        let origin = body.get("id").and_then(|id| {
            origins
                .iter()
                .rev()
                .find(|(i, _)| i == id)
                .map(|(_, m)| m.as_str())
        });
        let rev = SCHEMAS
            .iter()
            .find(|(r, _)| *r == message.revision)
            .map(|(r, text)| (*r, *text));
        let Some((name, text)) = rev else {
            continue;
        };
        let Some(revision) = revisions
            .entry(name)
            .or_insert_with(|| Revision::load(text))
            .as_mut()
        else {
            continue;
        };
        let errors = revision.check(body, origin);
        // Keyed notes: the page says them in its language. The validator's
        // own messages are data (its words, like a server's).
        let expected = match (method, origin) {
            (Some(method), _) => crate::note!(
                "check.schema_valid_method",
                "{method} valid against the {schema} schema",
                method = method,
                schema = name
            ),
            (None, Some(origin)) => crate::note!(
                "check.schema_valid_answer",
                "the answer to {method} valid against the {schema} schema",
                method = origin,
                schema = name
            ),
            (None, None) => crate::note!(
                "check.schema_valid_response",
                "a response valid against the {schema} schema",
                schema = name
            ),
        };
        let got = if errors.is_empty() {
            crate::note!("check.schema_valid", "valid")
        } else {
            crate::note!(
                "check.schema_errors",
                "{errors}",
                errors = errors.join("; ")
            )
        };
        out.push(Verdict::judge(
            rules::S_SCHEMA,
            errors.is_empty(),
            expected,
            got,
            event.index,
        ));
    }
    if out.is_empty() {
        out.push(Verdict::new(
            rules::S_SCHEMA,
            Outcome::NotApplicable,
            crate::note!(
                "check.schema_every_message",
                "every server message valid against its revision's schema"
            ),
            crate::note!(
                "check.schema_nothing_to_validate",
                "no JSON-RPC message from the server to validate"
            ),
            None,
        ));
    }
    out
}
