//! One run of the authorization flow between three actors, the client,
//! the MCP server and the authorization server, recorded as a
//! [`Timeline`] with its actors: the 401, the two metadata documents,
//! registration, the authorization request with PKCE and `resource`, the
//! user's consent, the `iss` check, the token request and the retried
//! call with the bearer token; and, as a set-up asks, a scope step-up, a
//! refresh, or one step broken on purpose ([`Break`]). Deterministic:
//! every hop takes 10 virtual ms, codes and tokens come from the set-up.

use serde_json::{json, Value};

use crate::auth::server::AuthorizationServer;
use crate::auth::{pkce, Break, Registration, CLIENT_ID_URL, ISSUER, OTHER_RESOURCE, REDIRECT_URI};
use crate::note::Note;
use crate::protocol::ProtocolVersion;
use crate::rules::{self, RuleId};
use crate::sim::engine::Bearer;
use crate::sim::{message_event, Actor, EventKind, HttpInfo, Recorder, Side, Summary, Timeline};

mod handover;
use crate::transport::TransportKind;

/// What one run of the flow is.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowSetup {
    /// The lane's label.
    pub label: String,
    /// How the client gets its client ID.
    pub registration: Registration,
    /// The scope the called tool needs beyond the first one granted (a
    /// step-up), if any.
    pub step_up: Option<String>,
    /// One step broken on purpose.
    pub broken: Option<Break>,
    /// A gateway stands in front of the server: it is the resource the
    /// client sees (G-AUTH-RESOURCE) and gets its own token for the
    /// server (G-NO-PASSTHROUGH).
    pub gateway: bool,
    /// The set-up's first request, which the flow sends without a token
    /// and retries with one, in place of its own call; the flow then
    /// stops where the request is accepted ([`authorize`]).
    pub request: Option<FirstRequest>,
    /// Who signs in and consents: the client's principal, when it acts
    /// for one; otherwise the simulated runs' user.
    pub user: Option<String>,
}

/// The first HTTP request of a set-up's client: what meets the 401.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstRequest {
    /// Its HTTP method.
    pub method: String,
    /// Its path.
    pub path: String,
    /// Its headers (an `Authorization` among them is replaced).
    pub headers: Vec<(String, String)>,
    /// Its body.
    pub body: String,
}

impl FlowSetup {
    /// The happy path with `registration`.
    pub fn new(label: &str, registration: Registration) -> FlowSetup {
        FlowSetup {
            label: label.into(),
            registration,
            step_up: None,
            broken: None,
            gateway: false,
            request: None,
            user: None,
        }
    }
}

/// The key both servers share for tokens (a set-up constant).
const KEY: &[u8] = b"mcp-lanes simulated authorization";
/// The tool the client calls.
const TOOL: &str = "search_files";
/// The scope every call needs.
const READ: &str = "files:read";
/// The scope a client that asks for too few leaves out.
const WRITE: &str = "files:write";
/// One hop's travel time.
const HOP_MS: u64 = 10;

/// A run in progress.
struct Run {
    rec: Recorder,
    now: u64,
    setup: FlowSetup,
    id: u64,
    /// The resource the client sees: the server, or the gateway in front
    /// of it (G-AUTH-RESOURCE).
    resource: Actor,
    /// The scope the first challenge named, if it named one.
    scope_named: Option<String>,
    /// What is wrong on purpose with the next hop (a setting that breaks
    /// a step), drawn as a violation.
    wrong: Option<Note>,
}

/// One HTTP message of the flow.
struct Hop<'a> {
    from: Actor,
    to: Actor,
    /// Method and path of a request; `None` for a response.
    request: Option<(&'a str, String)>,
    /// Status of a response.
    status: Option<u16>,
    headers: Vec<(String, String)>,
    body: String,
    label: String,
    rules: Vec<RuleId>,
    note: Note,
}

