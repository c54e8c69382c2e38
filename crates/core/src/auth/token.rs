//! Access and refresh tokens as signed strings: `BODY.TAG`, the claims'
//! JSON in base64url and its HMAC-SHA256 under the authorization server's
//! key, so the MCP server can check a token's issuer, audience, scopes and
//! expiry (A-AUDIENCE) and tell a forged or changed one apart.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;

fn b64() -> base64::engine::GeneralPurpose {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
}

/// What a token says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claims {
    /// The authorization server that issued it.
    pub iss: String,
    /// The resource it is for (RFC 8707).
    pub aud: String,
    /// Who it speaks for.
    pub sub: String,
    /// Its scopes.
    pub scope: Vec<String>,
    /// When it expires, in virtual ms.
    pub exp_ms: u64,
    /// `access` or `refresh`.
    pub kind: String,
}

impl Claims {
    /// Whether it carries `scope`.
    pub fn has(&self, scope: &str) -> bool {
        self.scope.iter().any(|s| s == scope)
    }

    fn to_value(&self) -> Value {
        json!({"iss": self.iss, "aud": self.aud, "sub": self.sub,
            "scope": self.scope.join(" "), "exp": self.exp_ms, "typ": self.kind})
    }

    fn from_value(v: &Value) -> Option<Claims> {
        let text = |k: &str| v.get(k)?.as_str().map(str::to_string);
        Some(Claims {
            iss: text("iss")?,
            aud: text("aud")?,
            sub: text("sub")?,
            scope: text("scope")?
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            exp_ms: v.get("exp")?.as_u64()?,
            kind: text("typ")?,
        })
    }
}

/// Signs and opens tokens under one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signer {
    key: Vec<u8>,
}

impl Signer {
    /// A signer with `key`.
    pub fn new(key: &[u8]) -> Signer {
        Signer { key: key.to_vec() }
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length; this cannot fail.
        match Hmac::<Sha256>::new_from_slice(&self.key) {
            Ok(mac) => mac,
            Err(_) => Hmac::<Sha256>::new(&Default::default()),
        }
    }

    /// The base64url HMAC of `text` under the key: a tag no one without
    /// the key can make.
    pub fn tag(&self, text: &str) -> String {
        let mut mac = self.mac();
        mac.update(text.as_bytes());
        b64().encode(mac.finalize().into_bytes())
    }

    /// The token of `claims`.
    pub fn seal(&self, claims: &Claims) -> String {
        let body = b64().encode(claims.to_value().to_string().as_bytes());
        let mut mac = self.mac();
        mac.update(body.as_bytes());
        format!("{body}.{}", b64().encode(mac.finalize().into_bytes()))
    }

    /// The claims of a token this signer issued, unchanged; `None` for
    /// anything else.
    pub fn open(&self, token: &str) -> Option<Claims> {
        let (body, tag) = token.split_once('.')?;
        let tag = b64().decode(tag).ok()?;
        let mut mac = self.mac();
        mac.update(body.as_bytes());
        mac.verify_slice(&tag).ok()?;
        let value: Value = serde_json::from_slice(&b64().decode(body).ok()?).ok()?;
        Claims::from_value(&value)
    }
}
