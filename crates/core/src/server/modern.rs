#![allow(clippy::result_large_err)] // Refusal is built once per refused request
//! The modern era (2026-07-28): every request decided from itself alone.

use serde_json::{json, Map, Value};

use super::{ConnId, Fault, Refusal, Reply, Server};
use crate::note::Note;
use crate::protocol::jsonrpc::{self, RequestId};
use crate::protocol::{meta, methods, shape, ClientCapabilities, Era, ProtocolVersion, ResultType};
use crate::rules::{self, RuleId};
use crate::transport::http::{self, HttpRequest};

/// The `uri` of resources/read params, shape-checked.
fn read_uri(params: &Value) -> Result<String, String> {
    shape::check(params, "params", shape::URI_PARAMS).map_err(|e| e.to_string())?;
    Ok(params
        .get("uri")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string())
}

impl Server {
    pub(super) fn modern_refuses_initialize(
        &self,
        id: RequestId,
        params: &Value,
        http: Option<&HttpRequest>,
    ) -> Reply {
        let requested = params
            .get("protocolVersion")
            .and_then(Value::as_str)
            .unwrap_or("(none)")
            .to_string();
        let supported = self.config.modern_versions.clone();
        // On HTTP a legacy initialize lacks the required headers, so server
        // validation rejects it first (400, -32020), still naming the versions.
        if let Some(req) = http {
            if let Err(mut refusal) = check_method_header(req, methods::INITIALIZE) {
                refusal.message = format!(
                    "{}. This server speaks only the modern protocol ({}); it has no initialize handshake.",
                    refusal.message,
                    supported.join(", ")
                );
                refusal
                    .rules
                    .extend([rules::M_INIT_ON_MODERN, rules::E_MATRIX]);
                refusal.note = crate::note!("modern.legacy_client_s_post", "A legacy client's POST lacks the headers every modern request carries: 400 HeaderMismatch, naming the supported versions since a legacy client has no other diagnostic.");
                let refusal = refusal.data(json!({"supported": supported, "requested": requested}));
                return self.refuse(Some(&id), refusal, ProtocolVersion::modern());
            }
        }
        let refusal = Refusal::new(Fault::UnknownMethod,
            format!(
                "Method not found: initialize. This server speaks only the modern protocol ({}); it has no initialize handshake.",
                supported.join(", ")
            ),
            &[rules::M_UNKNOWN_METHOD, rules::M_INIT_ON_MODERN, rules::E_MATRIX, rules::H_STATUS],
            crate::note!("modern.modern_only_server_has", "A modern-only server has no initialize, and names the versions it supports: a legacy client has no other diagnostic to show."),
        )
        .data(json!({"supported": supported, "requested": requested}));
        self.refuse(Some(&id), refusal, ProtocolVersion::modern())
    }

    pub(super) fn modern_request(
        &mut self,
        conn: &ConnId,
        id: RequestId,
        method: &str,
        params: &Value,
        http: Option<&HttpRequest>,
    ) -> Option<Reply> {
        let checked = self.modern_checks(method, params, http);
        // subscriptions/listen answers with a stream, not a result
        // (M-LISTEN-ACK): the acknowledgement is an output, and on HTTP
        // the response stays open.
        if method == methods::SUBSCRIPTIONS_LISTEN && checked.is_ok() && self.listens() {
            let over_http = http.is_some();
            self.opened_stream = self.listen(conn, &id, params, over_http);
            return None;
        }
        Some(match checked {
            Err(refusal) => self.refuse(Some(&id), refusal, ProtocolVersion::modern()),
            Ok(caps) => match self.modern_dispatch(conn, method, params, &caps) {
                Ok((mut result, rules, note)) => {
                    if let Value::Object(result) = &mut result {
                        self.finish(result, method);
                    }
                    Reply {
                        message: jsonrpc::result(&id, result),
                        status: 200,
                        rules,
                        note,
                        revision: ProtocolVersion::modern(),
                        headers: Vec::new(),
                    }
                }
                Err(refusal) => self.refuse(Some(&id), refusal, ProtocolVersion::modern()),
            },
        })
    }

    /// Whether this server has anything a listen stream could hear.
    fn listens(&self) -> bool {
        let caps = &self.config.capabilities;
        let changed = crate::protocol::capabilities::ListCapability::announces_changes;
        changed(&caps.tools)
            || changed(&caps.prompts)
            || changed(&caps.resources)
            || caps
                .resources
                .as_ref()
                .and_then(|r| r.subscribe)
                .unwrap_or(false)
    }

