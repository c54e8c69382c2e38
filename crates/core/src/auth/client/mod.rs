//! The client's side of the authorization flow against a real server,
//! sans-IO: after an HTTP 401, [`Authorizer`] says which request to send
//! next (protected resource metadata, authorization server metadata,
//! registration, the authorization request, the token request) and reads
//! each answer, until it holds an access token or refuses to go on. Every
//! decision is recorded with its rules ([`Authorizer::decisions`]). The
//! caller does the HTTP, and supplies the randomness (the PKCE verifier,
//! the `state`, a JWT ID), the time and the signatures (a client's key
//! stays with the caller, [`Next::Sign`]): nothing here reads a clock,
//! draws a number or holds a private key. Besides the authorization code
//! flow, the grants without a user of the OAuth extensions ([`Extension`]):
//! client credentials (with a secret or a signed JWT), the JWT-bearer
//! grant of a workload, and enterprise-managed authorization (ID-JAG).
//! With DPoP ([`dpop`]) the caller also holds the key and signs each proof.

use serde_json::{Map, Value};

mod assertion;
mod choose;
pub mod dpop;
mod grants;
mod token;
mod wire;

pub use assertion::{signing_input, ASSERTION_TYPE};
pub use choose::{auth_method, resource_matches, select_scope, step_up_scope};
pub use grants::JWT_BEARER;
use wire::{document, form, get, strings, text};
pub use wire::{encode, query};

use super::pkce;
use crate::check::protection::challenge::{self, Challenge};
use crate::check::protection::Answer;
use crate::note::Note;
use crate::rules::{self, RuleId};

/// A client ID and, for a confidential client, its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The client ID.
    pub client_id: String,
    /// The client secret, if the client has one.
    pub client_secret: Option<String>,
}

/// What a client holds, besides a secret, for a grant without a user
/// (the OAuth extensions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extension {
    /// A private key, kept by the caller: the client authenticates with a
    /// JWT signed with it, algorithm `alg` (`private_key_jwt`,
    /// A-CLIENT-JWT-ASSERTION).
    SigningKey {
        /// The JWS algorithm (`ES256`).
        alg: String,
    },
    /// A workload identity JWT issued for the authorization server: the
    /// assertion of the JWT-bearer grant (A-JWT-BEARER-GRANT).
    WorkloadJwt(String),
    /// An ID token of the enterprise's identity provider, traded there for
    /// an ID-JAG, itself the assertion of the JWT-bearer grant (A-ID-JAG).
    IdToken {
        /// The ID token.
        id_token: String,
        /// The identity provider's token endpoint.
        token_endpoint: String,
        /// The client's ID at the identity provider.
        client_id: String,
    },
}

/// What the client brings to the flow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The MCP endpoint's URL, as called.
    pub endpoint: String,
    /// Where the authorization server sends the user back.
    pub redirect_uri: String,
    /// The PKCE code verifier (random, from the caller).
    pub verifier: String,
    /// The `state` of the authorization request (random, from the caller).
    pub state: String,
    /// The client's Client ID Metadata Document URL.
    pub metadata_url: String,
    /// The client's name, for dynamic registration.
    pub client_name: String,
    /// Credentials agreed beforehand, if any.
    pub pre_registered: Option<Credentials>,
    /// The scopes asked for by the last authorization, when this one
    /// follows a 403 `insufficient_scope` (a step-up asks for the union).
    pub granted: Vec<String>,
    /// What the client holds for a grant without a user, if anything.
    pub extension: Option<Extension>,
    /// The time, in seconds since the Unix epoch (from the caller): a
    /// signed assertion's `iat` and `exp`.
    pub now: u64,
    /// A fresh random identifier (from the caller): a signed assertion's
    /// `jti`.
    pub jti: String,
    /// Whether the caller can sign DPoP proofs with [`dpop::ALG`] (RFC
    /// 9449): it holds the key pair, the core never sees its private half.
    pub dpop: bool,
}

/// A DPoP proof the caller adds to a request (header `DPoP`), made for
/// its method and URL (A-DPOP-PROOF).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofAsked {
    /// The server's nonce to put in the proof, once one asked for it
    /// (A-DPOP-NONCE).
    pub nonce: Option<String>,
}

