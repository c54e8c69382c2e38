//! Rules every server keeps in both eras: each request is answered
//! (S-ANSWER), and what is declared is answered (S-DECLARED).

use serde_json::Value;

use super::exchange::{missing_text, Answer, Exchange, Known};
use super::verdict::{Outcome, Verdict};
use crate::protocol::jsonrpc::ErrorCode;
use crate::protocol::methods;
use crate::rules;
use crate::transport::TransportKind;

/// S-ANSWER: a response with the request's id came.
pub(crate) fn answered(exchange: &Exchange<'_>, out: &mut Vec<Verdict>) {
    let expected = || {
        crate::note!(
            "check.answered",
            "a JSON-RPC response with the request's id"
        )
    };
    let missing = match exchange.answer {
        Answer::Response { .. } => {
            out.push(Verdict::judge(
                rules::S_ANSWER,
                true,
                expected(),
                exchange.got(),
                exchange.at(),
            ));
            return;
        }
        Answer::Missing(m) => m,
    };
    let probe = exchange.method == methods::DISCOVER;
    // The era probe: silence on stdio, or a 400/404/405 without a modern
    // error on HTTP, is how a legacy server answers (E-PROBE-STDIO, E-PROBE-HTTP).
    let legacy_signal = probe
        && match exchange.transport {
            TransportKind::Stdio => missing.probe_silence,
            TransportKind::Http => matches!(exchange.status(), Some(400 | 404 | 405)),
        };
    // A listen stream stays open: its result comes only when the server ends it.
    let listen = exchange.method == methods::SUBSCRIPTIONS_LISTEN;
    let challenged = exchange.challenged();
    if legacy_signal || listen || missing.client_left || challenged || missing.cancelled {
        let why = if missing.cancelled {
            crate::note!(
                "check.cancelled",
                "the client cancelled it with notifications/cancelled, and a server sends no response to a cancelled request"
            )
        } else if challenged {
            crate::note!(
                "check.challenged",
                "{missing}: an authorization challenge, answered by authorizing and sending the request again (A-CHALLENGE)",
                missing = missing_text(&missing)
            )
        } else if missing.client_left {
            crate::note!(
                "check.client_left",
                "the client closed the connection before an answer"
            )
        } else if listen {
            crate::note!(
                "check.listen_open",
                "{missing} (a listen stream stays open until the server ends it)",
                missing = missing_text(&missing)
            )
        } else {
            crate::note!(
                "check.probe_no",
                "{missing} (the era probe: a legacy server's way to say no)",
                missing = missing_text(&missing)
            )
        };
        out.push(Verdict::new(
            rules::S_ANSWER,
            Outcome::NotApplicable,
            expected(),
            why,
            Some(exchange.at()),
        ));
        return;
    }
    let got = if exchange.message.delivered_at_ms.is_none() {
        crate::note!(
            "check.never_delivered",
            "never delivered: {missing}",
            missing = missing_text(&missing)
        )
    } else {
        missing_text(&missing)
    };
    out.push(Verdict::judge(
        rules::S_ANSWER,
        false,
        expected(),
        got,
        exchange.at(),
    ));
}

/// S-DECLARED: a declared capability's list method is answered with a result.
pub(crate) fn declared(exchange: &Exchange<'_>, known: &Known, out: &mut Vec<Verdict>) {
    let capability = match exchange.method {
        methods::TOOLS_LIST => "tools",
        methods::PROMPTS_LIST => "prompts",
        methods::RESOURCES_LIST => "resources",
        _ => return,
    };
    let Some(caps) = &known.capabilities else {
        return;
    };
    if caps.get(capability).is_none_or(Value::is_null) {
        return;
    }
    // A result keeps the promise; -32601 breaks it. Other refusals
    // (version, `_meta`, capabilities) are other rules' business.
    let not_found = exchange.error_code() == Some(ErrorCode::METHOD_NOT_FOUND.0);
    if exchange.result().is_none() && !not_found {
        return;
    }
    out.push(Verdict::judge(
        rules::S_DECLARED,
        !not_found,
        crate::note!(
            "check.declared",
            "a {method} result: the server declared `{capability}`",
            method = exchange.method,
            capability = capability
        ),
        exchange.got(),
        exchange.at(),
    ));
}