    /// `_meta`, headers and version: the checks every modern request passes.
    fn modern_checks(
        &self,
        method: &str,
        params: &Value,
        http: Option<&HttpRequest>,
    ) -> Result<ClientCapabilities, Refusal> {
        let meta_obj = params.get("_meta").and_then(Value::as_object);
        if let Some(req) = http {
            // A request whose body names no version (legacy-shaped) is judged by
            // its header: a version this server does not implement is -32022, the
            // error a client whose cached era went stale can act on (E-CACHE).
            let body_pv = meta_obj.and_then(|m| m.get(meta::PROTOCOL_VERSION));
            if let (None, Some(header_pv)) = (body_pv, req.header(http::PROTOCOL_VERSION_HEADER)) {
                if !self.config.modern_versions.iter().any(|v| v == header_pv) {
                    return Err(self
                        .unsupported_version(header_pv, "The MCP-Protocol-Version header names"));
                }
            }
            check_method_header(req, method)?;
        }
        let Some(meta_obj) = meta_obj else {
            return Err(meta_refusal(if params.get("_meta").is_some() {
                "params._meta must be an object"
            } else {
                "params._meta is missing"
            }));
        };
        let pv = match meta_obj.get(meta::PROTOCOL_VERSION) {
            Some(Value::String(v)) => v.clone(),
            Some(_) => {
                return Err(meta_refusal(&format!(
                    "params._meta[\"{}\"] must be a string",
                    meta::PROTOCOL_VERSION
                )))
            }
            None => {
                return Err(meta_refusal(&format!(
                    "params._meta is missing \"{}\"",
                    meta::PROTOCOL_VERSION
                )))
            }
        };
        let caps = match meta_obj.get(meta::CLIENT_CAPABILITIES) {
            Some(v @ Value::Object(_)) => {
                let path = format!("params._meta[\"{}\"]", meta::CLIENT_CAPABILITIES);
                shape::check(v, &path, shape::CLIENT_CAPABILITIES).map_err(|e| {
                    meta_refusal(&format!(
                        "{} is not ClientCapabilities ({})",
                        e.path,
                        e.message.text()
                    ))
                })?;
                ClientCapabilities::from_json(v)
            }
            Some(_) => {
                return Err(meta_refusal(&format!(
                    "params._meta[\"{}\"] must be an object",
                    meta::CLIENT_CAPABILITIES
                )))
            }
            None => {
                return Err(meta_refusal(&format!(
                    "params._meta is missing \"{}\"",
                    meta::CLIENT_CAPABILITIES
                )))
            }
        };
        // logLevel names one of the eight syslog levels, or is refused
        // like any other malformed `_meta` (M-LOG-LEVEL).
        if let Some(level) = meta_obj.get(meta::LOG_LEVEL) {
            let known = level
                .as_str()
                .is_some_and(|l| super::tools::LOG_LEVELS.contains(&l));
            if !known {
                let levels = super::tools::LOG_LEVELS.join(", ");
                return Err(Refusal::new(Fault::MalformedMeta,
                    format!("Invalid params: params._meta[\"{}\"] must be one of {levels}, not {level}", meta::LOG_LEVEL),
                    &[rules::M_LOG_LEVEL, rules::H_STATUS],
                    crate::note!("modern.unknown_log_level", "The request asks for log messages at level {level}, which is not one of the eight syslog levels ({levels}): -32602, and nothing is done.", level = level, levels = levels)));
            }
        }
        if let Some(req) = http {
            check_version_and_name_headers(req, method, params, &pv)?;
            if method == methods::TOOLS_CALL {
                super::params::check(&self.config, req, params)?;
            }
        }
        if !self.config.modern_versions.contains(&pv) {
            return Err(self.unsupported_version(&pv, "The request names"));
        }
        Ok(caps)
    }

    fn unsupported_version(&self, requested: &str, what: &str) -> Refusal {
        // Only versions a modern request can name: listing legacy ones would
        // invite a retry that is refused again.
        let supported = self.config.modern_versions.clone();
        Refusal::new(Fault::UnsupportedVersion,
            "Unsupported protocol version",
            &[rules::M_VERSION, rules::E_TERMS, rules::H_STATUS],
            crate::note!("modern.which_server_does_not", "{what} {requested}, which this server does not implement for modern requests; data.supported lists the versions it does.", what = what, requested = requested),
        )
        .data(json!({"supported": supported, "requested": requested}))
    }

