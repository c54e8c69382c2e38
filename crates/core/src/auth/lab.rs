//! The lab authorization set-up of `mcp-lanes serve --auth`, sans-IO: the
//! same [`ProtectedResource`] and [`AuthorizationServer`] the simulated
//! runs use, answering real HTTP requests on one loopback origin. The MCP
//! endpoint (`/mcp`) is the protected resource; its RFC 9728 metadata and
//! the authorization server (issuer: the origin itself; RFC 8414 metadata,
//! dynamic registration, `/authorize`, `/token`) share the origin.
//!
//! A lab shortcut, said wherever it is documented: the user consents at
//! once (A-CONSENT is taken as given), so `/authorize` redirects straight
//! back to the client with the code; there is no sign-in page. Times are
//! the caller's milliseconds; the signing key is the caller's.

use serde_json::{json, Value};

use super::form;
use super::resource::ProtectedResource;
use super::server::{AuthorizationServer, OAuthError};
use super::token::Claims;
use crate::note::Note;
use crate::rules::{self, RuleId};

/// The one scope the lab's MCP endpoint needs for every request.
pub const SCOPE: &str = "mcp";
/// Where the protected resource metadata is published (RFC 9728: the
/// well-known prefix, then the endpoint's path).
pub const PRM_PATH: &str = "/.well-known/oauth-protected-resource/mcp";
/// The same document at the root well-known URI, for clients that look
/// there when the challenge names nothing.
pub const PRM_ROOT_PATH: &str = "/.well-known/oauth-protected-resource";
/// The authorization server's RFC 8414 metadata (its issuer has no path).
pub const AS_METADATA_PATH: &str = "/.well-known/oauth-authorization-server";
/// Dynamic client registration (RFC 7591).
pub const REGISTER_PATH: &str = "/register";
/// The authorization endpoint.
pub const AUTHORIZE_PATH: &str = "/authorize";
/// The token endpoint.
pub const TOKEN_PATH: &str = "/token";
/// Registered clients kept; a registration beyond forgets the oldest.
pub const MAX_CLIENTS: usize = 1000;
/// Codes kept waiting for their exchange; beyond, the oldest is forgotten.
pub const MAX_WAITING_CODES: usize = 1000;

/// A request to one of the lab's OAuth paths, as it came.
#[derive(Debug, Clone, Copy)]
pub struct LabRequest<'a> {
    /// `GET`, `POST`, ...
    pub method: &'a str,
    /// The path, without the query.
    pub path: &'a str,
    /// The query string, without `?` (empty when there is none).
    pub query: &'a str,
    /// The body as text.
    pub body: &'a str,
}

/// What the lab answers, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct LabReply {
    /// The HTTP status.
    pub status: u16,
    /// The headers (`Content-Type`, `Location`, `WWW-Authenticate`, ...).
    pub headers: Vec<(String, String)>,
    /// The body (JSON, or empty).
    pub body: String,
    /// The rules behind the answer.
    pub rules: Vec<RuleId>,
    /// What happened, for the learner.
    pub note: Note,
}

impl LabReply {
    fn json(status: u16, body: &Value, rules: Vec<RuleId>, note: Note) -> LabReply {
        LabReply {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: body.to_string(),
            rules,
            note,
        }
    }

    /// A token endpoint answer: never cached (RFC 6749 5.1).
    fn no_store(mut self) -> LabReply {
        self.headers
            .push(("Cache-Control".into(), "no-store".into()));
        self.headers.push(("Pragma".into(), "no-cache".into()));
        self
    }

    fn oauth_error(status: u16, err: &OAuthError, rules: Vec<RuleId>) -> LabReply {
        let note = crate::note!(
            "lab.oauth_error",
            "The authorization server refuses: `{error}` ({why}).",
            error = err.error,
            why = err.description
        );
        LabReply::json(status, &err.body(), rules, note)
    }
}

/// A registered client: its ID and the redirect URIs it gave.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Client {
    id: String,
    redirect_uris: Vec<String>,
}

/// The lab: one protected MCP endpoint and its authorization server.
#[derive(Debug, Clone, PartialEq)]
pub struct Lab {
    origin: String,
    resource: ProtectedResource,
    server: AuthorizationServer,
    clients: Vec<Client>,
}

