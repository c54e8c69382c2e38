//! The DPoP key of one `client` run (RFC 9449): a P-256 key pair drawn
//! from the operating system's generator, and the proofs it signs. The
//! core says what a proof claims ([`mcp_lanes_core::auth::client::dpop`]);
//! the random `jti`, the clock's `iat` and the ES256 signature are added
//! here. The private key never leaves this module and is never written
//! anywhere.

use std::time::{SystemTime, UNIX_EPOCH};

use mcp_lanes_core::auth::client::dpop::{self, Proof, PublicKey};
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};

/// A key pair and the public JWK of its proofs.
pub struct Key {
    signing: SigningKey,
    public: PublicKey,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The private half stays out of every debug print.
        f.debug_struct("Key")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

fn random_bytes<const N: usize>() -> Option<[u8; N]> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).ok()?;
    Some(buf)
}

impl Key {
    /// A fresh key pair; `None` when the system has no random numbers
    /// (the client then asks for a Bearer token, as without DPoP).
    pub fn random() -> Option<Key> {
        // A draw outside the curve's order is drawn again (the odds are
        // about 2^-32 per draw).
        let signing = (0..4).find_map(|_| SigningKey::from_slice(&random_bytes::<32>()?).ok())?;
        let point = signing.verifying_key().to_sec1_point(false);
        let public = PublicKey::from_coordinates(point.x()?, point.y()?);
        Some(Key { signing, public })
    }

    /// A proof for one request: `method` and `url` as sent, `token` at a
    /// resource (its `ath`), the server's `nonce` once it asked for one.
    /// A fresh `jti` and the current time each time.
    pub fn proof(
        &self,
        method: &str,
        url: &str,
        token: Option<&str>,
        nonce: Option<&str>,
    ) -> String {
        let jti: String = random_bytes::<16>()
            .map(|b| b.iter().map(|x| format!("{x:02x}")).collect())
            .unwrap_or_else(|| format!("{:x}", now_nanos()));
        let iat = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let input = dpop::signing_input(
            &self.public,
            &Proof {
                method,
                url,
                jti: &jti,
                iat,
                nonce,
                access_token: token,
            },
        );
        let signature: Signature = self.signing.sign(input.as_bytes());
        dpop::compact(&input, &signature.to_bytes())
    }
}

fn now_nanos() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dpop_proof_is_a_fresh_signed_jwt_each_time() {
        let Some(key) = Key::random() else {
            return;
        };
        let a = key.proof("POST", "http://h/mcp?q=1", Some("t"), Some("n"));
        let b = key.proof("POST", "http://h/mcp?q=1", Some("t"), Some("n"));
        assert_ne!(a, b, "a fresh jti each time");
        // Header, claims and a 64-byte signature (86 base64url characters).
        let parts: Vec<&str> = a.split('.').collect();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[2].len(), 86);
        assert!(!format!("{key:?}").contains("signing"));
    }
}
