//! The verdicts of a protection check, one family of observations each.

use crate::check::exchange::short;
use crate::check::verdict::{Outcome, Verdict};
use crate::note;
use crate::note::Note;
use crate::rules;

use super::challenge::{self, Challenge};
use super::{Answer, Fetch, Observations};

/// The verdicts on A-CHALLENGE, A-PRM, A-AS-METADATA, A-AUDIENCE and
/// A-SCOPE-STEP-UP (run-wide: `exchange` is `None`). A server that asked
/// for no token gets n/a on all of them, saying so.
pub fn grade(obs: &Observations) -> Vec<Verdict> {
    let mut out = Vec::new();
    if !obs.protected() {
        let why = match obs.unauthenticated.as_ref().map(|f| &f.answer) {
            Some(Ok(a)) => note!(
                "check.auth.na_open",
                "not exercised: a request without a token got HTTP {status}, so the server does not ask for authorization (it may not: authorization is optional)",
                status = a.status
            ),
            Some(Err(why)) => note!(
                "check.auth.na_no_answer",
                "not exercised: the request without a token got no answer ({why})",
                why = short(why, 120)
            ),
            None => note!(
                "check.auth.na_not_probed",
                "not exercised: authorization applies to HTTP, and nothing was asked over HTTP"
            ),
        };
        for rule in super::RULES {
            out.push(Verdict::new(
                rule,
                Outcome::NotApplicable,
                expected(rule),
                why.clone(),
                None,
            ));
        }
        return out;
    }
    judge_challenge(obs, &mut out);
    let issuer = judge_prm(obs, &mut out);
    judge_as(obs, issuer.as_deref(), &mut out);
    judge_audience(obs, &mut out);
    judge_scope(obs, &mut out);
    out
}

pub(crate) fn expected(rule: &str) -> Note {
    match rule {
        r if r == rules::A_CHALLENGE => note!(
            "check.auth.exp_challenge",
            "HTTP 401 with `WWW-Authenticate: Bearer resource_metadata=\"…\"`"
        ),
        r if r == rules::A_PRM => note!(
            "check.auth.exp_prm",
            "protected resource metadata naming this server as `resource` and its `authorization_servers`"
        ),
        r if r == rules::A_AS_METADATA => note!(
            "check.auth.exp_as",
            "authorization server metadata with the same `issuer` and `code_challenge_methods_supported` with S256"
        ),
        r if r == rules::A_AUDIENCE => note!(
            "check.auth.exp_audience",
            "a token issued for this server accepted; one for another resource refused with 401"
        ),
        _ => note!(
            "check.auth.exp_scope",
            "a token short of scope refused with 403, `error=\"insufficient_scope\"` and the `scope` needed"
        ),
    }
}

fn push(out: &mut Vec<Verdict>, rule: &'static str, outcome: Outcome, got: Note) {
    out.push(Verdict::new(rule, outcome, expected(rule), got, None));
}

/// Pass or fail on `rule`, as an outcome function said.
fn push_judged(out: &mut Vec<Verdict>, rule: &'static str, (ok, got): (bool, Note)) {
    let outcome = if ok { Outcome::Pass } else { Outcome::Fail };
    push(out, rule, outcome, got);
}

fn answer(fetch: &Fetch) -> Result<&Answer, Note> {
    fetch.answer.as_ref().map_err(|why| {
        note!(
            "check.auth.fetch_failed",
            "{url}: no answer ({why}).",
            url = short(&fetch.url, 120),
            why = short(why, 120)
        )
    })
}

fn judge_challenge(obs: &Observations, out: &mut Vec<Verdict>) {
    let Some(Ok(a)) = obs.unauthenticated.as_ref().map(|f| &f.answer) else {
        return;
    };
    push_judged(out, rules::A_CHALLENGE, challenge_outcome(a));
}