fn error(error: &'static str, description: &'static str) -> OAuthError {
    OAuthError { error, description }
}

/// Whether a redirect URI is a loopback `http` one (RFC 8252 7.3), whose
/// port may change between registration and use.
fn loopback(uri: &str) -> Option<(&str, &str)> {
    let rest = ["http://127.0.0.1:", "http://[::1]:", "http://localhost:"]
        .iter()
        .find_map(|p| uri.strip_prefix(p).map(|r| (&uri[..p.len()], r)))?;
    let (host, after) = rest;
    let path = after.find('/').map_or("", |i| &after[i..]);
    Some((host, path))
}

/// Whether `asked` is one of the `registered` redirect URIs: the same
/// string, or for loopback the same host and path on any port (OAuth 2.1
/// 8.4.2).
fn redirect_matches(registered: &[String], asked: &str) -> bool {
    registered.iter().any(|r| {
        r == asked || matches!((loopback(r), loopback(asked)), (Some(a), Some(b)) if a == b)
    })
}

impl Lab {
    /// The lab on `origin` (`http://127.0.0.1:PORT`, no trailing slash),
    /// signing tokens with `key`.
    pub fn new(origin: &str, key: &[u8]) -> Lab {
        let origin = origin.trim_end_matches('/').to_string();
        let mut resource = ProtectedResource::new(key, &[SCOPE]);
        resource.resource = format!("{origin}/mcp");
        resource.issuer = origin.clone();
        resource.metadata_url = format!("{origin}{PRM_PATH}");
        let mut server = AuthorizationServer::new(key);
        server.issuer = origin.clone();
        server.signed_codes = true;
        Lab {
            origin,
            resource,
            server,
            clients: Vec::new(),
        }
    }

    /// The issuer (the origin), the `--url` of the suite's authorization
    /// scenarios.
    pub fn issuer(&self) -> &str {
        &self.origin
    }

    /// The MCP endpoint as a protected resource: the check its tokens pass.
    pub fn protected(&self) -> &ProtectedResource {
        &self.resource
    }

    /// The MCP endpoint's canonical URI (the tokens' audience).
    pub fn resource(&self) -> &str {
        &self.resource.resource
    }

    /// Whether `path` is one of the lab's OAuth paths (the rest, `/mcp`
    /// aside, is not the lab's).
    pub fn owns(path: &str) -> bool {
        [
            PRM_PATH,
            PRM_ROOT_PATH,
            AS_METADATA_PATH,
            REGISTER_PATH,
            AUTHORIZE_PATH,
            TOKEN_PATH,
        ]
        .contains(&path)
    }

    /// Checks a request to the MCP endpoint at `now_ms`: the token's
    /// claims when it may go on to the MCP server, else the 401 or 403 to
    /// answer (A-CHALLENGE, A-AUDIENCE, A-SCOPE-STEP-UP).
    pub fn guard(
        &self,
        headers: &[(String, String)],
        now_ms: u64,
    ) -> Result<Claims, Box<LabReply>> {
        self.resource
            .check(headers, &[SCOPE], now_ms)
            .map_err(|challenge| {
                let body = if challenge.status == 403 {
                    json!({"error": "insufficient_scope"}).to_string()
                } else {
                    String::new()
                };
                let mut headers =
                    vec![("WWW-Authenticate".to_string(), challenge.www_authenticate)];
                if !body.is_empty() {
                    headers.push(("Content-Type".into(), "application/json".into()));
                }
                Box::new(LabReply {
                    status: challenge.status,
                    headers,
                    body,
                    rules: challenge.rules,
                    note: challenge.note,
                })
            })
    }

