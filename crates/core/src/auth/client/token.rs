//! The token request, whatever its grant: the client's authentication at
//! the token endpoint (A-CLIENT-AUTH; a signed JWT, A-CLIENT-JWT-ASSERTION,
//! whose signature the caller makes), and reading the answer.

use serde_json::Value;

use super::assertion::{signing_input, ASSERTION_TYPE};
use super::grants::JWT_BEARER;
use super::wire::{document, form, strings, text};
use super::{
    auth_method, dpop, encode, Authorizer, Call, Credentials, Extension, Next, Phase, ProofAsked,
};
use crate::check::protection::Answer;
use crate::rules;

impl Authorizer {
    /// The JWS algorithm of the client's signing key, when it has one.
    pub(super) fn signing_alg(&self) -> Option<&str> {
        match &self.setup.extension {
            Some(Extension::SigningKey { alg }) => Some(alg.as_str()),
            _ => None,
        }
    }

    /// How the client authenticates at the token endpoint: with a signed
    /// JWT when it holds a key and the server takes `private_key_jwt` with
    /// its algorithm (A-CLIENT-JWT-ASSERTION), else as [`auth_method`] says
    /// (A-CLIENT-AUTH).
    fn token_auth_method(&self, client: &Credentials) -> String {
        let supported = strings(&self.meta, "token_endpoint_auth_methods_supported");
        let algs = strings(
            &self.meta,
            "token_endpoint_auth_signing_alg_values_supported",
        );
        if let Some(alg) = self.signing_alg() {
            if supported.iter().any(|m| m == "private_key_jwt")
                && (algs.is_empty() || algs.iter().any(|a| a == alg))
            {
                return "private_key_jwt".into();
            }
        }
        auth_method(
            &supported,
            text(&self.meta, "registered_auth_method"),
            client.client_secret.is_some(),
        )
    }

    /// A token request with `grant` and the resource, authenticated the
    /// way the server supports (A-CLIENT-AUTH): sent at once, or first
    /// signed by the caller when its assertion needs a signature.
    pub(super) fn token_call(&mut self, grant: &[(&str, &str)]) -> Next {
        let client = self.client.clone().unwrap_or(Credentials {
            client_id: String::new(),
            client_secret: None,
        });
        let method = self.token_auth_method(&client);
        let grant_type = grant
            .iter()
            .find(|(k, _)| *k == "grant_type")
            .map_or("", |(_, v)| *v)
            .to_string();
        if grant_type == "authorization_code" {
            self.decide(
                &[rules::A_CLIENT_AUTH, rules::A_PKCE, rules::A_RESOURCE],
                crate::note!(
                    "auth.client.token",
                    "The client trades the code for a token with its PKCE verifier and the resource, authenticating with {method}.",
                    method = method
                ),
            );
        } else {
            self.decide(
                &[rules::A_CLIENT_AUTH, rules::A_RESOURCE],
                crate::note!(
                    "auth.client.token_grant",
                    "The client asks the token endpoint for a token with the grant {grant} and the resource, authenticating with {method}.",
                    grant = grant_type,
                    method = method
                ),
            );
        }
        self.grant = grant_type;
        let mut pairs = grant.to_vec();
        pairs.push(("resource", self.resource.as_str()));
        let mut headers = vec![
            (
                "Content-Type".to_string(),
                "application/x-www-form-urlencoded".to_string(),
            ),
            ("Accept".to_string(), "application/json".to_string()),
        ];
        let secret = client.client_secret.clone().unwrap_or_default();
        match method.as_str() {
            "client_secret_basic" => {
                use base64::Engine as _;
                let raw = format!("{}:{}", encode(&client.client_id), encode(&secret));
                let b64 = base64::engine::general_purpose::STANDARD.encode(raw);
                headers.push(("Authorization".into(), format!("Basic {b64}")));
            }
            "client_secret_post" => {
                pairs.push(("client_id", client.client_id.as_str()));
                pairs.push(("client_secret", secret.as_str()));
            }
            "private_key_jwt" => {
                pairs.push(("client_id", client.client_id.as_str()));
                pairs.push(("client_assertion_type", ASSERTION_TYPE));
            }
            _ => pairs.push(("client_id", client.client_id.as_str())),
        }
        let call = Call {
            method: "POST".into(),
            url: text(&self.meta, "token_endpoint")
                .unwrap_or_default()
                .to_string(),
            headers,
            body: form(&pairs),
            dpop: self.dpop.clone(),
        };
        let Some(alg) = self.signing_alg().filter(|_| method == "private_key_jwt") else {
            self.phase = Phase::Token;
            self.last_token_call = Some(call.clone());
            return Next::Send(call);
        };
        let alg = alg.to_string();
        self.decide(
            &[rules::A_CLIENT_JWT_ASSERTION],
            crate::note!(
                "auth.client.assertion",
                "The authorization server takes `private_key_jwt`: the client authenticates with a JWT signed with its {alg} key, issued by and about {client} for {issuer}, valid one minute.",
                alg = alg,
                client = client.client_id,
                issuer = self.issuer
            ),
        );
        let input = signing_input(
            &alg,
            &client.client_id,
            &self.issuer,
            self.setup.now,
            &self.setup.jti,
        );
        self.phase = Phase::Signing {
            call,
            input: input.clone(),
        };
        Next::Sign { alg, input }
    }

