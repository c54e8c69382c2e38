//! A simulated OAuth authorization server: its RFC 8414 metadata,
//! dynamic registration (RFC 7591), the authorization endpoint (PKCE S256,
//! `resource`, the user's consent, `iss` in the response) and the token
//! endpoint (code and refresh grants). Codes and tokens are derived from
//! the set-up, never drawn at random.

use serde_json::{json, Value};

use super::pkce;
use super::token::{Claims, Signer};
use super::ISSUER;

/// The user who signs in and consents in the simulated runs.
pub const USER: &str = "alice";

/// How long an access token lasts, in virtual ms.
pub const ACCESS_TTL_MS: u64 = 60_000;

/// An OAuth error the server answers with (`error`, `error_description`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthError {
    /// The RFC 6749 error code.
    pub error: &'static str,
    /// Why, in a few words (English, as a real server writes it).
    pub description: &'static str,
}

impl OAuthError {
    /// Its JSON body.
    pub fn body(&self) -> Value {
        json!({"error": self.error, "error_description": self.description})
    }
}

/// An authorization code waiting to be exchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Grant {
    code: String,
    /// The client it was issued to.
    client_id: String,
    /// The user who consented (the tokens' subject).
    user: String,
    challenge: Option<String>,
    resource: String,
    scope: Vec<String>,
}

/// The authorization server's state.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthorizationServer {
    /// Its issuer identifier.
    pub issuer: String,
    /// Answer the authorization response with this `iss` instead of its
    /// own (a mix-up, A-ISS).
    pub claimed_iss: Option<String>,
    /// Make codes unguessable: each carries a tag signed with the key
    /// (`serve --auth`, where a real client could guess `code-1`).
    pub signed_codes: bool,
    /// The user who signs in and consents: the subject of its tokens
    /// ([`USER`] unless the set-up's client acts for a principal).
    pub user: String,
    signer: Signer,
    grants: Vec<Grant>,
    registered: usize,
    issued: u32,
    issued_codes: u64,
}

impl AuthorizationServer {
    /// The simulated server, signing with `key`.
    pub fn new(key: &[u8]) -> AuthorizationServer {
        AuthorizationServer {
            issuer: ISSUER.into(),
            claimed_iss: None,
            signed_codes: false,
            user: USER.into(),
            signer: Signer::new(key),
            grants: Vec::new(),
            registered: 0,
            issued: 0,
            issued_codes: 0,
        }
    }

