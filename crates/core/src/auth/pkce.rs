//! PKCE with S256 (RFC 7636, A-PKCE): the challenge is the base64url
//! SHA-256 of the verifier, without padding.

use base64::Engine as _;
use sha2::{Digest, Sha256};

/// The S256 challenge of a code verifier.
pub fn s256(verifier: &str) -> String {
    let digest = Sha256::digest(verifier.as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest)
}

/// Whether `verifier` answers `challenge` made with `method` (only `S256`
/// is accepted: `plain` proves nothing a listener could not repeat).
pub fn verify(verifier: &str, challenge: &str, method: &str) -> bool {
    method == "S256" && s256(verifier) == challenge
}

/// A deterministic verifier for a simulated run (43 characters, the
/// shortest RFC 7636 allows), derived from a seed.
pub fn verifier(seed: &str) -> String {
    let digest = Sha256::digest(format!("pkce:{seed}").as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest)
}
