//! The 2026-07-28 rules a server's answers show: result shapes, cache
//! hints, version and `_meta` refusals, unknown methods and tools,
//! per-request capabilities.

use serde_json::Value;

use super::exchange::{Answer, Exchange, Known};
use super::verdict::Verdict;
use crate::note::Note;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::jsonrpc::ErrorCode;
use crate::protocol::version::Era;
use crate::protocol::{methods, shape, ProtocolVersion, ResultType};
use crate::rules;
use crate::transport::http;

/// Whether the method is one the method table knows as a request.
pub(crate) fn is_known_method(method: &str) -> bool {
    methods::is_known_request(method)
}

/// Whether a request is shaped as a modern one (E-TERMS: an era is a
/// message shape): its `_meta` names a protocol version (whichever), or
/// on HTTP its `MCP-Protocol-Version` header names a modern one.
pub(crate) fn is_modern(exchange: &Exchange<'_>) -> bool {
    if exchange.method == methods::INITIALIZE {
        return false;
    }
    if exchange
        .meta()
        .is_some_and(|m| m.get(crate::protocol::meta::PROTOCOL_VERSION).is_some())
    {
        return true;
    }
    let header = exchange
        .message
        .http
        .as_ref()
        .and_then(|h| http::header(&h.headers, http::PROTOCOL_VERSION_HEADER));
    header.is_some_and(|v| ProtocolVersion::era_of(v) == Era::Modern)
}

/// Why the request's `_meta` is malformed (M-META-REQUIRED), if it is.
pub(crate) fn meta_problem(exchange: &Exchange<'_>) -> Option<Note> {
    match exchange.meta() {
        None => Some(crate::note!("check.no_meta", "no params._meta")),
        Some(meta) => shape::check(meta, "params._meta", shape::REQUEST_META)
            .err()
            .map(|e| {
                crate::note!(
                    "check.shape_problem",
                    "{path}: {problem}",
                    path = e.path,
                    problem = e.message
                )
            }),
    }
}

/// Judges one exchange of a modern request against a modern server.
pub(crate) fn judge(exchange: &Exchange<'_>, known: &Known, out: &mut Vec<Verdict>) {
    if let Answer::Missing(_) = exchange.answer {
        return; // S-ANSWER says it
    }
    let at = exchange.at();
    let got = exchange.got();
    if let Some(problem) = meta_problem(exchange) {
        // When the headers cannot match a malformed `_meta` either, a
        // server that checks headers first rightly answers -32020.
        let code = exchange.error_code();
        let headers_too = header_mismatch(exchange).is_some();
        let ok = code == Some(ErrorCode::INVALID_PARAMS.0)
            || (headers_too && code == Some(ErrorCode::HEADER_MISMATCH.0));
        let expected = if headers_too {
            crate::note!(
                "check.meta_or_headers",
                "error -32602 (Invalid params), or -32020 since the headers cannot match it either: {problem}",
                problem = problem
            )
        } else {
            crate::note!(
                "check.meta_invalid",
                "error -32602 (Invalid params): {problem}",
                problem = problem
            )
        };
        out.push(Verdict::judge(
            rules::M_META_REQUIRED,
            ok,
            expected,
            got,
            at,
        ));
        return;
    }
    if let Some(problem) = header_mismatch(exchange) {
        out.push(Verdict::judge(
            rules::H_HEADERS,
            exchange.error_code() == Some(ErrorCode::HEADER_MISMATCH.0),
            crate::note!(
                "check.header_mismatch",
                "error -32020 (HeaderMismatch): {problem}",
                problem = problem
            ),
            got,
            at,
        ));
        return;
    }
    let version = exchange.meta_version().unwrap_or_default();
    let supported = match &known.versions {
        Some(list) => list.iter().any(|v| v == version),
        // Before any discover: a modern request names a modern revision.
        None => {
            ProtocolVersion::is_known(version) && ProtocolVersion::era_of(version) == Era::Modern
        }
    };
    if !supported {
        out.push(version_refusal(exchange, version));
        return;
    }
    if !is_known_method(exchange.method) {
        out.push(Verdict::judge(
            rules::M_UNKNOWN_METHOD,
            exchange.error_code() == Some(ErrorCode::METHOD_NOT_FOUND.0),
            crate::note!(
                "check.unknown_method",
                "error -32601 (Method not found) for {method}",
                method = exchange.method
            ),
            got,
            at,
        ));
        return;
    }
    if exchange.method == methods::TOOLS_CALL {
        let name = exchange.params().get("name").and_then(Value::as_str);
        if let Some(name) = name {
            if known.tools_complete && !known.tools.iter().any(|t| t == name) {
                out.push(Verdict::judge(
                    rules::M_UNKNOWN_TOOL,
                    exchange.error_code() == Some(ErrorCode::INVALID_PARAMS.0),
                    crate::note!(
                        "check.unknown_tool",
                        "error -32602 (Unknown tool: {name}), not -32601 and not a result",
                        name = name
                    ),
                    got,
                    at,
                ));
                return;
            }
        }
    }
    if exchange.error_code() == Some(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY.0) {
        out.push(capability_refusal(exchange));
    }
    if let Some(result) = exchange.result() {
        result_rules(exchange, result, out);
    }
}