    /// Its metadata document (A-AS-METADATA).
    pub fn metadata(&self) -> Value {
        let at = |path: &str| format!("{}{path}", self.issuer);
        json!({
            "issuer": self.issuer,
            "authorization_endpoint": at("/authorize"),
            "token_endpoint": at("/token"),
            "registration_endpoint": at("/register"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "client_id_metadata_document_supported": true,
            "authorization_response_iss_parameter_supported": true,
        })
    }

    /// Dynamic registration (RFC 7591): the new client's information.
    pub fn register(&mut self, request: &Value) -> Value {
        self.registered += 1;
        let id = format!("client-{}", self.registered);
        json!({
            "client_id": id,
            "client_name": request.get("client_name").cloned().unwrap_or(Value::Null),
            "redirect_uris": request.get("redirect_uris").cloned().unwrap_or(json!([])),
            "grant_types": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_method": "none",
        })
    }

    /// The authorization request, once the user consented (A-CONSENT):
    /// the code and the `iss` it is returned with.
    pub fn authorize(
        &mut self,
        client_id: &str,
        challenge: Option<(&str, &str)>,
        resource: &str,
        scope: &[String],
    ) -> Result<(String, String), OAuthError> {
        if challenge.is_some_and(|(_, m)| m != "S256") {
            return Err(OAuthError {
                error: "invalid_request",
                description: "code_challenge_method must be S256",
            });
        }
        // The first number no waiting code has (codes are spent on use).
        let mut n = self.grants.len() + 1;
        while self
            .grants
            .iter()
            .any(|g| g.code.split('.').next() == Some(format!("code-{n}").as_str()))
        {
            n += 1;
        }
        let mut code = format!("code-{n}");
        if self.signed_codes {
            let tag = self.signer.tag(&format!("{code}:{}", self.issued_codes));
            self.issued_codes += 1;
            code = format!("{code}.{tag}");
        }
        self.grants.push(Grant {
            code: code.clone(),
            client_id: client_id.into(),
            user: self.user.clone(),
            challenge: challenge.map(|(c, _)| c.to_string()),
            resource: resource.into(),
            scope: scope.to_vec(),
        });
        let iss = self
            .claimed_iss
            .clone()
            .unwrap_or_else(|| self.issuer.clone());
        Ok((code, iss))
    }

    /// How many codes wait to be exchanged.
    pub fn waiting_codes(&self) -> usize {
        self.grants.len()
    }

    /// Forgets the oldest waiting codes beyond `keep` (a server bounds
    /// what clients that never come back leave behind).
    pub fn forget_oldest_codes(&mut self, keep: usize) {
        let extra = self.grants.len().saturating_sub(keep);
        self.grants.drain(..extra);
    }

    fn tokens(&mut self, sub: &str, resource: &str, scope: &[String], now_ms: u64) -> Value {
        self.issued += 1;
        let claims = |kind: &str, exp_ms: u64| Claims {
            iss: self.issuer.clone(),
            aud: resource.into(),
            sub: sub.into(),
            scope: scope.to_vec(),
            exp_ms,
            kind: kind.into(),
        };
        let access = self.signer.seal(&claims("access", now_ms + ACCESS_TTL_MS));
        let refresh = self.signer.seal(&claims("refresh", u64::MAX));
        json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": ACCESS_TTL_MS / 1000,
            "scope": scope.join(" "),
            "refresh_token": refresh,
        })
    }

    /// The token request of the code grant (A-PKCE, A-RESOURCE).
    pub fn exchange(
        &mut self,
        client_id: &str,
        code: &str,
        verifier: Option<&str>,
        resource: &str,
        now_ms: u64,
    ) -> Result<Value, OAuthError> {
        let Some(k) = self.grants.iter().position(|g| g.code == code) else {
            return Err(OAuthError {
                error: "invalid_grant",
                description: "unknown or used code",
            });
        };
        let grant = self.grants.remove(k);
        if grant.client_id != client_id {
            return Err(OAuthError {
                error: "invalid_grant",
                description: "the code was issued to another client",
            });
        }
        match (&grant.challenge, verifier) {
            (Some(c), Some(v)) if pkce::verify(v, c, "S256") => {}
            (None, _) => {
                return Err(OAuthError {
                    error: "invalid_grant",
                    description: "PKCE is required: no code_challenge was sent",
                })
            }
            _ => {
                return Err(OAuthError {
                    error: "invalid_grant",
                    description: "code_verifier does not match",
                })
            }
        }
        if grant.resource != resource {
            return Err(OAuthError {
                error: "invalid_target",
                description: "resource differs from the authorization request",
            });
        }
        Ok(self.tokens(&grant.user, resource, &grant.scope, now_ms))
    }

    /// The client credentials grant (A-CLIENT-CREDENTIALS): a token for
    /// `resource` that speaks for the confidential client itself (a
    /// gateway's own token for the server, G-NO-PASSTHROUGH); no refresh
    /// token is needed, the client asks again.
    pub fn client_credentials(
        &mut self,
        client_id: &str,
        resource: &str,
        scope: &[String],
        now_ms: u64,
    ) -> Value {
        let mut tokens = self.tokens(client_id, resource, scope, now_ms);
        if let Some(t) = tokens.as_object_mut() {
            t.remove("refresh_token");
        }
        tokens
    }

    /// The refresh grant (A-REFRESH): new tokens for what the refresh
    /// token was issued for.
    pub fn refresh(&mut self, refresh_token: &str, now_ms: u64) -> Result<Value, OAuthError> {
        match self
            .signer
            .open(refresh_token)
            .filter(|c| c.kind == "refresh")
        {
            Some(c) => Ok(self.tokens(&c.sub, &c.aud, &c.scope, now_ms)),
            None => Err(OAuthError {
                error: "invalid_grant",
                description: "not a refresh token of this server",
            }),
        }
    }
}
