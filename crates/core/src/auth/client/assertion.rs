//! The JWT a client signs to authenticate itself at the token endpoint
//! (`private_key_jwt`, RFC 7523 §2.2 and §3, A-CLIENT-JWT-ASSERTION): its
//! header and claims, encoded as the JWS signing input. The signature is
//! the caller's: the private key never enters the core, and the time and
//! the `jti` come from the caller too.

use base64::Engine as _;
use serde_json::json;

/// The `client_assertion_type` of a JWT client assertion (RFC 7523 §2.2).
pub const ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// How long an assertion is valid, in seconds: one token request.
pub const LIFETIME: u64 = 60;

fn b64(text: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(text)
}

/// The JWS signing input (`header.claims`, each base64url) of the
/// assertion of `client_id` for the authorization server `audience` (its
/// issuer), signed with `alg`, issued at `now` (seconds since the Unix
/// epoch), with the JWT ID `jti`.
pub fn signing_input(alg: &str, client_id: &str, audience: &str, now: u64, jti: &str) -> String {
    let header = json!({"alg": alg, "typ": "JWT"});
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now.saturating_add(LIFETIME),
        "jti": jti,
    });
    format!("{}.{}", b64(&header.to_string()), b64(&claims.to_string()))
}
