//! Opaque tokens a server hands out and must get back unchanged: MRTR
//! `requestState` (M-MRTR-STATE) and list cursors (M-PAGINATION). A token
//! is `BODY.TAG`: the payload's JSON in base64url and its HMAC-SHA256
//! under the server's state key ([`Server::set_state_key`]), so a token
//! the client built or changed is told apart from one the server issued.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;

use super::Server;

fn b64() -> base64::engine::GeneralPurpose {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
}

impl Server {
    /// `payload` as a signed token.
    pub(crate) fn seal(&self, payload: &Value) -> String {
        let body = b64().encode(payload.to_string().as_bytes());
        let mut mac = self.mac();
        mac.update(body.as_bytes());
        let tag = b64().encode(mac.finalize().into_bytes());
        format!("{body}.{tag}")
    }

    /// The payload of a token this server issued; `None` for anything
    /// else (not a token, a changed one, one signed with another key).
    pub(crate) fn open(&self, token: &str) -> Option<Value> {
        let (body, tag) = token.split_once('.')?;
        let tag = b64().decode(tag).ok()?;
        let mut mac = self.mac();
        mac.update(body.as_bytes());
        mac.verify_slice(&tag).ok()?;
        let bytes = b64().decode(body).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length; this cannot fail.
        match Hmac::<Sha256>::new_from_slice(&self.state_key) {
            Ok(mac) => mac,
            Err(_) => Hmac::<Sha256>::new(&Default::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::{presets, Server};
    use serde_json::json;

    #[test]
    fn a_token_opens_only_unchanged_and_under_its_key() {
        let mut server = Server::new(presets::deploy_console());
        let token = server.seal(&json!({"l": "tools/list", "o": 2}));
        assert_eq!(
            server.open(&token),
            Some(json!({"l": "tools/list", "o": 2}))
        );
        let (body, tag) = token.split_once('.').unwrap_or_default();
        let forged = format!("{}.{tag}", b64().encode(br#"{"l":"tools/list","o":0}"#));
        assert_eq!(server.open(&forged), None);
        assert_eq!(server.open(body), None);
        assert_eq!(server.open("not a token"), None);
        server.set_state_key(b"another key");
        assert_eq!(server.open(&token), None);
    }
}