    /// Takes the signature of the input of [`Next::Sign`] (base64url), or
    /// why the caller could not sign, and says what comes next: the token
    /// request with its client assertion (A-CLIENT-JWT-ASSERTION).
    pub fn signed(&mut self, signature: Result<String, String>) -> Next {
        let Phase::Signing { mut call, input } = self.phase.clone() else {
            return Next::Refused;
        };
        match signature {
            Ok(signature) => {
                let assertion = format!("{input}.{signature}");
                call.body
                    .push_str(&format!("&client_assertion={}", encode(&assertion)));
                self.phase = Phase::Token;
                self.last_token_call = Some(call.clone());
                Next::Send(call)
            }
            Err(reason) => self.refuse(
                &[rules::A_CLIENT_JWT_ASSERTION],
                crate::note!(
                    "auth.client.unsigned",
                    "The client could not sign its assertion ({reason}): it cannot authenticate, and stops.",
                    reason = reason
                ),
            ),
        }
    }

    /// The token request again, its proof carrying the nonce the token
    /// endpoint asked for; once only (A-DPOP-NONCE).
    fn nonce_retry(&mut self, answer: &Result<Answer, String>) -> Option<Next> {
        let asked = self.dpop.as_ref()?;
        if asked.nonce.is_some() {
            return None;
        }
        let nonce = dpop::asked_nonce(answer.as_ref().ok()?)?;
        let mut call = self.last_token_call.clone()?;
        self.decide(
            &[rules::A_DPOP_NONCE],
            crate::note!(
                "auth.client.dpop_nonce_token",
                "The token endpoint answers `use_dpop_nonce` with the nonce {nonce}: the client sends the token request again, with a fresh proof carrying it.",
                nonce = nonce
            ),
        );
        let with_nonce = ProofAsked { nonce: Some(nonce) };
        call.dpop = Some(with_nonce.clone());
        self.dpop = Some(with_nonce);
        Some(Next::Send(call))
    }

    pub(super) fn on_token(&mut self, answer: &Result<Answer, String>) -> Next {
        if let Some(next) = self.nonce_retry(answer) {
            return next;
        }
        let doc = document(answer);
        let token = doc
            .as_ref()
            .and_then(|doc| text(doc, "access_token").map(str::to_string));
        let bound = self.dpop.is_some()
            && doc
                .as_ref()
                .and_then(|doc| text(doc, "token_type"))
                .is_some_and(|t| t.eq_ignore_ascii_case("DPoP"));
        self.phase = Phase::Done;
        match token {
            Some(token) if bound => {
                self.bound = true;
                self.decide(
                    &[rules::A_DPOP_PRESENT],
                    crate::note!(
                        "auth.client.authorized_dpop",
                        "The client has a DPoP-bound access token: it sends it as `Authorization: DPoP` with every request to the server, each with a fresh proof naming the method, the URL and the token's hash (`ath`)."
                    ),
                );
                Next::Authorized(token)
            }
            Some(token) => {
                self.decide(
                    &[rules::A_BEARER],
                    crate::note!(
                        "auth.client.authorized",
                        "The client has an access token: it sends it as `Authorization: Bearer` with every request to the server."
                    ),
                );
                Next::Authorized(token)
            }
            None if self.grant == JWT_BEARER => {
                let error = oauth_error(answer);
                self.refuse(
                    &[rules::A_JWT_BEARER_GRANT],
                    crate::note!(
                        "auth.client.grant_refused",
                        "The token endpoint refused the JWT-bearer grant ({error}): the client reports it, and neither retries nor switches grants.",
                        error = error
                    ),
                )
            }
            None => self.refuse(
                &[rules::A_PKCE],
                crate::note!(
                    "auth.client.token_refused",
                    "The token endpoint issued no token: the client stops."
                ),
            ),
        }
    }
}

/// The OAuth `error` of a refusal (RFC 6749 §5.2), its HTTP status, or
/// why there was no answer.
pub(super) fn oauth_error(answer: &Result<Answer, String>) -> String {
    match answer {
        Ok(a) => serde_json::from_str::<Value>(&a.body)
            .ok()
            .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_else(|| format!("HTTP {}", a.status)),
        Err(reason) => reason.clone(),
    }
}