impl Run {
    fn hop(&mut self, hop: Hop) {
        let side = if hop.request.is_some() {
            Side::Client
        } else {
            Side::Server
        };
        let mut headers = hop.headers;
        if let Some((_, path)) = &hop.request {
            headers.insert(0, (":path".to_string(), path.clone()));
        }
        let http = HttpInfo {
            method: hop.request.as_ref().map(|(m, _)| m.to_string()),
            status: hop.status,
            headers,
            event_id: None,
        };
        let wrong = self.wrong.take();
        let mut m = message_event(
            side,
            &hop.body,
            ProtocolVersion::modern(),
            wrong,
            Some(http),
        );
        if hop.label != m.label && !m.label.ends_with(" result") {
            m.label = hop.label;
        }
        let mcp = (Actor::of(side), Actor::of(side.peer()));
        if (hop.from, hop.to) != mcp {
            m.from_actor = Some(hop.from);
            m.to_actor = Some(hop.to);
        }
        m.delivered_at_ms = Some(self.now + HOP_MS);
        self.rec
            .push(self.now, EventKind::Message(m), hop.rules, hop.note);
        self.now += HOP_MS;
    }

    fn decide(&mut self, actor: Actor, rules: Vec<RuleId>, note: Note) {
        let side = if actor == Actor::Client {
            Side::Client
        } else {
            Side::Server
        };
        let index = self
            .rec
            .push(self.now, EventKind::Decision { side }, rules, note);
        if actor != Actor::of(side) {
            if let Some(e) = self.rec.event_mut(index) {
                e.actor = Some(actor);
            }
        }
    }