    fn modern_dispatch(
        &mut self,
        conn: &ConnId,
        method: &str,
        params: &Value,
        caps: &ClientCapabilities,
    ) -> Result<(Value, Vec<RuleId>, Note), Refusal> {
        let cfg = &self.config;
        // A method whose capability this server did not declare is one it
        // does not have: its row names the capability, the one a legacy
        // session needs too.
        let offered = methods::find(method).is_some_and(|m| {
            m.eras.has(Era::Modern)
                && m.legacy_needs
                    .capability()
                    .is_none_or(|c| cfg.capabilities.declares(c))
        });
        if !offered {
            return Err(unknown_method(method));
        }
        match method {
            methods::DISCOVER => {
                let mut result = ResultType::COMPLETE.start_result();
                let versions = cfg.modern_versions.clone();
                result.insert("supportedVersions".into(), json!(versions));
                result.insert("capabilities".into(), cfg.capabilities.to_json());
                if let Some(instructions) = &cfg.instructions {
                    result.insert("instructions".into(), json!(instructions));
                }
                Ok((Value::Object(result), vec![rules::M_DISCOVER, rules::M_CACHE_HINTS, rules::M_SINFO],
                    crate::note!("modern.server_discover_answers_one", "server/discover answers in one round trip: versions, capabilities, instructions, serverInfo and a cache hint of ttlMs {ttl_ms} ({cache_scope}).", ttl_ms = cfg.ttl_ms, cache_scope = cfg.cache_scope.as_str())))
            }
            methods::TOOLS_LIST => {
                let tools: Vec<Value> = cfg
                    .tools
                    .iter()
                    .filter(|t| self.sees(&t.name))
                    .map(tool_json)
                    .collect();
                let mut note = crate::note!(
                    "modern.tools_list_returns_cache",
                    "tools/list returns {tool} with cache hints.",
                    tool = super::tools_count(tools.len())
                );
                let mut rules = vec![rules::M_CACHE_HINTS, rules::M_RESULT_TYPE, rules::M_SINFO];
                if let Some((rule, hidden)) = self.hidden_from_list() {
                    rules.push(rule);
                    note.push(hidden);
                }
                self.modern_list(method, "tools", tools, params, &rules, note)
            }
            methods::TOOLS_CALL => self.modern_call(conn, params, caps),
            methods::PROMPTS_LIST => {
                let items = match super::prompts::list(cfg) {
                    Value::Array(items) => items,
                    _ => Vec::new(),
                };
                let note = crate::note!(
                    "modern.prompts_list_cache_hints",
                    "prompts/list with cache hints."
                );
                self.modern_list(
                    method,
                    "prompts",
                    items,
                    params,
                    &[rules::M_CACHE_HINTS, rules::M_SINFO],
                    note,
                )
            }
            methods::RESOURCES_LIST => {
                let items = match super::resources::list(cfg) {
                    Value::Array(items) => items,
                    _ => Vec::new(),
                };
                let note = crate::note!(
                    "modern.resources_list_cache_hints",
                    "resources/list with cache hints."
                );
                self.modern_list(
                    method,
                    "resources",
                    items,
                    params,
                    &[rules::M_CACHE_HINTS, rules::M_SINFO],
                    note,
                )
            }
            methods::RESOURCES_TEMPLATES_LIST => {
                let items = match super::resources::templates(cfg) {
                    Value::Array(items) => items,
                    _ => Vec::new(),
                };
                let note = crate::note!(
                    "modern.resources_templates_list_cache",
                    "resources/templates/list with cache hints."
                );
                self.modern_list(
                    method,
                    "resourceTemplates",
                    items,
                    params,
                    &[rules::M_CACHE_HINTS, rules::M_SINFO],
                    note,
                )
            }
            methods::RESOURCES_READ => {
                let uri = read_uri(params).map_err(invalid_params)?;
                let (contents, note) = super::resources::read(cfg, &uri)?;
                let mut result = ResultType::COMPLETE.start_result();
                result.insert("contents".into(), contents);
                Ok((
                    Value::Object(result),
                    vec![rules::M_CACHE_HINTS, rules::M_SINFO, rules::M_RESOURCES],
                    note,
                ))
            }
            methods::PROMPTS_GET => self.modern_prompt(params, caps),
            methods::COMPLETION_COMPLETE => {
                let (completion, note) = super::prompts::complete(cfg, params)?;
                let mut result = ResultType::COMPLETE.start_result();
                result.insert("completion".into(), completion);
                Ok((
                    Value::Object(result),
                    vec![rules::M_COMPLETION, rules::M_SINFO],
                    note,
                ))
            }
            other => Err(unknown_method(other)),
        }
    }

