//! What a client with an identity (`ClientConfig::identity`) does with a
//! refusal of its token: a 401 or a 403 with `WWW-Authenticate`. This
//! client holds a token issued before the run and cannot get another, so
//! it gives up on the request and says why (A-CHALLENGE, A-SCOPE-STEP-UP).

use super::Client;
use crate::rules;
use crate::sim::SimTime;
use crate::transport::http::HttpResponse;

impl Client {
    /// Handles `response` if it is a challenge to a client with an
    /// identity: true when it did.
    pub(super) fn on_challenge(&mut self, now: SimTime, response: &HttpResponse) -> bool {
        let Some(identity) = &self.config.identity else {
            return false;
        };
        let Some(challenge) = response.header("WWW-Authenticate") else {
            return false;
        };
        let principal = identity.principal.clone();
        let challenge = challenge.to_string();
        match response.status {
            401 => self.abandon(now, &[rules::A_CHALLENGE, rules::H_STATUS], crate::note!("client.identity.unauthorized", "401 with `WWW-Authenticate: {challenge}`: the server wants a valid token for {principal}. This client holds none it could send, so it gives up on the request; a real one would now authorize.", challenge = challenge, principal = principal)),
            403 => self.abandon(now, &[rules::A_SCOPE_STEP_UP, rules::H_STATUS], crate::note!("client.identity.forbidden", "403 with `WWW-Authenticate: {challenge}`: {principal}'s token lacks a scope this call needs. This client cannot ask for more, so it gives up on the call; a real one would re-authorize with the scope named.", challenge = challenge, principal = principal)),
            _ => return false,
        }
        true
    }
}