/// A-CHALLENGE on the answer to a request without a (good) token: 401
/// with a Bearer challenge naming its metadata by an absolute URL. Also
/// what a recording's 401s are judged by.
pub(crate) fn challenge_outcome(a: &Answer) -> (bool, Note) {
    let headers: Vec<String> = a
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("www-authenticate"))
        .map(|(_, v)| v.clone())
        .collect();
    let bearer: Option<Challenge> = challenge::bearer(&a.headers);
    let (ok, got) = if a.status != 401 {
        (false, note!(
            "check.auth.challenge_status",
            "a request without a token got HTTP {status}; a missing token is answered 401 (403 is for a valid token short of scope)",
            status = a.status
        ))
    } else if headers.is_empty() {
        (false, note!(
            "check.auth.challenge_no_header",
            "HTTP 401 without a `WWW-Authenticate` header: the client cannot learn where to authorize; add `WWW-Authenticate: Bearer resource_metadata=\"…\"`"
        ))
    } else if let Some(c) = bearer {
        match c.param("resource_metadata") {
            Some(url) if challenge::origin_and_path(url).is_some() => (true, note!(
                "check.auth.challenge_ok",
                "HTTP 401 with a Bearer challenge naming {url}",
                url = short(url, 120)
            )),
            Some(url) => (false, note!(
                "check.auth.challenge_bad_url",
                "the Bearer challenge's `resource_metadata` is {url}, not an absolute URL",
                url = short(url, 120)
            )),
            None => (false, note!(
                "check.auth.challenge_no_prm",
                "the Bearer challenge has no `resource_metadata`: add `resource_metadata=\"…\"` with the URL of the protected resource metadata ({header})",
                header = short(&headers.join(", "), 120)
            )),
        }
    } else {
        (false, note!(
            "check.auth.challenge_not_bearer",
            "`WWW-Authenticate: {header}` is not a Bearer challenge; MCP servers challenge with `Bearer resource_metadata=\"…\"`",
            header = short(&headers.join(", "), 120)
        ))
    };
    (ok, got)
}

/// What each fetch of a metadata document answered (none was a document).
fn tried(fetches: &[Fetch]) -> Vec<Note> {
    fetches
        .iter()
        .map(|f| match answer(f) {
            Ok(a) => note!(
                "check.auth.prm_status",
                "{url} answered HTTP {status}.",
                url = short(&f.url, 120),
                status = a.status
            ),
            Err(n) => n,
        })
        .collect()
}

/// Judges the protected resource metadata; returns the issuer it names.
fn judge_prm(obs: &Observations, out: &mut Vec<Verdict>) -> Option<String> {
    let Some(doc) = obs.prm.iter().find_map(Fetch::document) else {
        let tried = tried(&obs.prm);
        let got = if tried.is_empty() {
            note!(
                "check.auth.prm_nowhere",
                "no URL to fetch the protected resource metadata from"
            )
        } else {
            note!(
                "check.auth.prm_missing",
                "no protected resource metadata (a 200 with a JSON object); publish it (RFC 9728) where the challenge's `resource_metadata` says. Tried: {tried}",
                tried = joined(tried)
            )
        };
        push(out, rules::A_PRM, Outcome::Fail, got);
        return None;
    };
    let resource = doc.get("resource").and_then(|v| v.as_str());
    let servers: Option<Vec<&str>> = doc
        .get("authorization_servers")
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|s| s.as_str()).collect());
    let got = match (resource, servers.as_deref()) {
        (None, _) => Some(note!(
            "check.auth.prm_no_resource",
            "the protected resource metadata has no `resource` string; it must name the server's canonical URI ({endpoint})",
            endpoint = obs.endpoint.clone()
        )),
        (Some(r), _) if !same_resource(r, &obs.endpoint) => Some(note!(
            "check.auth.prm_other_resource",
            "the protected resource metadata names `resource` {resource}, not this server ({endpoint}); a client must refuse it",
            resource = short(r, 120),
            endpoint = obs.endpoint.clone()
        )),
        (_, None) | (_, Some([])) => Some(note!(
            "check.auth.prm_no_servers",
            "the protected resource metadata lists no `authorization_servers`, so no client knows where to get a token"
        )),
        _ => None,
    };
    match got {
        Some(got) => {
            push(out, rules::A_PRM, Outcome::Fail, got);
            None
        }
        None => {
            let issuer = servers.and_then(|s| s.first().map(|s| s.to_string()));
            push(
                out,
                rules::A_PRM,
                Outcome::Pass,
                note!(
                    "check.auth.prm_ok",
                    "`resource` {resource}, authorization server {issuer}",
                    resource = short(resource.unwrap_or(""), 120),
                    issuer = short(issuer.as_deref().unwrap_or(""), 120)
                ),
            );
            issuer
        }
    }
}