/// One HTTP request to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// `GET` or `POST`.
    pub method: String,
    /// The absolute URL.
    pub url: String,
    /// The headers.
    pub headers: Vec<(String, String)>,
    /// The body (empty for GET).
    pub body: String,
    /// The DPoP proof to add, if any.
    pub dpop: Option<ProofAsked>,
}

/// What to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Send this request and hand its answer to [`Authorizer::answer`].
    Send(Call),
    /// The flow is done: send `Authorization: Bearer` with this token.
    Authorized(String),
    /// The client does not go on (the last decision says why).
    Refused,
    /// Sign `input` (a JWS signing input) with the client's key and
    /// algorithm `alg`, and hand the signature to [`Authorizer::signed`].
    Sign {
        /// The JWS algorithm.
        alg: String,
        /// The base64url header and claims, joined by a dot.
        input: String,
    },
}

/// One decision of the flow, for the reader.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The rules behind it.
    pub rules: Vec<RuleId>,
    /// What was decided.
    pub note: Note,
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Resource { urls: Vec<String>, at: usize },
    Server { urls: Vec<String>, at: usize },
    Register,
    Authorize,
    Signing { call: Call, input: String },
    Exchange,
    Token,
    Done,
}

/// The flow, one request at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Authorizer {
    setup: Setup,
    phase: Phase,
    challenge: Option<Challenge>,
    resource: String,
    scopes_supported: Vec<String>,
    issuer: String,
    meta: Map<String, Value>,
    client: Option<Credentials>,
    scope: Option<String>,
    grant: String,
    /// The proof every token request carries, once the client chose DPoP.
    dpop: Option<ProofAsked>,
    /// The token request last sent (sent again with a nonce).
    last_token_call: Option<Call>,
    /// Whether the token is DPoP-bound.
    bound: bool,
    /// The decisions so far, in order.
    pub decisions: Vec<Decision>,
}

impl Authorizer {
    /// The scope the authorization request asked for, once sent.
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// Whether the token is bound to the caller's DPoP key (`token_type`
    /// `DPoP`): it goes as `Authorization: DPoP`, each request with a fresh
    /// proof (A-DPOP-PRESENT).
    pub fn dpop_bound(&self) -> bool {
        self.bound
    }

    /// Starts the flow after `unauthorized`, the 401 to a request without
    /// a token: the first request to send.
    pub fn start(setup: Setup, unauthorized: &Answer) -> (Authorizer, Next) {
        let challenge = challenge::bearer(&unauthorized.headers)
            .or_else(|| dpop::challenge(&unauthorized.headers));
        let named = challenge
            .as_ref()
            .and_then(|c| c.param("resource_metadata"))
            .filter(|url| challenge::origin_and_path(url).is_some())
            .map(str::to_string);
        let mut urls: Vec<String> = named.iter().cloned().collect();
        for url in challenge::prm_well_known(&setup.endpoint) {
            if !urls.contains(&url) {
                urls.push(url);
            }
        }
        let note = match &named {
            Some(url) => crate::note!(
                "auth.client.prm_named",
                "HTTP 401: the challenge names the protected resource metadata at {url}; the client reads it.",
                url = url
            ),
            None => crate::note!(
                "auth.client.prm_well_known",
                "HTTP 401 without `resource_metadata`: the client tries the well-known URIs of the endpoint, path first."
            ),
        };
        let mut auth = Authorizer {
            setup,
            phase: Phase::Resource { urls, at: 0 },
            challenge,
            resource: String::new(),
            scopes_supported: Vec::new(),
            issuer: String::new(),
            meta: Map::new(),
            client: None,
            scope: None,
            grant: String::new(),
            dpop: None,
            last_token_call: None,
            bound: false,
            decisions: Vec::new(),
        };
        auth.decide(&[rules::A_CHALLENGE, rules::A_PRM], note);
        let next = auth.send_current();
        (auth, next)
    }

    fn decide(&mut self, rules: &[RuleId], note: Note) {
        self.decisions.push(Decision {
            rules: rules.to_vec(),
            note,
        });
    }

    fn refuse(&mut self, rules: &[RuleId], note: Note) -> Next {
        self.decide(rules, note);
        self.phase = Phase::Done;
        Next::Refused
    }