    /// Answers a request to one of the lab's OAuth paths at `now_ms`.
    pub fn handle(&mut self, request: &LabRequest<'_>, now_ms: u64) -> LabReply {
        let allowed = match request.path {
            REGISTER_PATH | TOKEN_PATH => "POST",
            _ => "GET",
        };
        let head = allowed == "GET" && request.method.eq_ignore_ascii_case("HEAD");
        if !(request.method.eq_ignore_ascii_case(allowed) || head) {
            let mut reply = LabReply::json(
                405,
                &json!({"error": "invalid_request", "error_description": format!("use {allowed}")}),
                Vec::new(),
                crate::note!(
                    "lab.method",
                    "{path} answers {allowed} only: 405.",
                    path = request.path,
                    allowed = allowed
                ),
            );
            reply.headers.push(("Allow".into(), allowed.into()));
            return reply;
        }
        match request.path {
            PRM_PATH | PRM_ROOT_PATH => LabReply::json(
                200,
                &self.resource.metadata(),
                vec![rules::A_PRM],
                crate::note!("lab.prm", "The MCP server's protected resource metadata: its canonical URI and the authorization server to ask."),
            ),
            AS_METADATA_PATH => LabReply::json(
                200,
                &self.metadata(),
                vec![rules::A_AS_METADATA],
                crate::note!("lab.as_metadata", "The authorization server's metadata: its issuer, endpoints and PKCE method (S256)."),
            ),
            REGISTER_PATH => self.register(request.body),
            AUTHORIZE_PATH => self.authorize(request.query),
            _ => self.token(request.body, now_ms),
        }
    }

    /// The authorization server's metadata as the lab serves it: the
    /// model's, plus that its token endpoint takes public clients only
    /// (`none`: PKCE instead of a secret), and without Client ID Metadata
    /// Documents: fetching one needs an HTTPS client the lab does not have,
    /// so it says so instead of claiming them.
    pub fn metadata(&self) -> Value {
        let mut metadata = self.server.metadata();
        if let Value::Object(map) = &mut metadata {
            map.insert(
                "client_id_metadata_document_supported".into(),
                Value::Bool(false),
            );
            map.insert(
                "token_endpoint_auth_methods_supported".into(),
                json!(["none"]),
            );
            map.insert("scopes_supported".into(), json!([SCOPE]));
        }
        metadata
    }

    fn register(&mut self, body: &str) -> LabReply {
        let rules = vec![rules::A_REGISTER];
        let Ok(request @ Value::Object(_)) = serde_json::from_str::<Value>(body) else {
            let err = error("invalid_client_metadata", "the body is not a JSON object");
            return LabReply::oauth_error(400, &err, rules);
        };
        let uris: Option<Vec<String>> = request
            .get("redirect_uris")
            .and_then(Value::as_array)
            .filter(|a| !a.is_empty())
            .and_then(|a| a.iter().map(|u| u.as_str().map(str::to_string)).collect());
        let Some(uris) = uris.filter(|u| {
            u.iter()
                .all(|u| loopback(u).is_some() || u.starts_with("https://"))
        }) else {
            let err = error(
                "invalid_redirect_uri",
                "redirect_uris must be loopback http or https URIs",
            );
            return LabReply::oauth_error(400, &err, rules);
        };
        let info = self.server.register(&request);
        let id = info
            .get("client_id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let note = crate::note!(
            "lab.registered",
            "Dynamic registration: the client gets the client ID {id} for its redirect URIs.",
            id = id.clone()
        );
        self.clients.push(Client {
            id,
            redirect_uris: uris,
        });
        let extra = self.clients.len().saturating_sub(MAX_CLIENTS);
        self.clients.drain(..extra);
        LabReply::json(201, &info, rules, note)
    }

