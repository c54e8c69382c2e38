//! Signing for the core's authorization flow: when the core asks for a
//! signature ([`mcp_lanes_core::auth::client::Next::Sign`]), the JWS
//! signing input it built is signed here with the client's private key
//! (PEM), so the key never enters the core nor anything recorded.
//! jsonwebtoken on its pure-Rust backend does the signing.

use std::str::FromStr;

use jsonwebtoken::{Algorithm, AlgorithmFamily, EncodingKey};

/// The base64url signature of `input` with the private key `pem` (PKCS#8
/// or SEC1 for EC keys), algorithm `alg` (`ES256`, `RS256`, `EdDSA`…), or
/// why it cannot be made.
pub fn sign(alg: &str, input: &str, pem: &str) -> Result<String, String> {
    let algorithm = Algorithm::from_str(alg).map_err(|_| format!("unknown algorithm {alg}"))?;
    let key = match algorithm.family() {
        AlgorithmFamily::Ec => EncodingKey::from_ec_pem(pem.as_bytes()),
        AlgorithmFamily::Rsa => EncodingKey::from_rsa_pem(pem.as_bytes()),
        AlgorithmFamily::Ed => EncodingKey::from_ed_pem(pem.as_bytes()),
        AlgorithmFamily::Hmac => return Err(format!("{alg} is not a signature algorithm")),
    }
    .map_err(|e| format!("the {alg} key cannot be read: {e}"))?;
    jsonwebtoken::crypto::sign(input.as_bytes(), &key, algorithm)
        .map_err(|e| format!("signing with {alg} failed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::DecodingKey;

    // A P-256 key made for this test only (openssl genpkey), and its public half.
    const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4yLmMFlzQ+dJV/9J
WWiyj03WhNt1PjX7rjlmr0sYFbOhRANCAASe5mNwF82kNV6lf9CreATwwW8rmE+c
BwTtEispcj1mazU+IcZNeOUUVTqjayCEtUPgK+S+q/h45oEzfZdIdOXV
-----END PRIVATE KEY-----
";
    const TEST_PUBLIC: &str = "-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEnuZjcBfNpDVepX/Qq3gE8MFvK5hP
nAcE7RIrKXI9Zms1PiHGTXjlFFU6o2sghLVD4Cvkvqv4eOaBM32XSHTl1Q==
-----END PUBLIC KEY-----
";

    #[test]
    fn a_client_jwt_assertion_es256_signature_verifies_with_the_public_key() {
        let input = mcp_lanes_core::auth::client::signing_input(
            "ES256",
            "client",
            "http://as.test",
            jsonwebtoken::get_current_timestamp(),
            "j1",
        );
        let signature = sign("ES256", &input, TEST_KEY).expect("signed");
        let public = DecodingKey::from_ec_pem(TEST_PUBLIC.as_bytes()).expect("public key");
        let mut validation = jsonwebtoken::Validation::new(Algorithm::ES256);
        validation.set_audience(&["http://as.test"]);
        let claims = jsonwebtoken::decode::<serde_json::Value>(
            format!("{input}.{signature}"),
            &public,
            &validation,
        )
        .expect("verified");
        assert_eq!(claims.claims["iss"], "client");
    }

    #[test]
    fn a_client_jwt_assertion_a_bad_key_or_algorithm_is_an_error_not_a_panic() {
        assert!(sign("ES256", "a.b", "not a key").is_err());
        assert!(sign("HS256", "a.b", TEST_KEY).is_err());
        assert!(sign("XX1", "a.b", TEST_KEY).is_err());
    }
}