    fn send_current(&mut self) -> Next {
        match &self.phase {
            Phase::Resource { urls, at } | Phase::Server { urls, at } => match urls.get(*at) {
                Some(url) => Next::Send(get(url)),
                None if matches!(self.phase, Phase::Resource { .. }) => self.refuse(
                    &[rules::A_PRM],
                    crate::note!(
                        "auth.client.no_prm",
                        "No protected resource metadata at any of its URLs: the client cannot learn the authorization server, and stops."
                    ),
                ),
                None => self.refuse(
                    &[rules::A_AS_METADATA],
                    crate::note!(
                        "auth.client.no_as_metadata",
                        "No authorization server metadata at any well-known URI: the client stops."
                    ),
                ),
            },
            Phase::Register => self.register(),
            Phase::Authorize => self.grant(),
            Phase::Signing { .. } | Phase::Exchange | Phase::Token | Phase::Done => Next::Refused,
        }
    }

    /// Reads the answer to the last request sent (or why there was none)
    /// and says what comes next.
    pub fn answer(&mut self, answer: &Result<Answer, String>) -> Next {
        match self.phase.clone() {
            Phase::Resource { urls, at } => self.on_resource(answer, urls, at),
            Phase::Server { urls, at } => self.on_server(answer, urls, at),
            Phase::Register => self.on_registration(answer),
            Phase::Authorize => self.on_authorization(answer),
            Phase::Exchange => self.on_exchange(answer),
            Phase::Token => self.on_token(answer),
            Phase::Signing { .. } | Phase::Done => Next::Refused,
        }
    }

    fn on_resource(
        &mut self,
        answer: &Result<Answer, String>,
        urls: Vec<String>,
        at: usize,
    ) -> Next {
        let Some(doc) = document(answer) else {
            self.phase = Phase::Resource { urls, at: at + 1 };
            return self.send_current();
        };
        let resource = text(&doc, "resource").unwrap_or_default().to_string();
        if !resource_matches(&resource, &self.setup.endpoint) {
            return self.refuse(
                &[rules::A_PRM],
                crate::note!(
                    "auth.client.resource_mismatch",
                    "The metadata is for {resource}, not for {endpoint}: the client refuses it and asks no authorization server.",
                    resource = resource,
                    endpoint = self.setup.endpoint
                ),
            );
        }
        let Some(issuer) = strings(&doc, "authorization_servers").into_iter().next() else {
            return self.refuse(
                &[rules::A_PRM],
                crate::note!(
                    "auth.client.no_authorization_server",
                    "The protected resource metadata names no authorization server: the client stops."
                ),
            );
        };
        self.resource = resource;
        self.scopes_supported = strings(&doc, "scopes_supported");
        let urls = challenge::as_well_known(&issuer);
        self.decide(
            &[rules::A_PRM, rules::A_AS_METADATA],
            crate::note!(
                "auth.client.prm_read",
                "The metadata names the resource {resource} and its authorization server {issuer}: the client reads the server's metadata, RFC 8414 first, then OpenID Connect.",
                resource = self.resource,
                issuer = issuer
            ),
        );
        self.issuer = issuer;
        self.phase = Phase::Server { urls, at: 0 };
        self.send_current()
    }

    fn on_server(&mut self, answer: &Result<Answer, String>, urls: Vec<String>, at: usize) -> Next {
        let Some(doc) = document(answer) else {
            self.phase = Phase::Server { urls, at: at + 1 };
            return self.send_current();
        };
        let named = text(&doc, "issuer").unwrap_or_default().to_string();
        if named != self.issuer {
            return self.refuse(
                &[rules::A_AS_METADATA],
                crate::note!(
                    "auth.client.issuer_mismatch",
                    "The metadata says its issuer is {named}, not {issuer} whose well-known URI was read: the client uses nothing in it.",
                    named = named,
                    issuer = self.issuer
                ),
            );
        }
        if !strings(&doc, "code_challenge_methods_supported")
            .iter()
            .any(|m| m == "S256")
        {
            return self.refuse(
                &[rules::A_AS_METADATA, rules::A_PKCE],
                crate::note!(
                    "auth.client.no_s256",
                    "The authorization server does not list S256 in `code_challenge_methods_supported`: PKCE cannot be relied on, and the client stops."
                ),
            );
        }
        if self.setup.dpop && dpop::supported(&doc) {
            self.decide(
                &[rules::A_DPOP_PROOF],
                crate::note!(
                    "auth.client.dpop",
                    "The authorization server takes DPoP proofs signed with ES256 (`dpop_signing_alg_values_supported`): the client binds its token to a key pair of its own, proving it with a signed proof at the token endpoint."
                ),
            );
            self.dpop = Some(ProofAsked { nonce: None });
        }
        self.meta = doc;
        self.phase = Phase::Register;
        self.send_current()
    }