/// M-VERSION: an unsupported version gets -32022 with `data.supported`
/// and `data.requested`.
fn version_refusal(exchange: &Exchange<'_>, version: &str) -> Verdict {
    let data = exchange.error().and_then(|e| e.get("data"));
    let supported_ok = data
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .is_some_and(|l| !l.is_empty() && l.iter().all(Value::is_string));
    let requested_ok = data
        .and_then(|d| d.get("requested"))
        .is_some_and(Value::is_string);
    let code_ok = exchange.error_code() == Some(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.0);
    let mut got = exchange.got();
    if code_ok && !(supported_ok && requested_ok) {
        got = crate::note!(
            "check.got_with_data",
            "{answer} (data: {data})",
            answer = got,
            data = data.map(Value::to_string).unwrap_or_else(|| "none".into())
        );
    }
    Verdict::judge(
        rules::M_VERSION,
        code_ok && supported_ok && requested_ok,
        crate::note!(
            "check.version_unsupported",
            "error -32022 with data.supported (strings) and data.requested: {version} is not supported",
            version = format!("{version:?}")
        ),
        got,
        exchange.at(),
    )
}

/// M-CAP-REQUIRED: -32021 names what is missing as ClientCapabilities.
fn capability_refusal(exchange: &Exchange<'_>) -> Verdict {
    let required = exchange
        .error()
        .and_then(|e| e.get("data"))
        .and_then(|d| d.get("requiredCapabilities"));
    let declared = ClientCapabilities::from_json(exchange.declared().unwrap_or(&Value::Null));
    let ok = match required {
        Some(r) if r.is_object() => {
            let needed = ClientCapabilities::from_json(r);
            // What it asks for must be something this request did not declare.
            !needed.is_empty() && !declared.covers(&needed)
        }
        _ => false,
    };
    Verdict::judge(
        rules::M_CAP_REQUIRED,
        ok,
        crate::note!(
            "check.required_capabilities",
            "data.requiredCapabilities: an object naming a capability this request did not declare"
        ),
        format!(
            "requiredCapabilities {}",
            required
                .map(Value::to_string)
                .unwrap_or_else(|| "absent".into())
        ),
        exchange.at(),
    )
}

/// The rules a modern result keeps: resultType, discover's fields, cache
/// hints, input requests only for declared capabilities.
fn result_rules(exchange: &Exchange<'_>, result: &Value, out: &mut Vec<Verdict>) {
    let at = exchange.at();
    let result_type = ResultType::of(result);
    let input_required = result_type.as_ref() == Some(&ResultType::INPUT_REQUIRED);
    let type_ok = input_required || result_type.as_ref() == Some(&ResultType::COMPLETE);
    out.push(Verdict::judge(
        rules::M_RESULT_TYPE,
        type_ok,
        crate::note!(
            "check.result_type",
            "resultType \"complete\" or \"input_required\""
        ),
        match result.get(ResultType::KEY) {
            Some(v) => Note::from(format!("resultType {v}")),
            None => crate::note!("check.no_result_type", "no resultType"),
        },
        at,
    ));
    if exchange.method == methods::DISCOVER {
        let versions_ok = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .is_some_and(|l| !l.is_empty() && l.iter().all(Value::is_string));
        let caps_ok = result.get("capabilities").is_some_and(Value::is_object);
        let complete = result_type.as_ref() == Some(&ResultType::COMPLETE);
        let mut missing = Vec::new();
        if !complete {
            missing.push("resultType complete");
        }
        if !versions_ok {
            missing.push("supportedVersions");
        }
        if !caps_ok {
            missing.push("capabilities");
        }
        out.push(Verdict::judge(
            rules::M_DISCOVER,
            missing.is_empty(),
            crate::note!(
                "check.discover_result",
                "resultType complete, supportedVersions (strings), capabilities (object)"
            ),
            if missing.is_empty() {
                crate::note!("check.all_there", "all there")
            } else {
                crate::note!(
                    "check.missing_or_malformed",
                    "missing or malformed: {fields}",
                    fields = missing.join(", ")
                )
            },
            at,
        ));
    }
    // An input_required result of any method never carries cache hints;
    // one of a method that cannot be cached is graded only when it does.
    let hinted = result.get("ttlMs").is_some() || result.get("cacheScope").is_some();
    if methods::is_cacheable(exchange.method) || (input_required && hinted) {
        out.push(cache_hints(result, input_required, at));
    }
    if input_required {
        out.push(input_requests(exchange, result));
    }
}