    /// A complete list result: the page of `items` the request asks for
    /// under `key` (M-PAGINATION), with `rules` and `note`.
    fn modern_list(
        &self,
        method: &str,
        key: &str,
        items: Vec<Value>,
        params: &Value,
        rules: &[RuleId],
        note: Note,
    ) -> Result<(Value, Vec<RuleId>, Note), Refusal> {
        let page = self.page(method, items, params)?;
        let mut rules = rules.to_vec();
        rules.extend(page.rules());
        let note = page.note(method, note);
        let mut result = ResultType::COMPLETE.start_result();
        page.put(&mut result, key);
        Ok((Value::Object(result), rules, note))
    }

    /// Lets go of `lock`, taken before a check that refused the call: the
    /// work was done for nothing (M-CAP-BEFORE-WORK).
    pub(super) fn release_after_refusal(&mut self, conn: &ConnId, lock: Option<&str>) {
        if let Some(lock) = lock {
            self.release(
                conn,
                lock,
                &[rules::M_CAP_BEFORE_WORK],
                crate::note!(
                    "modern.released_after_refusal_work",
                    "{lock} released after the refusal: work was done for nothing.",
                    lock = lock
                ),
            );
        }
    }

    fn modern_prompt(
        &mut self,
        params: &Value,
        caps: &ClientCapabilities,
    ) -> Result<(Value, Vec<RuleId>, Note), Refusal> {
        let (prompt, arguments) = super::prompts::find(&self.config, params)?;
        let prompt = prompt.clone();
        let mut answers = Map::new();
        if let Some(spec) = &prompt.mrtr {
            let args = Value::Object(arguments.clone());
            let target = super::mrtr::Target {
                method: methods::PROMPTS_GET,
                name: &prompt.name,
                arguments: &args,
            };
            match self.mrtr_step(
                spec,
                &target,
                params.get("inputResponses").and_then(Value::as_object),
                params.get("requestState").and_then(Value::as_str),
                caps,
            )? {
                super::mrtr::Outcome::Ask {
                    inputs,
                    state,
                    round,
                } => return Ok(self.input_required(&prompt.name, inputs, state, round)),
                super::mrtr::Outcome::Declined(key, action) => {
                    return Err(Refusal::new(Fault::InvalidParams, format!("Invalid params: the user answered \"{action}\" to {key}, so there is no prompt"),
                        &[rules::M_MRTR, rules::H_STATUS], crate::note!("modern.user_did_not_give", "The user did not give the input the prompt needs: no messages.")));
                }
                super::mrtr::Outcome::Done(done) => answers = done,
            }
        }
        let messages = super::prompts::messages(&prompt, &arguments);
        let messages = match messages {
            Value::Array(items) => {
                Value::Array(items.iter().map(|m| fill_in(m, &answers)).collect())
            }
            other => other,
        };
        let mut result = ResultType::COMPLETE.start_result();
        result.insert("description".into(), json!(prompt.description));
        result.insert("messages".into(), messages);
        Ok((
            Value::Object(result),
            vec![rules::M_PROMPTS, rules::M_RESULT_TYPE, rules::M_SINFO],
            crate::note!(
                "modern.prompts_get_returns_s",
                "prompts/get returns {prompt}'s messages, its arguments filled in.",
                prompt = prompt.name
            ),
        ))
    }

    /// Ends every modern result of `method` (M-SINFO, M-CACHE-HINTS):
    /// serverInfo, and the cache hints when the method's row in `METHODS`
    /// is cacheable and the result complete (an `input_required` result
    /// never carries them).
    fn finish(&self, result: &mut Map<String, Value>, method: &str) {
        let input_required = result.get(ResultType::KEY).and_then(Value::as_str)
            == Some(ResultType::INPUT_REQUIRED.as_str());
        if methods::is_cacheable(method) && !input_required {
            result.insert("ttlMs".into(), json!(self.config.ttl_ms));
            result.insert("cacheScope".into(), json!(self.config.cache_scope.as_str()));
        }
        result.insert(
            "_meta".into(),
            json!({meta::SERVER_INFO: self.config.info.to_json()}),
        );
    }
}

