//! The initialize handshake: its result's fields (L-INIT), the version it
//! answers (L-VERSION), and a modern-only server's refusal
//! (M-INIT-ON-MODERN).

use serde_json::Value;

use super::exchange::{Answer, Exchange};
use super::verdict::Verdict;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::{methods, shape, ProtocolVersion};
use crate::rules;
use crate::sim::{Side, Timeline};

/// Judges an initialize exchange. `modern_server`: the server answered
/// server/discover in this run.
pub(crate) fn judge(exchange: &Exchange<'_>, modern_server: bool, out: &mut Vec<Verdict>) {
    let Answer::Response { .. } = exchange.answer else {
        return;
    };
    let at = exchange.at();
    let requested = exchange
        .params()
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some(result) = exchange.result() else {
        if modern_server {
            // A modern-only server refuses initialize naming its versions.
            let error = exchange.error().cloned().unwrap_or(Value::Null);
            let text = error.to_string();
            let names = text.contains(ProtocolVersion::MODERN)
                || error
                    .get("data")
                    .and_then(|d| d.get("supported"))
                    .is_some_and(Value::is_array);
            out.push(Verdict::judge(
                rules::M_INIT_ON_MODERN,
                names,
                crate::note!(
                    "check.init_on_modern",
                    "an error naming the versions the server supports"
                ),
                exchange.got(),
                at,
            ));
        }
        return;
    };
    let mut missing = Vec::new();
    if !result.get("protocolVersion").is_some_and(Value::is_string) {
        missing.push("protocolVersion");
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        missing.push("capabilities");
    }
    let info_ok = result
        .get("serverInfo")
        .is_some_and(|i| shape::check(i, "serverInfo", shape::IMPLEMENTATION).is_ok());
    if !info_ok {
        missing.push("serverInfo (name, version)");
    }
    out.push(Verdict::judge(
        rules::L_INIT,
        missing.is_empty(),
        crate::note!(
            "check.init_result",
            "protocolVersion, capabilities and serverInfo {{name, version}}"
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
    let answered = result
        .get("protocolVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let legacy = ProtocolVersion::LEGACY.contains(&answered);
    let (ok, expected) = if answered == requested {
        (
            legacy,
            crate::note!(
                "check.version_echoed",
                "{version} echoed (the client asked for it), a legacy revision",
                version = format!("{requested:?}")
            ),
        )
    } else {
        (
            legacy,
            crate::note!(
                "check.version_counter_offer",
                "{version} echoed, or a counter-offer: another legacy revision it supports",
                version = format!("{requested:?}")
            ),
        )
    };
    out.push(Verdict::judge(
        rules::L_VERSION,
        ok,
        expected,
        format!("protocolVersion {answered:?}"),
        at,
    ));
}

/// L-CAP-SESSION: a server request (elicitation, sampling, roots) goes
/// only to a client whose initialize declared that capability.
pub(crate) fn server_requests(timeline: &Timeline, out: &mut Vec<Verdict>) {
    let mut declared: Option<ClientCapabilities> = None;
    for (event, message) in timeline.messages() {
        let Some(body) = message.json.as_ref() else {
            continue;
        };
        let method = body.get("method").and_then(Value::as_str).unwrap_or("");
        let Some(from) = message.sender() else {
            continue;
        };
        match from {
            Side::Client if method == methods::INITIALIZE => {
                let caps = body
                    .get("params")
                    .and_then(|p| p.get("capabilities"))
                    .unwrap_or(&Value::Null);
                declared = Some(ClientCapabilities::from_json(caps));
            }
            Side::Server if body.get("id").is_some() => {
                let Some(caps) = &declared else {
                    continue;
                };
                let Some(capability) = server_request_needs(method) else {
                    continue;
                };
                let ok = caps.declares(capability);
                out.push(Verdict::judge(
                    rules::L_CAP_SESSION,
                    ok,
                    crate::note!(
                        "check.cap_session",
                        "{method} only to a client that declared `{capability}` in initialize",
                        method = method,
                        capability = capability
                    ),
                    if ok {
                        crate::note!(
                            "check.cap_session_declared",
                            "{method}; the client declared `{capability}`",
                            method = method,
                            capability = capability
                        )
                    } else {
                        crate::note!(
                            "check.cap_session_undeclared",
                            "{method}, but the client never declared `{capability}`",
                            method = method,
                            capability = capability
                        )
                    },
                    event.index,
                ));
            }
            _ => {}
        }
    }
}

/// The client capability a server request needs, from its row in
/// `METHODS` (`elicitation` for elicitation/create); `None` for anything
/// else.
pub(crate) fn server_request_needs(method: &str) -> Option<&'static str> {
    methods::find(method)
        .filter(|m| m.from == methods::Sender::Server && m.shape == methods::Shape::Request)
        .and_then(|m| m.legacy_needs.capability())
}