/// M-CACHE-HINTS: `ttlMs` (integer >= 0) and `cacheScope` on a complete
/// result of a cacheable method, neither on an input_required result of
/// any method.
fn cache_hints(result: &Value, input_required: bool, at: usize) -> Verdict {
    let ttl = result.get("ttlMs");
    let scope = result.get("cacheScope");
    let got = format!(
        "ttlMs {}, cacheScope {}",
        ttl.map(Value::to_string).unwrap_or_else(|| "absent".into()),
        scope
            .map(Value::to_string)
            .unwrap_or_else(|| "absent".into())
    );
    if input_required {
        return Verdict::judge(
            rules::M_CACHE_HINTS,
            ttl.is_none() && scope.is_none(),
            crate::note!(
                "check.no_cache_hints",
                "no ttlMs or cacheScope on an input_required result"
            ),
            got,
            at,
        );
    }
    let ttl_ok = ttl.is_some_and(|t| t.as_u64().is_some());
    let scope_ok = matches!(
        scope.and_then(Value::as_str),
        Some("public") | Some("private")
    );
    Verdict::judge(
        rules::M_CACHE_HINTS,
        ttl_ok && scope_ok,
        crate::note!(
            "check.cache_hints",
            "ttlMs (an integer >= 0) and cacheScope \"public\" or \"private\""
        ),
        got,
        at,
    )
}

/// M-MRTR-CAP: every input request needs only what the request declared.
fn input_requests(exchange: &Exchange<'_>, result: &Value) -> Verdict {
    let declared = ClientCapabilities::from_json(exchange.declared().unwrap_or(&Value::Null));
    let mut undeclared = Vec::new();
    if let Some(requests) = result.get("inputRequests").and_then(Value::as_object) {
        for (key, request) in requests {
            let method = request.get("method").and_then(Value::as_str).unwrap_or("");
            let needed = super::legacy::server_request_needs(method)
                .is_none_or(|capability| declared.declares(capability));
            if !needed {
                undeclared.push(format!("{key}: {method}"));
            }
        }
    }
    Verdict::judge(
        rules::M_MRTR_CAP,
        undeclared.is_empty(),
        crate::note!(
            "check.mrtr_cap",
            "input requests only for capabilities this request declared"
        ),
        if undeclared.is_empty() {
            crate::note!("check.mrtr_declared", "every input request was declared")
        } else {
            crate::note!(
                "check.mrtr_undeclared",
                "asked without the capability: {requests}",
                requests = undeclared.join(", ")
            )
        },
        exchange.at(),
    )
}

/// What differs between the request's headers and its body (H-HEADERS),
/// on HTTP ([`http::header_mismatch`]).
pub(crate) fn header_mismatch(exchange: &Exchange<'_>) -> Option<Note> {
    let sent = &exchange.message.http.as_ref()?.headers;
    let found = http::header_mismatch(sent, exchange.body)?;
    let name = found.name;
    Some(match (found.body, found.header) {
        (Some(w), Some(h)) => crate::note!(
            "check.header_differs",
            "{name} is {header}, the body says {body}",
            name = name,
            header = format!("{h:?}"),
            body = format!("{w:?}")
        ),
        (Some(w), None) => crate::note!(
            "check.header_missing",
            "no {name} header (the body says {body})",
            name = name,
            body = format!("{w:?}")
        ),
        (None, Some(h)) => crate::note!(
            "check.header_extra",
            "{name} {header} names nothing in the body",
            name = name,
            header = format!("{h:?}")
        ),
        (None, None) => return None,
    })
}

/// M-CAP-REQUIRED and M-STATELESS over a tool's calls: a tool refused
/// without capabilities, then served once a call declared them, was
/// refused for capabilities, so the refusal must have been -32021
/// (M-CAP-REQUIRED); a later call that drops them again must be refused
/// again (M-STATELESS).
#[derive(Debug, Default)]
pub(crate) struct Stateless {
    tools: Vec<ToolCalls>,
}

