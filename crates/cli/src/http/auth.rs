//! `serve --auth`: moves requests to the core's lab authorization set-up
//! ([`Lab`]) and its answers back. The lab's OAuth paths (metadata,
//! `/register`, `/authorize`, `/token`) are answered by the lab alone; a
//! request to `/mcp` passes the lab's token check before the MCP server
//! sees it. What is logged is redacted (codes, tokens, verifiers).

use std::sync::Mutex;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use mcp_lanes_core::auth::lab::{Lab, LabReply, LabRequest};
use mcp_lanes_core::redact;
use mcp_lanes_core::transport::http::HttpRequest;

use super::body::Body;
use super::{adapter, limits, text, Shared};
use crate::{log, Failure};

/// The largest body the lab reads (a registration or a token request).
const MAX_BODY: usize = 16 * 1024;

/// The lab for a server listening on `port`, signing with a fresh random
/// key.
pub fn lab(port: u16) -> Result<Mutex<Lab>, Failure> {
    let key = crate::state_key::random()?;
    Ok(Mutex::new(Lab::new(
        &format!("http://127.0.0.1:{port}"),
        &key,
    )))
}

/// The start-up lines that say where everything is.
pub fn announce(lab: &Mutex<Lab>) {
    let lab = lab.lock().unwrap_or_else(|p| p.into_inner());
    log::line(
        0,
        &format!(
            "protected resource {} (scope {}); authorization server {} (lab: consent is immediate)",
            lab.resource(),
            mcp_lanes_core::auth::lab::SCOPE,
            lab.issuer()
        ),
    );
}

fn log_reply(shared: &Shared, now: u64, method: &str, target: &str, reply: &LabReply) {
    let location = reply
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("location"))
        .map(|(_, v)| format!(" to {}", redact::params(v)))
        .unwrap_or_default();
    shared.log(
        now,
        &format!(
            "{method} {} -> {}{location}{}: {}",
            redact::params(target),
            reply.status,
            log::rules(&reply.rules),
            reply.note.text()
        ),
    );
}

fn to_response(reply: LabReply) -> Response<Body> {
    adapter::response(reply.status, &reply.headers, Body::full(reply.body))
}

/// Answers a request to one of the lab's paths.
pub async fn answer(
    shared: &Shared,
    lab: &Mutex<Lab>,
    request: Request<Incoming>,
) -> Response<Body> {
    let now = shared.now();
    let method = request.method().as_str().to_string();
    let target = request.uri().to_string();
    let path = request.uri().path().to_string();
    let query = request.uri().query().unwrap_or_default().to_string();
    let limited = Limited::new(request.into_body(), MAX_BODY).collect();
    let bytes: Bytes = match tokio::time::timeout(limits::BODY_TIMEOUT, limited).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        _ => {
            shared.log(
                now,
                &format!("{method} {path} -> 400: body too large, incomplete or slow"),
            );
            return text(400, "Bad request body.", true);
        }
    };
    let body = String::from_utf8_lossy(&bytes);
    let reply = lab.lock().unwrap_or_else(|p| p.into_inner()).handle(
        &LabRequest {
            method: &method,
            path: &path,
            query: &query,
            body: &body,
        },
        now,
    );
    log_reply(shared, now, &method, &target, &reply);
    to_response(reply)
}

/// The 401 or 403 for a request to `/mcp` without a token good for it;
/// `None` lets it through to the MCP server.
pub fn guard(
    shared: &Shared,
    lab: &Mutex<Lab>,
    now: u64,
    request: &HttpRequest,
) -> Option<Response<Body>> {
    let verdict = lab
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .guard(&request.headers, now);
    let reply = verdict.err()?;
    log_reply(shared, now, &request.method, &request.path, &reply);
    Some(to_response(*reply))
}