    fn register(&mut self) -> Next {
        if let Some(creds) = self.setup.pre_registered.clone() {
            self.decide(
                &[rules::A_REGISTER],
                crate::note!(
                    "auth.client.pre_registered",
                    "The client has credentials agreed beforehand: client ID {id}.",
                    id = creds.client_id
                ),
            );
            self.client = Some(creds);
            self.phase = Phase::Authorize;
            return self.send_current();
        }
        if self.meta.get("client_id_metadata_document_supported") == Some(&Value::Bool(true)) {
            self.decide(
                &[rules::A_REGISTER],
                crate::note!(
                    "auth.client.metadata_document",
                    "The authorization server supports Client ID Metadata Documents: the client ID is the document's URL, {url}.",
                    url = self.setup.metadata_url
                ),
            );
            self.client = Some(Credentials {
                client_id: self.setup.metadata_url.clone(),
                client_secret: None,
            });
            self.phase = Phase::Authorize;
            return self.send_current();
        }
        let Some(endpoint) = text(&self.meta, "registration_endpoint").map(str::to_string) else {
            return self.refuse(
                &[rules::A_REGISTER],
                crate::note!(
                    "auth.client.no_registration",
                    "No pre-registered client ID, no Client ID Metadata Document support and no registration endpoint: the client cannot get a client ID."
                ),
            );
        };
        self.decide(
            &[rules::A_REGISTER],
            crate::note!(
                "auth.client.dynamic",
                "No pre-registered client ID and no Client ID Metadata Document support: the client registers dynamically at {url}.",
                url = endpoint
            ),
        );
        let method = auth_method(
            &strings(&self.meta, "token_endpoint_auth_methods_supported"),
            None,
            true,
        );
        let body = serde_json::json!({
            "client_name": self.setup.client_name,
            "redirect_uris": [self.setup.redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": method,
            "application_type": "native",
        });
        Next::Send(Call {
            method: "POST".into(),
            url: endpoint,
            headers: vec![
                ("Content-Type".into(), "application/json".into()),
                ("Accept".into(), "application/json".into()),
            ],
            body: body.to_string(),
            dpop: None,
        })
    }

    fn on_registration(&mut self, answer: &Result<Answer, String>) -> Next {
        let Some(doc) = document(answer) else {
            return self.refuse(
                &[rules::A_REGISTER],
                crate::note!(
                    "auth.client.registration_failed",
                    "The dynamic registration failed: the client has no client ID, and stops."
                ),
            );
        };
        let Some(id) = text(&doc, "client_id") else {
            return self.refuse(
                &[rules::A_REGISTER],
                crate::note!(
                    "auth.client.registration_failed",
                    "The dynamic registration failed: the client has no client ID, and stops."
                ),
            );
        };
        self.client = Some(Credentials {
            client_id: id.to_string(),
            client_secret: text(&doc, "client_secret").map(str::to_string),
        });
        if let Some(m) = text(&doc, "token_endpoint_auth_method") {
            self.meta
                .insert("registered_auth_method".into(), Value::String(m.into()));
        }
        self.phase = Phase::Authorize;
        self.send_current()
    }

    fn authorization_request(&mut self) -> Call {
        let challenged = self.challenge.as_ref().and_then(|c| c.param("scope"));
        let step_up = self
            .challenge
            .as_ref()
            .and_then(|c| c.param("error"))
            .is_some_and(|e| e == "insufficient_scope");
        self.scope = if step_up {
            step_up_scope(&self.setup.granted, challenged)
        } else {
            select_scope(challenged, &self.scopes_supported)
        };
        if step_up {
            self.decide(
                &[rules::A_SCOPE_STEP_UP],
                crate::note!(
                    "auth.client.step_up",
                    "HTTP 403 `insufficient_scope`: the client authorizes again, asking for the scopes it had and those challenged."
                ),
            );
        }
        let scope_note = match &self.scope {
            Some(s) => s.clone(),
            None => "-".to_string(),
        };
        self.decide(
            &[rules::A_SCOPE_SELECT, rules::A_PKCE, rules::A_RESOURCE, rules::A_ISS],
            crate::note!(
                "auth.client.authorize",
                "The client sends the user to the authorization server: PKCE S256, resource {resource}, scope {scope}; it keeps the issuer {issuer} to compare with the answer's `iss`.",
                resource = self.resource,
                scope = scope_note,
                issuer = self.issuer
            ),
        );
        let client_id = self
            .client
            .as_ref()
            .map(|c| c.client_id.clone())
            .unwrap_or_default();
        let challenge = pkce::s256(&self.setup.verifier);
        let mut pairs = vec![
            ("response_type", "code"),
            ("client_id", client_id.as_str()),
            ("redirect_uri", self.setup.redirect_uri.as_str()),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("state", self.setup.state.as_str()),
            ("resource", self.resource.as_str()),
        ];
        if let Some(s) = &self.scope {
            pairs.push(("scope", s.as_str()));
        }
        let endpoint = text(&self.meta, "authorization_endpoint").unwrap_or_default();
        let sep = if endpoint.contains('?') { '&' } else { '?' };
        let url = format!("{endpoint}{sep}{}", form(&pairs));
        let call = get(&url);
        self.phase = Phase::Authorize;
        call
    }

    /// Whether the server grants tokens to clients alone: no
    /// `authorization_code` among its grant types, `client_credentials`
    /// there, and a client with a secret or a signing key
    /// (A-CLIENT-CREDENTIALS).
    fn machine_grant(&self) -> bool {
        let grants = strings(&self.meta, "grant_types_supported");
        let has_secret = self
            .client
            .as_ref()
            .is_some_and(|c| c.client_secret.is_some());
        (has_secret || self.signing_alg().is_some())
            && !grants.is_empty()
            && !grants.iter().any(|g| g == "authorization_code")
            && grants.iter().any(|g| g == "client_credentials")
    }

    /// The token request of the client credentials grant: no user, no
    /// code; the client authenticates itself.
    fn client_credentials(&mut self) -> Next {
        self.machine_scope();
        self.decide(
            &[rules::A_CLIENT_CREDENTIALS, rules::A_RESOURCE],
            crate::note!(
                "auth.client.client_credentials",
                "The authorization server grants only client credentials: no user is asked, the client authenticates itself at the token endpoint for resource {resource}.",
                resource = self.resource
            ),
        );
        let scope = self.scope.clone();
        let mut grant = vec![("grant_type", "client_credentials")];
        if let Some(scope) = &scope {
            grant.push(("scope", scope.as_str()));
        }
        self.token_call(&grant)
    }

    fn on_authorization(&mut self, answer: &Result<Answer, String>) -> Next {
        let location = answer.as_ref().ok().and_then(|a| {
            a.headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("location"))
                .map(|(_, v)| v.clone())
        });
        let params = query(location.as_deref().unwrap_or_default());
        let param = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let (Some(code), true) = (
            param("code"),
            param("state").as_deref() == Some(&self.setup.state),
        ) else {
            return self.refuse(
                &[rules::A_CONSENT],
                crate::note!(
                    "auth.client.no_code",
                    "The authorization response carries no code for this request's state: the client stops."
                ),
            );
        };
        let advertised = self
            .meta
            .get("authorization_response_iss_parameter_supported")
            == Some(&Value::Bool(true));
        match param("iss") {
            Some(iss) if iss != self.issuer => {
                return self.refuse(
                    &[rules::A_ISS],
                    crate::note!(
                        "auth.client.iss_mismatch",
                        "The authorization response says `iss` {iss}, not {issuer}: the client sends the code nowhere.",
                        iss = iss,
                        issuer = self.issuer
                    ),
                );
            }
            None if advertised => {
                return self.refuse(
                    &[rules::A_ISS],
                    crate::note!(
                        "auth.client.iss_missing",
                        "The authorization server promised `iss` in its responses, and this one has none: the client sends the code nowhere."
                    ),
                );
            }
            _ => {}
        }
        self.token_request(&code)
    }

    fn token_request(&mut self, code: &str) -> Next {
        let redirect = self.setup.redirect_uri.clone();
        let verifier = self.setup.verifier.clone();
        self.token_call(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect.as_str()),
            ("code_verifier", verifier.as_str()),
        ])
    }
}