    fn call(&mut self, token: Option<&str>) -> (u64, Vec<(String, String)>) {
        if let Some(first) = self.setup.request.clone() {
            return self.first_request(&first, token);
        }
        self.id += 1;
        let body = json!({"jsonrpc": "2.0", "id": self.id, "method": "tools/call",
            "params": {"name": TOOL, "arguments": {"query": "quarterly report"},
                "_meta": {"io.modelcontextprotocol/protocolVersion": ProtocolVersion::MODERN,
                    "io.modelcontextprotocol/clientCapabilities": {}}}});
        let mut headers: Vec<(String, String)> = [
            ("content-type", "application/json"),
            ("mcp-protocol-version", ProtocolVersion::MODERN),
            ("mcp-method", "tools/call"),
            ("mcp-name", TOOL),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        if let Some(t) = token {
            headers.push(("authorization".into(), format!("Bearer {t}")));
        }
        let note = match token {
            None => crate::note!("auth.call_without_token", "The client calls {tool} without a token: it does not yet know the server is protected.", tool = TOOL),
            Some(_) => crate::note!("auth.call_with_token", "The client calls {tool} again, its access token in the `Authorization` header.", tool = TOOL),
        };
        self.hop(Hop {
            from: Actor::Client,
            to: self.resource,
            request: Some(("POST", "/mcp".into())),
            status: None,
            headers: headers.clone(),
            body: body.to_string(),
            label: "tools/call".into(),
            // Without a token, the call is what the challenge answers.
            rules: if token.is_some() {
                vec![rules::A_BEARER]
            } else {
                vec![rules::A_CHALLENGE]
            },
            note,
        });
        (self.id, headers)
    }
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Percent-encodes a form value (unreserved characters kept).
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn json_headers() -> Vec<(String, String)> {
    vec![("content-type".to_string(), "application/json".to_string())]
}

/// Runs the flow of `setup`.
pub fn run(setup: &FlowSetup) -> Timeline {
    grant(setup).0
}

/// Runs the flow of `setup` and, when it gave the client a token its
/// first request passes with ([`FlowSetup::request`]), the tokens and
/// checks the engine's run goes on with; the flow stops before that
/// request goes out with the token.
pub fn grant(setup: &FlowSetup) -> (Timeline, Option<Bearer>) {
    let mut run = Run {
        rec: Recorder::new(),
        now: 0,
        setup: setup.clone(),
        id: 0,
        resource: if setup.gateway {
            Actor::Gateway
        } else {
            Actor::Server
        },
        scope_named: None,
        wrong: None,
    };
    let mut accepted = None;
    let outcome = walk(&mut run, &mut accepted);
    let (outcome, outcome_msg) = outcome.into_parts();
    let timeline = Timeline {
        label: setup.label.clone(),
        transport: TransportKind::Http,
        client_label: "OAuth client".into(),
        server_label: "protected MCP server".into(),
        actors: handover::actors(setup.gateway),
        events: run.rec.events().to_vec(),
        summary: Summary {
            leaked_locks: 0,
            ended_at_ms: run.now,
            outcome,
            outcome_msg,
        },
    };
    (timeline, accepted)
}

/// The scopes the client holds and the token it has.
struct Held {
    scope: Vec<String>,
    access: String,
    refresh: String,
}

fn walk(run: &mut Run, accepted: &mut Option<Bearer>) -> Note {
    let broken = run.setup.broken;
    let mut resource = handover::resource_seen(run.setup.gateway);
    resource.omit_metadata = broken == Some(Break::NoResourceMetadata);
    let mut auth = AuthorizationServer::new(KEY);
    if let Some(user) = &run.setup.user {
        auth.user = user.clone();
    }
    if broken == Some(Break::WrongIssuer) {
        auth.claimed_iss = Some("https://evil.example.net".into());
    }
    let mut needed: Vec<String> = vec![READ.into()];
    if let Some(extra) = &run.setup.step_up {
        needed.push(extra.clone());
    } else if broken == Some(Break::MissingScope) {
        // The call needs a second scope the client leaves out of its request.
        needed.push(WRITE.into());
    }
    let needed_refs: Vec<&str> = needed.iter().map(String::as_str).collect();

    // 1. The call without a token, and the 401.
    let (_, headers) = run.call(None);
    let challenge = match resource.check(&headers, &needed_refs, run.now) {
        Err(c) => c,
        Ok(_) => {
            return crate::note!(
                "auth.outcome_open",
                "The server let the call through without a token."
            )
        }
    };
    // The first challenge names only the scopes of a first grant; a client
    // that asks for too few scopes leaves out some the challenge named.
    let first_scope: Vec<String> =
        if broken == Some(Break::MissingScope) || run.setup.step_up.is_some() {
            vec![READ.into()]
        } else {
            needed.clone()
        };
    let www = if broken == Some(Break::MissingScope) {
        challenge.www_authenticate.clone()
    } else {
        challenge.www_authenticate.replace(
            &format!("scope=\"{}\"", needed.join(" ")),
            &format!("scope=\"{}\"", first_scope.join(" ")),
        )
    };
    run.scope_named = Some(if broken == Some(Break::MissingScope) {
        needed.join(" ")
    } else {
        first_scope.join(" ")
    });
    if resource.omit_metadata {
        run.wrong = Some(crate::note!("auth.wrong_no_resource_metadata", "the Bearer challenge names no `resource_metadata`, so the client has to guess where the metadata is"));
    }
    let (rules, note) = run.by_resource(challenge.rules, challenge.note);
    run.hop(Hop {
        from: run.resource,
        to: Actor::Client,
        request: None,
        status: Some(401),
        headers: vec![("www-authenticate".into(), www)],
        body: String::new(),
        label: "401 Unauthorized".into(),
        rules,
        note,
    });

    // 2. Protected resource metadata.
    if resource.omit_metadata {
        run.decide(Actor::Client, vec![rules::A_CHALLENGE], crate::note!("auth.fallback_well_known", "No `resource_metadata` in the challenge: the client tries the well-known URI built from the server's URL."));
    } else {
        run.decide(Actor::Client, vec![rules::A_CHALLENGE], crate::note!("auth.read_resource_metadata", "The client reads the metadata URL from `resource_metadata` and the scope to ask for from `scope`."));
    }
    run.hop(Hop {
        from: Actor::Client,
        to: run.resource,
        request: Some(("GET", "/.well-known/oauth-protected-resource/mcp".into())),
        status: None,
        headers: vec![],
        body: String::new(),
        label: "GET resource metadata".into(),
        rules: vec![rules::A_PRM],
        note: crate::note!(
            "auth.get_prm",
            "The client fetches the server's protected resource metadata (RFC 9728)."
        ),
    });
    let (rules, note) = run.by_resource(vec![rules::A_PRM], crate::note!("auth.prm", "The metadata names the server's canonical URI {resource} and its authorization server {issuer}.", resource = resource.resource.clone(), issuer = ISSUER));
    run.hop(Hop {
        from: run.resource,
        to: Actor::Client,
        request: None,
        status: Some(200),
        headers: json_headers(),
        body: resource.metadata().to_string(),
        label: "200 resource metadata".into(),
        rules,
        note,
    });

    // 3. Authorization server metadata.
    run.hop(Hop {
        from: Actor::Client, to: Actor::AuthServer, request: Some(("GET", "/.well-known/oauth-authorization-server".into())),
        status: None, headers: vec![], body: String::new(), label: "GET AS metadata".into(),
        rules: vec![rules::A_AS_METADATA], note: crate::note!("auth.get_as_metadata", "The client fetches the authorization server's metadata (RFC 8414; OpenID discovery is the other place to look)."),
    });
    run.hop(Hop {
        from: Actor::AuthServer, to: Actor::Client, request: None, status: Some(200), headers: json_headers(),
        body: auth.metadata().to_string(), label: "200 AS metadata".into(), rules: vec![rules::A_AS_METADATA],
        note: crate::note!("auth.as_metadata", "The authorization server lists its endpoints, PKCE method S256, Client ID Metadata Documents and `iss` in responses."),
    });
    run.decide(Actor::Client, vec![rules::A_AS_METADATA, rules::A_ISS], crate::note!("auth.record_issuer", "The issuer matches where the client looked; it records {issuer} to check the authorization response against, and sees S256 among the PKCE methods.", issuer = ISSUER));

    // 4. Registration.
    let client_id = register(run, &mut auth);

    // 5. Authorization, consent, code, iss check, token.
    let resource_asked = if broken == Some(Break::WrongResource) {
        OTHER_RESOURCE.to_string()
    } else {
        resource.resource.clone()
    };
    let resource_asked = resource_asked.as_str();
    let held = match authorize(run, &mut auth, &client_id, resource_asked, &first_scope) {
        Ok(held) => held,
        Err(outcome) => return outcome,
    };
    let mut held = held;

    // 6. The call with the token.
    let mut attempts = 0;
    loop {
        if broken == Some(Break::ExpiredToken) && attempts == 0 {
            run.now += crate::auth::server::ACCESS_TTL_MS;
        }
        attempts += 1;
        // A set-up's request that passes goes on in the engine's run.
        let quiet = run.headers_with(Some(&held.access));
        if run.setup.request.is_some() && resource.check(&quiet, &needed_refs, run.now).is_ok() {
            *accepted = Some(handover::accepted(
                run,
                &mut auth,
                &resource,
                &held.access,
                &needed,
            ));
            return crate::note!(
                "auth.outcome_ok",
                "The call succeeds with a token the user consented to."
            );
        }
        let (id, headers) = run.call(Some(&held.access));
        match resource.check(&headers, &needed_refs, run.now) {
            Ok(claims) => {
                let body = json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete",
                    "content": [{"type": "text", "text": format!("3 files found for {}", claims.sub)}],
                    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "files-server", "version": "1.0.0"}}}});
                run.hop(Hop {
                    from: Actor::Server, to: Actor::Client, request: None, status: Some(200), headers: json_headers(),
                    body: body.to_string(), label: "200 result".into(), rules: vec![rules::A_AUDIENCE],
                    note: crate::note!("auth.accepted", "The token is the server's own: issued by its authorization server, for its URI, unexpired, with the scopes the call needs. The tool runs."),
                });
                return crate::note!(
                    "auth.outcome_ok",
                    "The call succeeds with a token the user consented to."
                );
            }
            Err(c) => {
                let status = c.status;
                let label = if status == 403 {
                    "403 insufficient_scope"
                } else {
                    "401 invalid_token"
                };
                let (rules, note) = run.by_resource(c.rules, c.note);
                run.hop(Hop {
                    from: run.resource,
                    to: Actor::Client,
                    request: None,
                    status: Some(status),
                    headers: vec![("www-authenticate".into(), c.www_authenticate)],
                    body: String::new(),
                    label: label.into(),
                    rules,
                    note,
                });
                if attempts > 2 {
                    return crate::note!(
                        "auth.outcome_gave_up",
                        "The client stops retrying: the authorization keeps failing."
                    );
                }
                if status == 403 {
                    // Step-up: the union of the scopes held and challenged.
                    let mut scope = held.scope.clone();
                    for s in &needed {
                        if !scope.contains(s) {
                            scope.push(s.clone());
                        }
                    }
                    run.decide(Actor::Client, vec![rules::A_SCOPE_STEP_UP], crate::note!("auth.step_up", "The client asks again for {scope}: the scopes it had and those challenged, never only the new one.", scope = scope.join(" ")));
                    held = match authorize(run, &mut auth, &client_id, resource_asked, &scope) {
                        Ok(h) => h,
                        Err(outcome) => return outcome,
                    };
                } else if broken == Some(Break::ExpiredToken) && attempts == 1 {
                    held = match refresh(run, &mut auth, &held, resource_asked) {
                        Ok(h) => h,
                        Err(outcome) => return outcome,
                    };
                } else {
                    return crate::note!(
                        "auth.outcome_refused",
                        "The server refuses the token; the call never runs."
                    );
                }
            }
        }
    }
}