/// Fills MRTR answers into every string of a prompt message.
fn fill_in(value: &Value, answers: &Map<String, Value>) -> Value {
    match value {
        Value::String(s) => Value::String(super::mrtr::fill_answers(s, answers)),
        Value::Array(a) => Value::Array(a.iter().map(|v| fill_in(v, answers)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), fill_in(v, answers)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Key of the single input request the simulated tools make.
pub(crate) const INPUT_KEY: &str = "confirm";

fn tool_json(tool: &super::ToolSpec) -> Value {
    super::listing::tool(tool, ProtocolVersion::MODERN)
}

fn meta_refusal(what: &str) -> Refusal {
    Refusal::new(Fault::MalformedMeta, format!("Invalid params: {what}"), &[rules::M_META_REQUIRED, rules::H_STATUS],
        crate::note!("modern.modern_request_must_carry", "A modern request must carry params._meta with a protocolVersion string and a clientCapabilities object; here {what}.", what = what))
}

/// -32601 (404 on HTTP) for a method this server does not have, saying so
/// when it is one 2026-07-28 removed.
fn unknown_method(method: &str) -> Refusal {
    let note = if methods::removed_in_modern(method) {
        crate::note!("modern.was_removed_2026_07", "{other} was removed in 2026-07-28; to a modern request it is simply an unknown method.", other = method)
    } else {
        crate::note!(
            "modern.server_has_no_method",
            "This server has no method \"{other}\": -32601, and 404 on HTTP.",
            other = method
        )
    };
    Refusal::new(
        Fault::UnknownMethod,
        format!("Method not found: {method}"),
        &[rules::M_UNKNOWN_METHOD, rules::H_STATUS],
        note,
    )
}

pub(super) fn invalid_params(detail: String) -> Refusal {
    Refusal::new(
        Fault::InvalidParams,
        format!("Invalid params: {detail}"),
        &[rules::H_STATUS],
        crate::note!(
            "modern.params_do_not_have",
            "The params do not have the shape this method needs ({detail}): -32602.",
            detail = detail
        ),
    )
}

fn header_refusal(message: String, note: Note) -> Refusal {
    Refusal::new(
        Fault::HeaderMismatch,
        message,
        &[rules::H_HEADERS, rules::H_STATUS],
        note,
    )
}

fn check_method_header(req: &HttpRequest, method: &str) -> Result<(), Refusal> {
    match req.header(http::METHOD_HEADER) {
        None => Err(header_refusal("Header mismatch: required header Mcp-Method is missing".into(),
            crate::note!("modern.every_post_must_mirror", "Every POST must mirror its JSON-RPC method in Mcp-Method."))),
        Some(value) if value != method => Err(header_refusal(
            format!("Header mismatch: Mcp-Method header value '{value}' does not match body value '{method}'"),
            crate::note!("modern.mcp_method_header_disagrees", "The Mcp-Method header disagrees with the body's method; routers and the server would act on different requests."))),
        Some(_) => Ok(()),
    }
}

fn check_version_and_name_headers(
    req: &HttpRequest,
    method: &str,
    params: &Value,
    pv: &str,
) -> Result<(), Refusal> {
    match req.header(http::PROTOCOL_VERSION_HEADER) {
        None => return Err(header_refusal("Header mismatch: required header MCP-Protocol-Version is missing".into(),
            crate::note!("modern.every_modern_post_carries", "Every modern POST carries MCP-Protocol-Version equal to _meta's protocolVersion."))),
        Some(value) if value != pv => return Err(header_refusal(
            format!("Header mismatch: MCP-Protocol-Version header value '{value}' does not match body value '{pv}'"),
            crate::note!("modern.mcp_protocol_version_header", "The MCP-Protocol-Version header and _meta's protocolVersion disagree: 400 with -32020 HeaderMismatch."))),
        Some(_) => {}
    }
    if let Some(key) = methods::name_param(method) {
        let body = params.get(key).and_then(Value::as_str);
        match (req.header(http::NAME_HEADER), body) {
            (None, Some(_)) => return Err(header_refusal("Header mismatch: required header Mcp-Name is missing".into(),
                crate::note!("modern.tools_call_resources_read", "tools/call, resources/read and prompts/get mirror params.name / params.uri in Mcp-Name."))),
            (Some(raw), body) => {
                let Some(decoded) = http::decode_header_value(raw) else {
                    return Err(header_refusal(format!("Header mismatch: Mcp-Name header value '{raw}' is not valid base64 sentinel encoding"),
                        crate::note!("modern.base64_value_must_decode", "An =?base64?…?= value must decode to UTF-8 text.")));
                };
                if Some(decoded.as_str()) != body {
                    return Err(header_refusal(
                        format!("Header mismatch: Mcp-Name header value '{decoded}' does not match body value '{}'", body.unwrap_or("")),
                        crate::note!("modern.mcp_name_after_decoding", "Mcp-Name (after decoding) must equal the body's name or uri.")));
                }
            }
            (None, None) => {}
        }
    }
    Ok(())
}
