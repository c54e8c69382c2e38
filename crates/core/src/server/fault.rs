//! Why the server refuses a message, and the one table that turns that
//! reason into a JSON-RPC error code and an HTTP status (as rustls turns
//! its errors into alerts in one place).
//!
//! To add a refusal: add a [`Fault`], give it its code and status in
//! [`Fault::wire`], and build a [`super::Refusal`] of it where the check runs.

use crate::protocol::{Era, ErrorCode};

/// What is wrong with a message the server refuses. Each site that refuses
/// names the fault; the code and status follow from it, and from the era of
/// the reply (legacy servers answer a JSON-RPC error inside a 200).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    // Before the era is known: framing, JSON-RPC validity, the HTTP edge.
    /// The message text is larger than the server parses (RPC-INVALID).
    MessageTooLarge,
    /// The HTTP body is larger than the server accepts (H-STATUS: 413).
    BodyTooLarge,
    /// An `Origin` other than loopback: the DNS-rebinding guard (403).
    ForbiddenOrigin,
    /// A `Host` other than a loopback name: the DNS-rebinding guard (403).
    ForbiddenHost,
    /// Not JSON (RPC-PARSE).
    ParseError,
    /// JSON, but not a valid JSON-RPC message (RPC-INVALID).
    InvalidRequest,

    // Modern requests, in the order the checks run.
    /// `params._meta` is missing, or lacks `protocolVersion` /
    /// `clientCapabilities`, or has them in the wrong shape (M-META-REQUIRED).
    MalformedMeta,
    /// HTTP headers disagree with the body or are missing (H-HEADERS).
    HeaderMismatch,
    /// The version the request names is not implemented (M-VERSION); in a
    /// legacy session, the `MCP-Protocol-Version` header names one.
    UnsupportedVersion,
    /// The tool needs a client capability the request did not declare
    /// (M-CAP-REQUIRED).
    MissingCapability,

    // Either era.
    /// No such method (M-UNKNOWN-METHOD).
    UnknownMethod,
    /// No such tool (M-UNKNOWN-TOOL).
    UnknownTool,
    /// No such resource (RPC-CODES: -32602 in 2026-07-28; -32002 in a
    /// legacy session, L-RESOURCE-NOT-FOUND).
    UnknownResource,
    /// The params have the wrong shape or content.
    InvalidParams,

    // Legacy sessions.
    /// A request other than ping before `initialize` (L-INIT).
    NotInitialized,
    /// A legacy-only HTTP server wants a session first (E-PROBE-HTTP).
    SessionRequired,
    /// A request id the client already used in this session (RPC-ID).
    ReusedId,
}

impl Fault {
    /// The JSON-RPC error code and the HTTP status of this fault, in a reply
    /// of era `era`: the one place where refusals get them.
    pub fn wire(self, era: Era) -> (ErrorCode, u16) {
        use Fault::*;
        match (self, era) {
            (MessageTooLarge | InvalidRequest | ReusedId, _) => (ErrorCode::INVALID_REQUEST, 400),
            (BodyTooLarge, _) => (ErrorCode::INVALID_REQUEST, 413),
            (ForbiddenOrigin | ForbiddenHost, _) => (ErrorCode::INVALID_REQUEST, 403),
            (ParseError, _) => (ErrorCode::PARSE_ERROR, 400),
            (MalformedMeta, _) => (ErrorCode::INVALID_PARAMS, 400),
            (HeaderMismatch, _) => (ErrorCode::HEADER_MISMATCH, 400),
            (UnsupportedVersion, Era::Modern) => (ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, 400),
            // Legacy SDKs answer a bad version header with a plain 400.
            (UnsupportedVersion, Era::Legacy) => (ErrorCode::INVALID_REQUEST, 400),
            (MissingCapability, _) => (ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, 400),
            (UnknownMethod, Era::Modern) => (ErrorCode::METHOD_NOT_FOUND, 404),
            (UnknownMethod, Era::Legacy) => (ErrorCode::METHOD_NOT_FOUND, 200),
            (UnknownResource, Era::Legacy) => (ErrorCode::RESOURCE_NOT_FOUND, 200),
            (UnknownTool | UnknownResource | InvalidParams, _) => (ErrorCode::INVALID_PARAMS, 200),
            (NotInitialized, _) => (ErrorCode::INVALID_REQUEST, 200),
            (SessionRequired, _) => (ErrorCode::LEGACY_SERVER_ERROR, 400),
        }
    }
}
