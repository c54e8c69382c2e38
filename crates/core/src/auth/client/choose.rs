//! The client's choices that depend on what the servers published: whether
//! metadata is for this resource (A-PRM), the token endpoint
//! authentication (A-CLIENT-AUTH), the scope (A-SCOPE-SELECT,
//! A-SCOPE-STEP-UP).

use crate::check::protection::challenge;

/// Whether protected resource metadata naming `resource` may be used for
/// `endpoint`: the same URL, or one of its parents on the same origin
/// (A-PRM).
pub fn resource_matches(resource: &str, endpoint: &str) -> bool {
    let (Some((ro, rp)), Some((eo, ep))) = (
        challenge::origin_and_path(resource),
        challenge::origin_and_path(endpoint),
    ) else {
        return false;
    };
    ro.eq_ignore_ascii_case(eo) && (rp == ep || ep.starts_with(&format!("{rp}/")))
}

/// The token endpoint authentication method to use: the registration's
/// own when the server supports it, else `client_secret_basic`, then
/// `client_secret_post` for a client with a secret, else `none`
/// (A-CLIENT-AUTH).
pub fn auth_method(supported: &[String], registered: Option<&str>, has_secret: bool) -> String {
    // RFC 8414: absent means client_secret_basic.
    let supported: Vec<&str> = if supported.is_empty() {
        vec!["client_secret_basic"]
    } else {
        supported.iter().map(String::as_str).collect()
    };
    if let Some(r) = registered.filter(|r| supported.contains(r)) {
        return r.to_string();
    }
    let choices: &[&str] = if has_secret {
        &["client_secret_basic", "client_secret_post", "none"]
    } else {
        &["none"]
    };
    choices
        .iter()
        .find(|c| supported.contains(c))
        .map_or_else(|| "none".to_string(), |c| c.to_string())
}

/// The scope to ask for: the challenge's `scope`, else the resource's
/// `scopes_supported`, else none (A-SCOPE-SELECT).
pub fn select_scope(challenged: Option<&str>, supported: &[String]) -> Option<String> {
    match challenged.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => Some(s.to_string()),
        None if !supported.is_empty() => Some(supported.join(" ")),
        None => None,
    }
}

/// The scope of a step-up: the scopes asked before, then each challenged
/// one not among them (A-SCOPE-STEP-UP).
pub fn step_up_scope(granted: &[String], challenged: Option<&str>) -> Option<String> {
    let mut all: Vec<String> = granted.to_vec();
    for s in challenged
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
    {
        if !all.iter().any(|g| g == s) {
            all.push(s.to_string());
        }
    }
    (!all.is_empty()).then(|| all.join(" "))
}