fn register(run: &mut Run, auth: &mut AuthorizationServer) -> String {
    match run.setup.registration {
        Registration::MetadataDocument => {
            run.decide(Actor::Client, vec![rules::A_REGISTER], crate::note!("auth.cimd", "The server supports Client ID Metadata Documents: the client's ID is the HTTPS URL of its metadata document."));
            run.hop(Hop {
                from: Actor::AuthServer, to: Actor::Client, request: Some(("GET", "/oauth/metadata.json".into())),
                status: None, headers: vec![], body: String::new(), label: "GET client metadata".into(),
                rules: vec![rules::A_REGISTER], note: crate::note!("auth.fetch_cimd", "Seeing a URL as client ID, the authorization server fetches the document it names."),
            });
            let doc = json!({"client_id": CLIENT_ID_URL, "client_name": "mcp-lanes client",
                "redirect_uris": [REDIRECT_URI], "grant_types": ["authorization_code", "refresh_token"],
                "token_endpoint_auth_method": "none"});
            run.hop(Hop {
                from: Actor::Client, to: Actor::AuthServer, request: None, status: Some(200), headers: json_headers(),
                body: doc.to_string(), label: "200 client metadata".into(), rules: vec![rules::A_REGISTER],
                note: crate::note!("auth.cimd_doc", "The document's `client_id` is its own URL, and it lists the redirect URI the client will use."),
            });
            CLIENT_ID_URL.into()
        }
        Registration::Dynamic => {
            let request = json!({"client_name": "mcp-lanes client", "redirect_uris": [REDIRECT_URI],
                "grant_types": ["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none"});
            run.hop(Hop {
                from: Actor::Client, to: Actor::AuthServer, request: Some(("POST", "/register".into())), status: None,
                headers: json_headers(), body: request.to_string(), label: "POST /register".into(), rules: vec![rules::A_REGISTER],
                note: crate::note!("auth.dcr", "The client registers itself dynamically (RFC 7591), the fallback when metadata documents are not an option."),
            });
            let answer = auth.register(&request);
            let id = answer["client_id"].as_str().unwrap_or_default().to_string();
            run.hop(Hop {
                from: Actor::AuthServer,
                to: Actor::Client,
                request: None,
                status: Some(201),
                headers: json_headers(),
                body: answer.to_string(),
                label: "201 client".into(),
                rules: vec![rules::A_REGISTER],
                note: crate::note!(
                    "auth.dcr_done",
                    "The authorization server answers with a new client ID, {id}.",
                    id = id.clone()
                ),
            });
            id
        }
        Registration::PreRegistered => {
            run.decide(Actor::Client, vec![rules::A_REGISTER], crate::note!("auth.preregistered", "The client was registered with this authorization server beforehand: it uses the client ID it was given."));
            "preregistered-client".into()
        }
    }
}

/// The authorization request, consent, `iss` check and code exchange.
fn authorize(
    run: &mut Run,
    auth: &mut AuthorizationServer,
    client_id: &str,
    resource: &str,
    scope: &[String],
) -> Result<Held, Note> {
    let pkce_on = run.setup.broken != Some(Break::NoPkce);
    let verifier = pkce::verifier(&format!("{}:{}", run.setup.label, run.now));
    let challenge = pkce::s256(&verifier);
    let scope_text = scope.join(" ");
    let mut pairs = vec![
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", REDIRECT_URI),
    ];
    if pkce_on {
        pairs.push(("code_challenge", &challenge));
        pairs.push(("code_challenge_method", "S256"));
    }
    pairs.push(("resource", resource));
    pairs.push(("scope", &scope_text));
    let note = if pkce_on {
        crate::note!("auth.authorize", "The user's browser opens the authorization URL: PKCE challenge (S256), `resource` {resource}, scope {scope}.", resource = resource, scope = scope_text.clone())
    } else {
        crate::note!("auth.authorize_no_pkce", "The authorization URL carries no PKCE challenge: anyone who intercepts the code could exchange it.")
    };
    // The settings that break this step: the request is drawn as wrong,
    // with the rule it breaks.
    let mut rules = vec![rules::A_PKCE, rules::A_RESOURCE];
    run.wrong = match run.setup.broken {
        Some(Break::NoPkce) => Some(crate::note!(
            "auth.wrong_no_pkce",
            "no PKCE challenge: a client always sends one, with S256"
        )),
        Some(Break::WrongResource) => Some(crate::note!(
            "auth.wrong_resource",
            "`resource` names {resource}, not the MCP server the token is for",
            resource = resource
        )),
        Some(Break::MissingScope)
            if run
                .scope_named
                .as_ref()
                .is_some_and(|named| named != &scope_text) =>
        {
            rules.push(rules::A_SCOPE_SELECT);
            Some(crate::note!(
                "auth.wrong_scope",
                "asks for {scope}, not the {named} the 401 challenge named",
                scope = scope_text.clone(),
                named = run.scope_named.clone().unwrap_or_default()
            ))
        }
        _ => None,
    };
    run.hop(Hop {
        from: Actor::Client,
        to: Actor::AuthServer,
        request: Some(("GET", format!("/authorize?{}", form(&pairs)))),
        status: None,
        headers: vec![],
        body: String::new(),
        label: "GET /authorize".into(),
        rules,
        note,
    });
    run.decide(Actor::AuthServer, vec![rules::A_CONSENT], crate::note!("auth.consent", "The user signs in at the authorization server and consents to {scope} for this client. The client never sees the password.", scope = scope_text.clone()));
    let (code, iss) = auth
        .authorize(
            client_id,
            pkce_on.then_some((challenge.as_str(), "S256")),
            resource,
            scope,
        )
        .map_err(|e| {
            crate::note!(
                "auth.outcome_authorize_error",
                "The authorization server refused: {error}.",
                error = e.error
            )
        })?;
    let location = format!("{REDIRECT_URI}?{}", form(&[("code", &code), ("iss", &iss)]));
    run.hop(Hop {
        from: Actor::AuthServer, to: Actor::Client, request: None, status: Some(302),
        headers: vec![("location".into(), location)], body: String::new(), label: "302 code + iss".into(),
        rules: vec![rules::A_CONSENT, rules::A_ISS],
        note: crate::note!("auth.code", "The browser comes back to the client with a one-time code and the `iss` of the server that issued it."),
    });
    if iss != ISSUER {
        run.decide(Actor::Client, vec![rules::A_ISS], crate::note!("auth.iss_mismatch", "The response's `iss` is {iss}, not the recorded {issuer}: a mix-up. The client sends the code to no token endpoint.", iss = iss, issuer = ISSUER));
        return Err(crate::note!(
            "auth.outcome_iss",
            "The client stopped at the `iss` check: no token, no call."
        ));
    }
    run.decide(Actor::Client, vec![rules::A_ISS], crate::note!("auth.iss_ok", "`iss` equals the recorded issuer, character for character: the code is safe to exchange."));
    let mut token_pairs = vec![
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("client_id", client_id),
        ("redirect_uri", REDIRECT_URI),
    ];
    if pkce_on {
        token_pairs.push(("code_verifier", &verifier));
    }
    token_pairs.push(("resource", resource));
    run.hop(Hop {
        from: Actor::Client, to: Actor::AuthServer, request: Some(("POST", "/token".into())), status: None,
        headers: vec![("content-type".into(), "application/x-www-form-urlencoded".into())], body: form(&token_pairs),
        label: "POST /token".into(), rules: vec![rules::A_PKCE, rules::A_RESOURCE],
        note: crate::note!("auth.token_request", "The client exchanges the code, proving with the PKCE verifier that it is the one that started, and names the `resource` again."),
    });
    match auth.exchange(
        client_id,
        &code,
        pkce_on.then_some(verifier.as_str()),
        resource,
        run.now,
    ) {
        Ok(tokens) => Ok(tokens_hop(run, &tokens, resource)),
        Err(e) => {
            run.hop(Hop {
                from: Actor::AuthServer,
                to: Actor::Client,
                request: None,
                status: Some(400),
                headers: json_headers(),
                body: e.body().to_string(),
                label: format!("400 {}", e.error),
                rules: vec![rules::A_PKCE],
                note: crate::note!(
                    "auth.token_refused",
                    "The authorization server refuses the exchange: {why}.",
                    why = e.description
                ),
            });
            Err(crate::note!(
                "auth.outcome_no_token",
                "No token was issued: the call never runs."
            ))
        }
    }
}

fn tokens_hop(run: &mut Run, tokens: &Value, resource: &str) -> Held {
    let text = |k: &str| tokens[k].as_str().unwrap_or_default().to_string();
    run.hop(Hop {
        from: Actor::AuthServer, to: Actor::Client, request: None, status: Some(200), headers: json_headers(),
        body: tokens.to_string(), label: "200 tokens".into(), rules: vec![rules::A_RESOURCE, rules::A_REFRESH],
        note: crate::note!("auth.tokens", "An access token for {resource} with scope {scope}, valid {seconds} s, and a refresh token.", resource = resource, scope = text("scope"), seconds = tokens["expires_in"].as_u64().unwrap_or(0)),
    });
    Held {
        scope: text("scope")
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        access: text("access_token"),
        refresh: text("refresh_token"),
    }
}

fn refresh(
    run: &mut Run,
    auth: &mut AuthorizationServer,
    held: &Held,
    resource: &str,
) -> Result<Held, Note> {
    let body = form(&[
        ("grant_type", "refresh_token"),
        ("refresh_token", &held.refresh),
        ("resource", resource),
    ]);
    run.hop(Hop {
        from: Actor::Client, to: Actor::AuthServer, request: Some(("POST", "/token".into())), status: None,
        headers: vec![("content-type".into(), "application/x-www-form-urlencoded".into())], body,
        label: "POST /token (refresh)".into(), rules: vec![rules::A_REFRESH],
        note: crate::note!("auth.refresh", "The access token expired: the client uses its refresh token, without asking the user again."),
    });
    let tokens = auth.refresh(&held.refresh, run.now).map_err(|e| {
        crate::note!(
            "auth.outcome_refresh_error",
            "The refresh was refused: {error}.",
            error = e.error
        )
    })?;
    Ok(tokens_hop(run, &tokens, resource))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_of_the_metadata_is_the_one_the_challenge_names() {
        assert!(crate::auth::PRM_URL.ends_with("/.well-known/oauth-protected-resource/mcp"));
        assert_eq!(encode("a b/c"), "a%20b%2Fc");
    }
}
