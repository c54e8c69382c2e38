//! DPoP (RFC 9449) on the client's side, sans-IO: whether the
//! authorization server takes proofs this client can sign (A-DPOP-PROOF),
//! the exact text a proof signs (its JOSE header and claims), the `ath`
//! of a token, and reading a `use_dpop_nonce` answer (A-DPOP-NONCE). The
//! key pair, the signature, the proof's `jti` and its `iat` belong to the
//! caller: nothing here draws a number or reads a clock.

use base64::Engine as _;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::wire::strings;
use super::Decision;
use crate::check::protection::challenge;
use crate::check::protection::Answer;
use crate::rules;

/// The one proof algorithm this client signs with: ECDSA over P-256 with
/// SHA-256.
pub const ALG: &str = "ES256";

/// The longest nonce the client keeps (a server's own string, sent back
/// in every proof).
const MAX_NONCE: usize = 512;

/// A P-256 public key: the `x` and `y` of its JWK (RFC 7518 §6.2),
/// base64url without padding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    /// The x coordinate.
    pub x: String,
    /// The y coordinate.
    pub y: String,
}

impl PublicKey {
    /// The JWK coordinates of a point given as its raw `x` and `y` bytes
    /// (32 each for P-256).
    pub fn from_coordinates(x: &[u8], y: &[u8]) -> PublicKey {
        PublicKey {
            x: b64(x),
            y: b64(y),
        }
    }
}

/// What one proof says (RFC 9449 §4.2). `jti` and `iat` come from the
/// caller: a fresh random id and the current time in seconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof<'a> {
    /// The HTTP method of the request it goes with (`htm`).
    pub method: &'a str,
    /// The request's URL; its query and fragment are left out (`htu`).
    pub url: &'a str,
    /// The proof's unique id (`jti`).
    pub jti: &'a str,
    /// When it was made, seconds since the epoch (`iat`).
    pub iat: u64,
    /// The server's nonce, once one asked for it (`nonce`).
    pub nonce: Option<&'a str>,
    /// The access token it goes with, at a resource (its hash is `ath`).
    pub access_token: Option<&'a str>,
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A URL without its query and fragment: a proof's `htu` (RFC 9449
/// §4.2).
pub fn htu(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    &url[..end]
}

/// The `ath` of an access token: base64url of its SHA-256 (RFC 9449
/// §4.2).
pub fn ath(access_token: &str) -> String {
    b64(&Sha256::digest(access_token.as_bytes()))
}

/// The JWS signing input of a proof: the base64url of its header (`typ`
/// `dpop+jwt`, `alg` ES256, the public `jwk`) and of its claims, joined by
/// a dot. The caller signs it with ES256 and appends `.` and the
/// signature.
pub fn signing_input(key: &PublicKey, proof: &Proof<'_>) -> String {
    let header = json!({
        "typ": "dpop+jwt",
        "alg": ALG,
        "jwk": {"kty": "EC", "crv": "P-256", "x": key.x, "y": key.y},
    });
    let mut claims = json!({
        "jti": proof.jti,
        "htm": proof.method,
        "htu": htu(proof.url),
        "iat": proof.iat,
    });
    if let Some(map) = claims.as_object_mut() {
        if let Some(token) = proof.access_token {
            map.insert("ath".into(), Value::String(ath(token)));
        }
        if let Some(nonce) = proof.nonce {
            map.insert("nonce".into(), Value::String(nonce.to_string()));
        }
    }
    format!(
        "{}.{}",
        b64(header.to_string().as_bytes()),
        b64(claims.to_string().as_bytes())
    )
}

/// The proof as sent: the signing input, a dot, and the base64url of the
/// signature (for ES256, `r` and `s`, 32 bytes each).
pub fn compact(signing_input: &str, signature: &[u8]) -> String {
    format!("{signing_input}.{}", b64(signature))
}

/// Whether authorization server metadata lists [`ALG`] in
/// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the client then
/// asks for a DPoP-bound token (A-DPOP-PROOF).
pub fn supported(meta: &Map<String, Value>) -> bool {
    strings(meta, "dpop_signing_alg_values_supported")
        .iter()
        .any(|a| a == ALG)
}

/// The first `DPoP` challenge among the `WWW-Authenticate` headers (RFC
/// 9449 §7.1): a resource that takes DPoP-bound tokens names its
/// metadata there, as a Bearer challenge would.
pub fn challenge(headers: &[(String, String)]) -> Option<challenge::Challenge> {
    challenge::all(headers).find(|c| c.scheme.eq_ignore_ascii_case("dpop"))
}

/// Whether a nonce is one a header may carry back (RFC 9449 §8: `NQCHAR`,
/// printable ASCII without `"` and `\`), and not too long.
fn well_formed(nonce: &str) -> bool {
    !nonce.is_empty()
        && nonce.len() <= MAX_NONCE
        && nonce
            .bytes()
            .all(|b| (0x21..=0x7e).contains(&b) && b != b'"' && b != b'\\')
}

/// The nonce an answer asks for: a `use_dpop_nonce` error (the token
/// endpoint's JSON body, RFC 9449 §8, or a resource's `WWW-Authenticate`
/// challenge, §9) with a well-formed `DPoP-Nonce` header.
pub fn asked_nonce(answer: &Answer) -> Option<String> {
    let body_error = serde_json::from_str::<Value>(&answer.body)
        .ok()
        .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_string));
    let challenged =
        challenge::all(&answer.headers).any(|c| c.param("error") == Some("use_dpop_nonce"));
    let asks = match answer.status {
        400 => body_error.as_deref() == Some("use_dpop_nonce"),
        401 => challenged,
        _ => false,
    };
    if !asks {
        return None;
    }
    crate::transport::http::header(&answer.headers, "dpop-nonce")
        .filter(|n| well_formed(n))
        .map(str::to_string)
}

/// After a run with a DPoP-bound token: when the server answered HTTP 401
/// `use_dpop_nonce` with a nonce other than `sent` (the one the proofs
/// already carried), the nonce to send from now on and the decision to
/// retry (A-DPOP-NONCE). A server that asks again for the nonce it was
/// given gets no second retry.
pub fn resource_nonce(answer: &Answer, sent: Option<&str>) -> Option<(String, Decision)> {
    let nonce = asked_nonce(answer).filter(|n| Some(n.as_str()) != sent)?;
    let note = crate::note!(
        "auth.client.dpop_nonce_resource",
        "HTTP 401 `use_dpop_nonce`: the server wants its nonce {nonce} in every DPoP proof; the client sends its requests again, each with a fresh proof carrying it.",
        nonce = nonce
    );
    Some((
        nonce,
        Decision {
            rules: vec![rules::A_DPOP_NONCE],
            note,
        },
    ))
}
