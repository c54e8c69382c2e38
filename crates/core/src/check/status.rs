//! H-STATUS: the HTTP status a modern answer travels with.

use super::exchange::{Answer, Exchange};
use super::verdict::Verdict;
use crate::protocol::jsonrpc::ErrorCode;
use crate::rules;

/// The status the rule fixes for this answer, if it fixes one.
/// `malformed_meta`: the request's `_meta` was malformed, so its -32602
/// is a 400.
fn expected_status(exchange: &Exchange<'_>, malformed_meta: bool) -> Option<u16> {
    if exchange.result().is_some() {
        return Some(200);
    }
    let code = ErrorCode(exchange.error_code()?);
    if code == ErrorCode::METHOD_NOT_FOUND {
        Some(404)
    } else if code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        || code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION
        || code == ErrorCode::HEADER_MISMATCH
        || code == ErrorCode::PARSE_ERROR
        || code == ErrorCode::INVALID_REQUEST
        || (code == ErrorCode::INVALID_PARAMS && malformed_meta)
    {
        Some(400)
    } else {
        None
    }
}

/// Judges the status of a modern request's answer on HTTP.
pub(crate) fn judge(exchange: &Exchange<'_>, malformed_meta: bool, out: &mut Vec<Verdict>) {
    let Answer::Response { .. } = exchange.answer else {
        return;
    };
    let (Some(want), Some(got)) = (expected_status(exchange, malformed_meta), exchange.status())
    else {
        return;
    };
    out.push(Verdict::judge(
        rules::H_STATUS,
        want == got,
        crate::note!(
            "check.http_status",
            "HTTP {status} for this answer",
            status = want
        ),
        crate::note!(
            "check.http_status_got",
            "HTTP {status} with {answer}",
            status = got,
            answer = exchange.got()
        ),
        exchange.at(),
    ));
}
