//! Which grant the client uses once it has a client ID, and the grants
//! without a user beside client credentials: the JWT-bearer grant with a
//! workload's JWT (A-JWT-BEARER-GRANT), and enterprise-managed
//! authorization, an ID token traded at the identity provider for an
//! ID-JAG that is then the JWT-bearer grant's assertion (A-ID-JAG).

use super::token::oauth_error;
use super::wire::{document, form, strings, text};
use super::{select_scope, Authorizer, Call, Extension, Next, Phase};
use crate::check::protection::Answer;
use crate::rules;

/// The JWT-bearer grant type (RFC 7523 §2.1).
pub const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// The token exchange grant type (RFC 8693 §2.1).
const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
/// The token type of an OpenID Connect ID token (RFC 8693 §3).
const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";
/// The token type of an Identity Assertion JWT Authorization Grant.
const ID_JAG_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";

impl Authorizer {
    /// The grant, once the client has its ID: the JWT-bearer grant when
    /// the server takes it and the client holds a JWT for it (or an ID
    /// token to trade for one), client credentials when the server grants
    /// only those, else the authorization code flow.
    pub(super) fn grant(&mut self) -> Next {
        let jwt_bearer = strings(&self.meta, "grant_types_supported")
            .iter()
            .any(|g| g == JWT_BEARER);
        match self.setup.extension.clone() {
            Some(Extension::WorkloadJwt(jwt)) if jwt_bearer => self.workload(&jwt),
            Some(Extension::IdToken {
                id_token,
                token_endpoint,
                client_id,
            }) if jwt_bearer => self.exchange(&id_token, &token_endpoint, &client_id),
            _ if self.machine_grant() => self.client_credentials(),
            _ => Next::Send(self.authorization_request()),
        }
    }

    /// The scope of a grant without a user (A-SCOPE-SELECT).
    pub(super) fn machine_scope(&mut self) {
        let challenged = self.challenge.as_ref().and_then(|c| c.param("scope"));
        self.scope = select_scope(challenged, &self.scopes_supported);
    }

    /// The JWT-bearer grant with `assertion`, and the scope chosen.
    fn bearer_grant(&mut self, assertion: &str) -> Next {
        let scope = self.scope.clone();
        let mut grant = vec![("grant_type", JWT_BEARER), ("assertion", assertion)];
        if let Some(scope) = &scope {
            grant.push(("scope", scope.as_str()));
        }
        self.token_call(&grant)
    }

    fn workload(&mut self, jwt: &str) -> Next {
        self.machine_scope();
        self.decide(
            &[rules::A_JWT_BEARER_GRANT, rules::A_RESOURCE],
            crate::note!(
                "auth.client.workload",
                "The authorization server takes JWT-bearer grants and the client holds a workload identity token: it presents the token as the grant's assertion, with no user, for resource {resource}.",
                resource = self.resource
            ),
        );
        self.bearer_grant(jwt)
    }

    /// The token exchange at the identity provider: the ID token for an
    /// ID-JAG for this authorization server and resource (A-ID-JAG).
    fn exchange(&mut self, id_token: &str, endpoint: &str, client_id: &str) -> Next {
        self.machine_scope();
        self.decide(
            &[rules::A_ID_JAG, rules::A_RESOURCE],
            crate::note!(
                "auth.client.id_jag_exchange",
                "The authorization server takes JWT-bearer grants and the client holds an ID token of its identity provider: it first trades it at {idp} for an ID-JAG for {issuer} and resource {resource}.",
                idp = endpoint,
                issuer = self.issuer,
                resource = self.resource
            ),
        );
        let issuer = self.issuer.clone();
        let resource = self.resource.clone();
        let scope = self.scope.clone();
        let mut pairs = vec![
            ("grant_type", TOKEN_EXCHANGE),
            ("requested_token_type", ID_JAG_TYPE),
            ("audience", issuer.as_str()),
            ("resource", resource.as_str()),
            ("subject_token", id_token),
            ("subject_token_type", ID_TOKEN_TYPE),
            ("client_id", client_id),
        ];
        if let Some(scope) = &scope {
            pairs.push(("scope", scope.as_str()));
        }
        self.phase = Phase::Exchange;
        Next::Send(Call {
            method: "POST".into(),
            url: endpoint.to_string(),
            headers: vec![
                (
                    "Content-Type".into(),
                    "application/x-www-form-urlencoded".into(),
                ),
                ("Accept".into(), "application/json".into()),
            ],
            body: form(&pairs),
            // The identity provider's exchange is not DPoP-bound.
            dpop: None,
        })
    }

    /// The identity provider's answer: an ID-JAG, presented to the
    /// authorization server as a JWT-bearer grant (A-ID-JAG).
    pub(super) fn on_exchange(&mut self, answer: &Result<Answer, String>) -> Next {
        let doc = document(answer);
        let jag = doc.as_ref().and_then(|d| {
            let typed = text(d, "issued_token_type") == Some(ID_JAG_TYPE);
            text(d, "access_token")
                .filter(|_| typed)
                .map(str::to_string)
        });
        let Some(jag) = jag else {
            let error = match doc {
                Some(_) => format!("no {ID_JAG_TYPE}"),
                None => oauth_error(answer),
            };
            return self.refuse(
                &[rules::A_ID_JAG],
                crate::note!(
                    "auth.client.id_jag_refused",
                    "The identity provider issued no ID-JAG ({error}): the client stops.",
                    error = error
                ),
            );
        };
        self.decide(
            &[rules::A_ID_JAG, rules::A_JWT_BEARER_GRANT],
            crate::note!(
                "auth.client.id_jag",
                "The identity provider issued an ID-JAG: the client presents it to the authorization server as a JWT-bearer grant, authenticated as itself."
            ),
        );
        self.bearer_grant(&jag)
    }
}