    fn authorize(&mut self, query: &str) -> LabReply {
        let params = form::parse(query);
        let get = |name: &str| form::single(&params, name);
        let client = get("client_id").and_then(|id| self.clients.iter().find(|c| c.id == id));
        let Some(client) = client.cloned() else {
            let err = error("invalid_client", "unknown client_id: register first");
            return LabReply::oauth_error(400, &err, vec![rules::A_REGISTER]);
        };
        let redirect = match get("redirect_uri") {
            Some(uri) if redirect_matches(&client.redirect_uris, uri) => uri.to_string(),
            None if client.redirect_uris.len() == 1 => client.redirect_uris[0].clone(),
            _ => {
                let err = error(
                    "invalid_request",
                    "redirect_uri is not one the client registered",
                );
                return LabReply::oauth_error(400, &err, vec![rules::A_REGISTER]);
            }
        };
        let state = get("state");
        let back = |pairs: &mut Vec<(&str, String)>| {
            if let Some(state) = state {
                pairs.push(("state", state.to_string()));
            }
            let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
            form::with_query(&redirect, &pairs)
        };
        let redirect_with = |location: String, rules: Vec<RuleId>, note: Note| LabReply {
            status: 302,
            headers: vec![
                ("Location".into(), location),
                ("Cache-Control".into(), "no-store".into()),
            ],
            body: String::new(),
            rules,
            note,
        };
        let refused = |err: OAuthError, rules: Vec<RuleId>| {
            let mut pairs = vec![
                ("error", err.error.to_string()),
                ("error_description", err.description.to_string()),
                ("iss", self.origin.clone()),
            ];
            let note = crate::note!(
                "lab.authorize_refused",
                "The authorization server refuses the request and sends the user back with `{error}`.",
                error = err.error
            );
            redirect_with(back(&mut pairs), rules, note)
        };
        if get("response_type") != Some("code") {
            let err = error("unsupported_response_type", "response_type must be code");
            return refused(err, vec![rules::A_PKCE]);
        }
        let challenge =
            get("code_challenge").map(|c| (c, get("code_challenge_method").unwrap_or("plain")));
        let resource = get("resource")
            .unwrap_or(self.resource.resource.as_str())
            .to_string();
        let scope: Vec<String> = get("scope")
            .unwrap_or_default()
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let rules = vec![
            rules::A_CONSENT,
            rules::A_PKCE,
            rules::A_RESOURCE,
            rules::A_ISS,
        ];
        self.server.forget_oldest_codes(MAX_WAITING_CODES - 1);
        match self
            .server
            .authorize(&client.id, challenge, &resource, &scope)
        {
            Ok((code, iss)) => {
                let resource = resource.clone();
                let note = if scope.is_empty() {
                    crate::note!(
                        "lab.consented_no_scope",
                        "Lab shortcut: the user consents at once, to no scope (none was asked), and the authorization server sends them back to the client with a code for {resource} and its `iss`.",
                        resource = resource
                    )
                } else {
                    crate::note!(
                        "lab.consented",
                        "Lab shortcut: the user consents at once to {scope}, and the authorization server sends them back to the client with a code for {resource} and its `iss`.",
                        scope = scope.join(" "),
                        resource = resource
                    )
                };
                let mut pairs = vec![("code", code), ("iss", iss)];
                redirect_with(back(&mut pairs), rules, note)
            }
            Err(err) => refused(err, rules),
        }
    }

    fn token(&mut self, body: &str, now_ms: u64) -> LabReply {
        let params = form::parse(body);
        let get = |name: &str| form::single(&params, name);
        match get("grant_type") {
            Some("authorization_code") => {
                let rules = vec![rules::A_PKCE, rules::A_RESOURCE];
                let (Some(client_id), Some(code)) = (get("client_id"), get("code")) else {
                    let err = error("invalid_request", "client_id and code are required");
                    return LabReply::oauth_error(400, &err, rules).no_store();
                };
                let resource = get("resource").unwrap_or(self.resource.resource.as_str());
                let resource = resource.to_string();
                match self
                    .server
                    .exchange(client_id, code, get("code_verifier"), &resource, now_ms)
                {
                    Ok(tokens) => LabReply::json(
                        200,
                        &tokens,
                        rules,
                        crate::note!(
                            "lab.tokens",
                            "The code and its PKCE verifier match: an access token for {resource} only, and a refresh token.",
                            resource = resource
                        ),
                    )
                    .no_store(),
                    Err(err) => LabReply::oauth_error(400, &err, rules).no_store(),
                }
            }
            Some("refresh_token") => {
                let rules = vec![rules::A_REFRESH];
                let Some(refresh) = get("refresh_token") else {
                    let err = error("invalid_request", "refresh_token is required");
                    return LabReply::oauth_error(400, &err, rules).no_store();
                };
                match self.server.refresh(refresh, now_ms) {
                    Ok(tokens) => LabReply::json(
                        200,
                        &tokens,
                        rules,
                        crate::note!("lab.refreshed", "A refresh: new tokens for the same resource and scopes, without asking the user again."),
                    )
                    .no_store(),
                    Err(err) => LabReply::oauth_error(400, &err, rules).no_store(),
                }
            }
            _ => {
                let err = error(
                    "unsupported_grant_type",
                    "grant_type must be authorization_code or refresh_token",
                );
                LabReply::oauth_error(400, &err, vec![rules::A_PKCE]).no_store()
            }
        }
    }
}