/// What one tool's calls showed so far.
#[derive(Debug)]
struct ToolCalls {
    name: String,
    /// The capabilities the first refusal required: named by a -32021's
    /// `requiredCapabilities`, else learned from the call that was served.
    required: Option<ClientCapabilities>,
    /// The first refusal: its error code and the event it points at.
    refusal: (i64, usize),
    /// A call declaring `required` was served since.
    served: bool,
}

impl Stateless {
    /// Follows one tools/call exchange.
    pub fn observe(&mut self, exchange: &Exchange<'_>, out: &mut Vec<Verdict>) {
        if exchange.method != methods::TOOLS_CALL {
            return;
        }
        let Some(name) = exchange.params().get("name").and_then(Value::as_str) else {
            return;
        };
        if let Answer::Missing(_) = exchange.answer {
            return;
        }
        let declared = ClientCapabilities::from_json(exchange.declared().unwrap_or(&Value::Null));
        let code = exchange.error_code();
        let entry = self.tools.iter_mut().find(|t| t.name == name);
        match entry {
            None => {
                let Some(code) = code else {
                    return;
                };
                let required =
                    (code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY.0).then(|| {
                        exchange
                            .error()
                            .and_then(|e| e.get("data"))
                            .and_then(|d| d.get("requiredCapabilities"))
                            .map(ClientCapabilities::from_json)
                            .unwrap_or_default()
                    });
                // Only a refusal of a call that declared nothing can be
                // lifted by declaring more.
                if required.is_some() || declared.is_empty() {
                    self.tools.push(ToolCalls {
                        name: name.to_string(),
                        required,
                        refusal: (code, exchange.at()),
                        served: false,
                    });
                }
            }
            Some(tool) => {
                let covers = tool.required.as_ref().is_some_and(|r| declared.covers(r));
                if !tool.served && code.is_none() && (covers || tool.required.is_none()) {
                    tool.served = true;
                    if tool.required.is_none() {
                        // Declaring capabilities lifted a refusal that did
                        // not say it was about capabilities.
                        tool.required = Some(declared.clone());
                        let (code, at) = tool.refusal;
                        out.push(Verdict::judge(
                            rules::M_CAP_REQUIRED,
                            false,
                            crate::note!(
                                "check.cap_refusal_code",
                                "error -32021 (MissingRequiredClientCapability): the same call was served once it declared {capabilities}",
                                capabilities = declared.names().join(", ")
                            ),
                            crate::note!(
                                "check.cap_refusal_other",
                                "error {code} for the call without capabilities",
                                code = code
                            ),
                            at,
                        ));
                    }
                    return;
                }
                let Some(required) = &tool.required else {
                    return;
                };
                if tool.served && !declared.covers(required) {
                    out.push(Verdict::judge(
                        rules::M_STATELESS,
                        code.is_some(),
                        crate::note!(
                            "check.stateless",
                            "refused again: this request does not declare {capabilities}, whatever an earlier one did",
                            capabilities = required.names().join(", ")
                        ),
                        exchange.got(),
                        exchange.at(),
                    ));
                }
            }
        }
    }
}

/// M-META-REQUIRED for a request sent without any `_meta` to probe it, on
/// a transport where nothing else marks it modern (stdio): a modern-only
/// server must refuse it with -32602; a dual-era server may take it for a
/// legacy request, but must not serve it as a modern one.
pub(crate) fn judge_no_meta(exchange: &Exchange<'_>, dual_era: bool, out: &mut Vec<Verdict>) {
    if let Answer::Missing(_) = exchange.answer {
        return;
    }
    let refused = exchange.error_code() == Some(ErrorCode::INVALID_PARAMS.0);
    let served_modern = exchange
        .result()
        .is_some_and(|r| r.get(ResultType::KEY).is_some());
    let expected = crate::note!(
        "check.meta_invalid",
        "error -32602 (Invalid params): {problem}",
        problem = crate::note!("check.no_meta", "no params._meta")
    );
    if dual_era && !refused && !served_modern {
        out.push(Verdict::new(
            rules::M_META_REQUIRED,
            super::verdict::Outcome::NotApplicable,
            expected,
            crate::note!(
                "check.no_meta_legacy",
                "{got} (a dual-era server may take a request without _meta for a legacy one)",
                got = exchange.got()
            ),
            Some(exchange.at()),
        ));
        return;
    }
    out.push(Verdict::judge(
        rules::M_META_REQUIRED,
        refused,
        expected,
        exchange.got(),
        exchange.at(),
    ));
}