/// The metadata's `resource` names the endpoint: equal but for a trailing
/// slash and the case of scheme and host.
fn same_resource(resource: &str, endpoint: &str) -> bool {
    let norm = |url: &str| -> Option<(String, String)> {
        let (origin, path) = challenge::origin_and_path(url)?;
        let query = url[origin.len()..].find('?').map(|_| url.to_string());
        Some((
            origin.to_ascii_lowercase(),
            query.unwrap_or_else(|| path.to_string()),
        ))
    };
    match (norm(resource), norm(endpoint)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn judge_as(obs: &Observations, issuer: Option<&str>, out: &mut Vec<Verdict>) {
    let Some(issuer) = issuer else {
        push(
            out,
            rules::A_AS_METADATA,
            Outcome::NotApplicable,
            note!(
                "check.auth.as_na_no_prm",
                "not checked: no usable protected resource metadata named an authorization server"
            ),
        );
        return;
    };
    if !issuer.starts_with("http://") && !issuer.starts_with("https://") {
        push(
            out,
            rules::A_AS_METADATA,
            Outcome::Fail,
            note!(
                "check.auth.as_bad_issuer",
                "the authorization server {issuer} is not an http(s) URL",
                issuer = short(issuer, 120)
            ),
        );
        return;
    }
    let unreachable: Vec<&Fetch> = obs
        .as_metadata
        .iter()
        .filter(|f| f.answer.is_err())
        .collect();
    let Some(doc) = obs.as_metadata.iter().find_map(Fetch::document) else {
        // Nothing fetched at all because the checker cannot (https): n/a.
        if obs.as_metadata.is_empty()
            || unreachable.len() == obs.as_metadata.len() && issuer.starts_with("https://")
        {
            push(
                out,
                rules::A_AS_METADATA,
                Outcome::NotApplicable,
                note!(
                    "check.auth.as_na_unfetched",
                    "not checked: the metadata of {issuer} could not be fetched from here ({why})",
                    issuer = short(issuer, 120),
                    why = unreachable
                        .first()
                        .and_then(|f| f.answer.as_ref().err())
                        .map(|w| short(w, 120))
                        .unwrap_or_default()
                ),
            );
            return;
        }
        let tried = tried(&obs.as_metadata);
        push(out, rules::A_AS_METADATA, Outcome::Fail, note!(
            "check.auth.as_missing",
            "the authorization server {issuer} is not reachable or publishes no metadata. Tried: {tried}",
            issuer = short(issuer, 120),
            tried = joined(tried)
        ));
        return;
    };
    let named = doc.get("issuer").and_then(|v| v.as_str());
    let s256 = doc
        .get("code_challenge_methods_supported")
        .and_then(|v| v.as_array())
        .is_some_and(|m| m.iter().any(|x| x.as_str() == Some("S256")));
    let (ok, got) = if named != Some(issuer) {
        (
            false,
            note!(
                "check.auth.as_issuer_mismatch",
                "the metadata's `issuer` is {named}, not {issuer} (compared as strings)",
                named = short(named.unwrap_or("(none)"), 120),
                issuer = short(issuer, 120)
            ),
        )
    } else if !s256 {
        (false, note!(
            "check.auth.as_no_pkce",
            "the metadata of {issuer} does not list S256 in `code_challenge_methods_supported`, so a client cannot rely on PKCE and must stop",
            issuer = short(issuer, 120)
        ))
    } else {
        (
            true,
            note!(
                "check.auth.as_ok",
                "metadata of {issuer}, with PKCE S256",
                issuer = short(issuer, 120)
            ),
        )
    };
    push_judged(out, rules::A_AS_METADATA, (ok, got));
}

fn judge_audience(obs: &Observations, out: &mut Vec<Verdict>) {
    if obs.token.is_none() && obs.other_audience.is_none() {
        push(
            out,
            rules::A_AUDIENCE,
            Outcome::NotApplicable,
            note!(
                "check.auth.na_no_token",
                "not applicable: no token given (`--token`, `--other-audience-token`)"
            ),
        );
        return;
    }
    if let Some(f) = &obs.token {
        let (outcome, got) = match answer(f) {
            Err(n) => (Outcome::Fail, n),
            Ok(a) if (200..300).contains(&a.status) => (Outcome::Pass, note!(
                "check.auth.token_ok",
                "the token given with `--token` was accepted (HTTP {status})",
                status = a.status
            )),
            Ok(a) => (Outcome::Fail, note!(
                "check.auth.token_refused",
                "the token given with `--token` was refused (HTTP {status}); if it is valid for this server, the server should accept it",
                status = a.status
            )),
        };
        push(out, rules::A_AUDIENCE, outcome, got);
    }
    let accepted = obs
        .token
        .as_ref()
        .and_then(|f| f.answer.as_ref().ok())
        .is_some_and(|a| (200..300).contains(&a.status));
    if let Some(f) = &obs.other_audience {
        let (outcome, got) = match answer(f) {
            Err(n) => (Outcome::Fail, n),
            // A refusal proves something only when a good token gets in:
            // a server that refuses every token refuses this one too.
            Ok(a) if a.status == 401 && !accepted => (Outcome::NotApplicable, note!(
                "check.auth.other_unproven",
                "not proven: a token for another resource got 401, but no token given with `--token` was accepted, and a server that refuses every token refuses this one too"
            )),
            Ok(a) if a.status == 401 => (Outcome::Pass, note!(
                "check.auth.other_refused",
                "a token issued for another resource was refused with HTTP 401, and the `--token` accepted"
            )),
            Ok(a) if (200..300).contains(&a.status) => (Outcome::Fail, note!(
                "check.auth.other_accepted",
                "a token issued for another resource was accepted (HTTP {status}): check each token's audience (`aud`) is this server, or any server's token works here",
                status = a.status
            )),
            Ok(a) => (Outcome::Fail, note!(
                "check.auth.other_status",
                "a token issued for another resource got HTTP {status}; an invalid token is answered 401",
                status = a.status
            )),
        };
        push(out, rules::A_AUDIENCE, outcome, got);
    }
}

fn judge_scope(obs: &Observations, out: &mut Vec<Verdict>) {
    let Some(f) = &obs.low_scope else {
        push(
            out,
            rules::A_SCOPE_STEP_UP,
            Outcome::NotApplicable,
            note!(
                "check.auth.na_no_low_scope",
                "not applicable: no token given (`--low-scope-token`)"
            ),
        );
        return;
    };
    let a = match answer(f) {
        Ok(a) => a,
        Err(n) => {
            push(out, rules::A_SCOPE_STEP_UP, Outcome::Fail, n);
            return;
        }
    };
    if (200..300).contains(&a.status) {
        push(out, rules::A_SCOPE_STEP_UP, Outcome::NotApplicable, note!(
            "check.auth.scope_enough",
            "not exercised: the check's request was allowed with the `--low-scope-token` (HTTP {status}), so it needed no more scope",
            status = a.status
        ));
        return;
    }
    push_judged(out, rules::A_SCOPE_STEP_UP, scope_outcome(a));
}

/// A-SCOPE-STEP-UP on the refusal of a valid token short of scope: 403,
/// `error="insufficient_scope"` and the `scope` needed. Also what a
/// recording's 403s with a Bearer challenge are judged by.
pub(crate) fn scope_outcome(a: &Answer) -> (bool, Note) {
    let c = challenge::bearer(&a.headers);
    let error = c.as_ref().and_then(|c| c.param("error"));
    let scope = c
        .as_ref()
        .and_then(|c| c.param("scope"))
        .filter(|s| !s.trim().is_empty());
    let (ok, got) = if a.status != 403 {
        (false, note!(
            "check.auth.scope_status",
            "a valid token short of scope got HTTP {status}; answer 403 so the client knows to ask for more scope, not for a new token",
            status = a.status
        ))
    } else if error != Some("insufficient_scope") {
        (
            false,
            note!(
                "check.auth.scope_no_error",
                "HTTP 403 without a Bearer challenge saying `error=\"insufficient_scope\"`"
            ),
        )
    } else if let Some(scope) = scope {
        (
            true,
            note!(
                "check.auth.scope_ok",
                "HTTP 403, insufficient_scope, scope \"{scope}\"",
                scope = short(scope, 120)
            ),
        )
    } else {
        (
            false,
            note!(
            "check.auth.scope_no_scope",
            "HTTP 403 with insufficient_scope but no `scope`: say every scope the request needs"
        ),
        )
    };
    (ok, got)
}

/// Sentences one after the other.
fn joined(notes: Vec<Note>) -> Note {
    let mut out = Note::default();
    for n in notes {
        out.push(n);
    }
    out
}
