//! The rule catalog of `spec/RULES.md` as data: every decision the
//! simulated client or server makes names one or more of these IDs.
//!
//! Generated from RULES.md (`tests/rules_catalog.rs` checks the two agree);
//! the summaries are the catalog's own words, the spec page is the authority.

/// A rule ID from RULES.md, such as `"M-VERSION"`.
pub type RuleId = &'static str;

/// One rule: its ID, a one-sentence summary and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The rule ID, e.g. `M-CAP-REQUIRED`.
    pub id: RuleId,
    /// What the rule says, in the catalog's words.
    pub summary: &'static str,
    /// The source as written in the catalog (spec section or "lesson").
    pub source: &'static str,
    /// A link to the spec section, when the source is a spec page.
    pub spec_url: &'static str,
}

/// RPC-ID: A request id is a string or integer, never null, and never equal to the id of another request the sender still awaits.
pub const RPC_ID: RuleId = "RPC-ID";
/// RPC-PARSE: Text that is not JSON gets -32700 Parse error with id null.
pub const RPC_PARSE: RuleId = "RPC-PARSE";
/// RPC-INVALID: JSON that is not a valid request object (no `jsonrpc: "2.0"`, no method, wrong types) gets -32600 Invalid Request.
pub const RPC_INVALID: RuleId = "RPC-INVALID";
/// RPC-NOTIFY: A notification (no id) never gets a response.
pub const RPC_NOTIFY: RuleId = "RPC-NOTIFY";
/// RPC-UNKNOWN-FIELD: Unknown fields are ignored, not rejected; this is what keeps revisions additive.
pub const RPC_UNKNOWN_FIELD: RuleId = "RPC-UNKNOWN-FIELD";
/// RPC-CODES: -32000..-32019 are legacy and not used by new code; -32020..-32099 are reserved for MCP and only -32020, -32021, -32022 are defined; a 2026-07-28 implementation never emits -32002 (resource not found, now -32602) or -32042.
pub const RPC_CODES: RuleId = "RPC-CODES";
/// M-META-REQUIRED: Every modern request carries `params._meta` with PV (string) and CAPS (object).
pub const M_META_REQUIRED: RuleId = "M-META-REQUIRED";
/// M-STATELESS: The server decides each request from that request alone: version, capabilities and identity are never remembered from an earlier request, even on the same connection.
pub const M_STATELESS: RuleId = "M-STATELESS";
/// M-SINFO: Servers identify themselves in every result's `_meta[SINFO]` (SHOULD).
pub const M_SINFO: RuleId = "M-SINFO";
/// M-RESULT-TYPE: Every modern result has `resultType`: `"complete"` or `"input_required"`.
pub const M_RESULT_TYPE: RuleId = "M-RESULT-TYPE";
/// M-DISCOVER: `server/discover` is mandatory for servers, optional for clients.
pub const M_DISCOVER: RuleId = "M-DISCOVER";
/// M-VERSION: A request naming a version the server does not implement gets -32022 UnsupportedProtocolVersion with `data.supported` (array of strings) and `data.requested` (string) (HTTP 400).
pub const M_VERSION: RuleId = "M-VERSION";
/// M-VERSION-RETRY: On -32022 the client picks a mutually supported version from `data.supported` and retries the same request with a new id, or tells the user no common version exists.
pub const M_VERSION_RETRY: RuleId = "M-VERSION-RETRY";
/// M-CAP-REQUIRED: A server must not use a client capability the request did not declare in CAPS.
pub const M_CAP_REQUIRED: RuleId = "M-CAP-REQUIRED";
/// M-CAP-BEFORE-WORK: The capability check is part of validating the request and runs before any side effect (lock, transaction, reservation).
pub const M_CAP_BEFORE_WORK: RuleId = "M-CAP-BEFORE-WORK";
/// M-CAP-ELICIT-MODES: `elicitation: {}` means form mode only; URL mode needs `elicitation.url`.
pub const M_CAP_ELICIT_MODES: RuleId = "M-CAP-ELICIT-MODES";
/// M-UNKNOWN-METHOD: An unknown method gets -32601 Method not found (HTTP 404).
pub const M_UNKNOWN_METHOD: RuleId = "M-UNKNOWN-METHOD";
/// M-INIT-ON-MODERN: A modern-only server answering `initialize` names the versions it supports in its error, because a legacy client has no other diagnostic.
pub const M_INIT_ON_MODERN: RuleId = "M-INIT-ON-MODERN";
/// M-UNKNOWN-TOOL: `tools/call` naming a tool the server does not have is a protocol error -32602 ("Unknown tool: NAME"), not a capability problem and not -32601.
pub const M_UNKNOWN_TOOL: RuleId = "M-UNKNOWN-TOOL";
/// M-CACHE-HINTS: Results of server/discover, tools/list, prompts/list, resources/list, resources/templates/list and resources/read carry an integer `ttlMs` >= 0 and `cacheScope` "public" or "private".
pub const M_CACHE_HINTS: RuleId = "M-CACHE-HINTS";
/// M-CACHE-FRESH: A client treats a cached result as fresh while now < received_at + ttlMs; ttlMs 0 or absent means stale; negative is treated as 0; a matching list_changed notification invalidates at once.
pub const M_CACHE_FRESH: RuleId = "M-CACHE-FRESH";
/// M-MRTR: When a server needs client input (elicitation, sampling, roots) it returns `resultType: "input_required"` with `inputRequests` (map of key to request) and optional opaque `requestState`; only tools/call, prompts/get and resources/read may do so.
pub const M_MRTR: RuleId = "M-MRTR";
/// M-MRTR-CAP: An input request that needs a client capability (e.g.
pub const M_MRTR_CAP: RuleId = "M-MRTR-CAP";
/// M-MRTR-STATE: A server that carries anything in `requestState` signs it (HMAC), binds it to the method, target, arguments and an expiry, and rejects a state failing any check (-32602), doing nothing.
pub const M_MRTR_STATE: RuleId = "M-MRTR-STATE";
/// M-LISTEN-ACK: The first message on a `subscriptions/listen` stream is `notifications/subscriptions/acknowledged`, naming the filter the server honours; the listen request gets a result only when the server ends the stream.
pub const M_LISTEN_ACK: RuleId = "M-LISTEN-ACK";
/// M-LISTEN-TAG: Every notification on a listen stream, the acknowledgement included, carries `_meta` subscriptionId: the listen request's id.
pub const M_LISTEN_TAG: RuleId = "M-LISTEN-TAG";
/// M-LISTEN-FILTER: A listen stream gets only the kinds it asked for and the server supports.
pub const M_LISTEN_FILTER: RuleId = "M-LISTEN-FILTER";
/// M-LOG-LEVEL: Without `_meta` logLevel a modern request gets no `notifications/message`; with it, only messages at that level or above, on its own response stream. A level that is not one of the eight syslog levels is refused with -32602.
pub const M_LOG_LEVEL: RuleId = "M-LOG-LEVEL";
/// M-PROGRESS: A request with `_meta.progressToken` may get `notifications/progress` with that token and a growing progress, before its result.
pub const M_PROGRESS: RuleId = "M-PROGRESS";
/// M-RESOURCES: `resources/read` serves listed resources and template matches (text or blob, with mimeType); an unknown URI is -32602 with `data.uri`.
pub const M_RESOURCES: RuleId = "M-RESOURCES";
/// M-PROMPTS: `prompts/get` returns the prompt's messages with its arguments filled in; an unknown prompt or a missing required argument is -32602.
pub const M_PROMPTS: RuleId = "M-PROMPTS";
/// M-COMPLETION: `completion/complete` answers `completion.values` (at most 100) matching what was typed, for a prompt argument or template variable.
pub const M_COMPLETION: RuleId = "M-COMPLETION";
/// M-SCHEMA-INTACT: A tool's `inputSchema` is served as written: JSON Schema 2020-12 keywords (`$defs`, `$ref`, `allOf`, `if`/`then`/`else`, ...) survive.
pub const M_SCHEMA_INTACT: RuleId = "M-SCHEMA-INTACT";
/// M-TOOL-INPUT: Arguments that break a tool's `inputSchema` (a wrong type, a missing required property, a value out of range or not in its enum, an unknown property where `additionalProperties` is false, a missing argument the tool's text needs) are a tool execution error in 2025-11-25 and 2026-07-28: a result with `isError: true` whose text names the field, so the model can correct the call; the tool does no work.
pub const M_TOOL_INPUT: RuleId = "M-TOOL-INPUT";
/// M-TOOL-ERROR: A tool that fails at its work (an API failure, a business rule) answers a result with `isError: true` and a text the model can read, not a JSON-RPC error.
pub const M_TOOL_ERROR: RuleId = "M-TOOL-ERROR";
/// M-TOOL-RATE-LIMIT: A rate-limited tool answers a call over its limit (N calls in any window of time) with a tool error, `isError: true`, whose text names the limit and when to retry; the tool does no work.
pub const M_TOOL_RATE_LIMIT: RuleId = "M-TOOL-RATE-LIMIT";
/// M-TOOL-HANDLE: A tool may answer with a handle (an id of state the server keeps) that a later call passes back as an argument; a handle the server never issued is a tool error, `isError: true`, naming it, not a JSON-RPC error.
pub const M_TOOL_HANDLE: RuleId = "M-TOOL-HANDLE";
/// M-TOOL-QUARANTINE: A call that matches a violation the server declares is refused with a tool error naming the violation, and from then on the tool (or every tool of the server, as declared) refuses every call the same way.
pub const M_TOOL_QUARANTINE: RuleId = "M-TOOL-QUARANTINE";
/// M-TOOL-POLICY-LIST: A server may list different tools to different callers; a hidden tool is absent from the caller's `tools/list` and its call is answered as an unknown tool's.
pub const M_TOOL_POLICY_LIST: RuleId = "M-TOOL-POLICY-LIST";
/// M-TOOL-POLICY-CALL: A caller the server's policy does not allow to call a tool it can see gets a tool error, `isError: true`; a server may answer each caller its own result.
pub const M_TOOL_POLICY_CALL: RuleId = "M-TOOL-POLICY-CALL";
/// M-TOOL-POLL: Long-running work one call starts answers at once with a handle; a status call passing the handle answers that it is running until the work's time has passed, then its result.
pub const M_TOOL_POLL: RuleId = "M-TOOL-POLL";
/// M-PAGINATION: `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list` may answer one page and an opaque `nextCursor`; the client asks for the next page with that `cursor`, and the last page has none.
pub const M_PAGINATION: RuleId = "M-PAGINATION";
/// H-STATUS: 200 for results; 400 for -32602 caused by malformed `_meta`, -32021, -32022, -32020, and for unparseable or invalid JSON-RPC (-32700, -32600); 404 with -32601 for unknown methods (removed legacy methods included); 202 with no body for an accepted notification; 405 for GET or DELETE on a modern-only endpoint; 403 for a present but disallowed Origin.
pub const H_STATUS: RuleId = "H-STATUS";
/// H-HEADERS: Every POST carries `MCP-Protocol-Version` equal to the body's PV, `Mcp-Method` equal to `method`, and for tools/call, resources/read, prompts/get an `Mcp-Name` equal to `params.name` / `params.uri`.
pub const H_HEADERS: RuleId = "H-HEADERS";
/// H-SESSION: A modern-only server ignores `Mcp-Session-Id` and `Last-Event-ID` and never mints a session id.
pub const H_SESSION: RuleId = "H-SESSION";
/// H-SSE-RESPONSE: A POST's response may be an SSE stream: the request's notifications first, its response last; never a server request.
pub const H_SSE_RESPONSE: RuleId = "H-SSE-RESPONSE";
/// H-PARAM-HEADERS: An argument marked `x-mcp-header: NAME` is mirrored in `Mcp-Param-NAME`.
pub const H_PARAM_HEADERS: RuleId = "H-PARAM-HEADERS";
/// H-HOST: A loopback server refuses a `Host` that is not a loopback name with 403, against DNS rebinding.
pub const H_HOST: RuleId = "H-HOST";
/// H-SSE-STREAM: A legacy POST whose reply has to wait (the server asks the client something first) gets an SSE stream that stays open: chunked, no Content-Length. It carries the server's messages for that request and ends with the request's JSON-RPC response, then closes; the server does not close it earlier.
pub const H_SSE_STREAM: RuleId = "H-SSE-STREAM";
/// H-SSE-POLL: In a 2025-11-25 session a server may end a POST's SSE stream before the response (SSE polling): the stream's first event has an id and empty data (priming) and a `retry:` field; the client reconnects with GET and `Last-Event-ID` after that time and gets the events sent meanwhile, the response last.
pub const H_SSE_POLL: RuleId = "H-SSE-POLL";
/// H-SSE-RESUME: Every SSE event of a legacy session has an id, unique in the session, that names its stream. A client that lost a stream sends GET with `Last-Event-ID` and gets that stream's later events, never another stream's; a GET without it opens the session's stream for messages unrelated to any request. A modern-only server answers GET with 405.
pub const H_SSE_RESUME: RuleId = "H-SSE-RESUME";
/// E-TERMS: Modern = per-request `_meta` (2026-07-28 and later).
pub const E_TERMS: RuleId = "E-TERMS";
/// E-SERVER-SELECT: A dual-era server chooses per request: `initialize` starts legacy semantics scoped to that stdio process or HTTP session; a request with modern `_meta` is served statelessly.
pub const E_SERVER_SELECT: RuleId = "E-SERVER-SELECT";
/// E-PROBE-STDIO: A dual-era client on stdio sends `server/discover` first, with its preferred modern version.
pub const E_PROBE_STDIO: RuleId = "E-PROBE-STDIO";
/// E-PROBE-HTTP: A dual-era client on HTTP tries a modern request.
pub const E_PROBE_HTTP: RuleId = "E-PROBE-HTTP";
/// E-CACHE: The era is a property of the server, not of a request: cache it per server process (stdio) or origin (HTTP); probe again when the cached discover result's ttlMs runs out or when a call that used to work returns a version error (the server was upgraded underneath).
pub const E_CACHE: RuleId = "E-CACHE";
/// E-MATRIX: Outcomes of every client/server era pair: modern-modern works; modern client vs legacy server fails (deterministically if the client probes first); dual-era client works with both; legacy client vs modern-only server fails (server rejects initialize naming its versions); legacy client vs dual-era server works.
pub const E_MATRIX: RuleId = "E-MATRIX";
/// E-HEADER-ROUTE: A dual-era server routes a POST whose `MCP-Protocol-Version` is modern to its modern dispatcher: `initialize` there is -32601 (404).
pub const E_HEADER_ROUTE: RuleId = "E-HEADER-ROUTE";
/// L-INIT: `initialize` is the first request: params `protocolVersion`, `capabilities`, `clientInfo`.
pub const L_INIT: RuleId = "L-INIT";
/// L-VERSION: The server echoes the requested version if it supports it, otherwise answers with another version it supports (its latest).
pub const L_VERSION: RuleId = "L-VERSION";
/// L-CAP-SESSION: Capabilities are negotiated once and fixed for the session; both sides use only what was negotiated.
pub const L_CAP_SESSION: RuleId = "L-CAP-SESSION";
/// L-UNDECLARED: What a client does with a request it never agreed to handle is up to its SDK: answer -32601, drop it silently (the server waits forever, holding whatever it acquired), or close the connection.
pub const L_UNDECLARED: RuleId = "L-UNDECLARED";
/// L-FALLBACK: Without the capability, a tool that needed to ask the user returns a tool error (isError) that names the missing argument, its legal values and the context, so the model can re-call with it.
pub const L_FALLBACK: RuleId = "L-FALLBACK";
/// L-RESOURCE-NOT-FOUND: In a legacy session an unknown resource URI is -32002 Resource not found, with the URI in `data.uri`.
pub const L_RESOURCE_NOT_FOUND: RuleId = "L-RESOURCE-NOT-FOUND";
/// L-TOOL-INPUT: In 2024-11-05, 2025-03-26 and 2025-06-18 invalid tool arguments are a protocol error: -32602 naming the tool and the field, and the tool does no work (2025-11-25 made them tool execution errors, M-TOOL-INPUT).
pub const L_TOOL_INPUT: RuleId = "L-TOOL-INPUT";
/// L-LIST-CHANGED: A server that declared `listChanged` may send `notifications/tools/list_changed` (or prompts/resources); the notice is a hint to re-list, and the client debounces a burst into one refresh.
pub const L_LIST_CHANGED: RuleId = "L-LIST-CHANGED";
/// L-SUBSCRIBE: `resources.subscribe` promises `resources/subscribe` and `notifications/resources/updated`.
pub const L_SUBSCRIBE: RuleId = "L-SUBSCRIBE";
/// L-LOGGING: `logging/setLevel` sets the session's minimum log level and answers `{}`; `notifications/message` below it are not sent.
pub const L_LOGGING: RuleId = "L-LOGGING";
/// L-SAMPLING: A legacy server may send `sampling/createMessage` to a client that declared sampling while a call waits; the result follows the answer.
pub const L_SAMPLING: RuleId = "L-SAMPLING";
/// L-DEGRADE: A client degrades rather than fails when a capability is absent: no prompts, hide the prompt menu; no logging, do not wait for logs.
pub const L_DEGRADE: RuleId = "L-DEGRADE";
/// L-TIMEOUT: Every sent request has a timeout; on expiry the sender stops waiting and sends `notifications/cancelled`.
pub const L_TIMEOUT: RuleId = "L-TIMEOUT";
/// L-SESSION-ID: A legacy HTTP session id is globally unique and cryptographically secure, so no client can guess another's: the real server draws 128 bits from the operating system's generator (the simulation numbers its sessions so transcripts repeat).
pub const L_SESSION_ID: RuleId = "L-SESSION-ID";
/// L-SESSION-IDLE: A server may end a legacy HTTP session: after an idle time, or to stay under its cap (the one idle longest goes first). Calls still waiting in it are cancelled with no side effect; a request naming it gets 404, and the client starts a new session with initialize.
pub const L_SESSION_IDLE: RuleId = "L-SESSION-IDLE";

/// C-PARAM-HEADERS: On HTTP, a tool call sends each `x-mcp-header` argument as `Mcp-Param-{name}`, base64 (`=?base64?…?=`) unless plain printable ASCII; a null one sends none.
pub const C_PARAM_HEADERS: RuleId = "C-PARAM-HEADERS";
/// C-PARAM-INVALID: On HTTP, a tool with an invalid `x-mcp-header` is dropped, with a warning, and never called.
pub const C_PARAM_INVALID: RuleId = "C-PARAM-INVALID";
/// C-SSE-READ: JSON and SSE answers are both read; a stream that ends before its response fails the request.
pub const C_SSE_READ: RuleId = "C-SSE-READ";
/// C-MRTR-ROUNDS: Each input_required round is answered and retried; `requestState` is echoed, or left out if absent.
pub const C_MRTR_ROUNDS: RuleId = "C-MRTR-ROUNDS";
/// C-SCHEMA-NO-DEREF: Tool schemas are kept as listed; a network `$ref` is never fetched.
pub const C_SCHEMA_NO_DEREF: RuleId = "C-SCHEMA-NO-DEREF";
/// C-VERSION-RETRY-ONCE: A -32022 naming the version sent is retried once; three version retries at most.
pub const C_VERSION_RETRY_ONCE: RuleId = "C-VERSION-RETRY-ONCE";
/// C-EXCHANGE-FAILED: Each exchange has a deadline and size limits; a failure below the protocol fails its request.
pub const C_EXCHANGE_FAILED: RuleId = "C-EXCHANGE-FAILED";
/// C-BACKGROUND: A client may keep a long request (a listen stream, a slow call) open while it sends others.
pub const C_BACKGROUND: RuleId = "C-BACKGROUND";
/// C-ELICIT-DEFAULTS: A form elicitation's field is answered with its `default` when the schema gives one, else with a member of its `enum`, else a plain value of its type; the simulated user accepts.
pub const C_ELICIT_DEFAULTS: RuleId = "C-ELICIT-DEFAULTS";
/// C-SKILL-SIZE: A skill file (skills extension) is read only when its skill is loaded; a read whose byte length is not its entry's `size` fails verification, like a digest mismatch, and the skill is not loaded.
pub const C_SKILL_SIZE: RuleId = "C-SKILL-SIZE";
/// C-SKILL-DIGEST: A skill file read when its skill is loaded is used only if its SHA-256 matches its entry's `digest` (`sha256:` and lowercase hex); otherwise, or when there is no such digest, the skill is not loaded and no later file of it is read.
pub const C_SKILL_DIGEST: RuleId = "C-SKILL-DIGEST";
/// C-SKILL-FRONTMATTER: A `SKILL.md` that passes size and digest has its YAML frontmatter parsed and compared field by field with its entry's `frontmatter`; on any difference, or frontmatter that cannot be read, the skill is not loaded.
pub const C_SKILL_FRONTMATTER: RuleId = "C-SKILL-FRONTMATTER";
/// A-HTTP-ONLY: Authorization applies to HTTP transports: a server over stdio takes its credentials from the environment and never answers 401 or 403.
pub const A_HTTP_ONLY: RuleId = "A-HTTP-ONLY";
/// A-CHALLENGE: A request without a valid token gets HTTP 401 with `WWW-Authenticate: Bearer resource_metadata="…"` naming the server's protected resource metadata (and SHOULD say the `scope` needed); without `resource_metadata` the client falls back to the metadata's well-known URI.
pub const A_CHALLENGE: RuleId = "A-CHALLENGE";
/// A-PRM: The MCP server publishes protected resource metadata (RFC 9728): its `resource` (its canonical URI) and its `authorization_servers`; the client learns from it which authorization server to ask and checks that `resource` is the server it called.
pub const A_PRM: RuleId = "A-PRM";
/// A-AS-METADATA: The client reads the authorization server's metadata (RFC 8414, or OpenID Connect discovery) and checks its `issuer`; it does not go on when `code_challenge_methods_supported` is absent, since PKCE cannot be relied on.
pub const A_AS_METADATA: RuleId = "A-AS-METADATA";
/// A-REGISTER: Before authorizing, the client has a client ID: the HTTPS URL of its Client ID Metadata Document when the authorization server supports them, else a pre-registered one, else one from dynamic registration (RFC 7591, deprecated).
pub const A_REGISTER: RuleId = "A-REGISTER";
/// A-PKCE: The authorization request carries a `code_challenge` with method `S256` and the token request its `code_verifier`; the authorization server issues no token when the verifier's SHA-256 does not match the challenge, or when there was no challenge.
pub const A_PKCE: RuleId = "A-PKCE";
/// A-RESOURCE: The authorization and token requests both carry `resource`, the MCP server's canonical URI (RFC 8707), and the token is issued for that audience only.
pub const A_RESOURCE: RuleId = "A-RESOURCE";
/// A-CONSENT: The user consents on the authorization server, to the scopes asked, before any authorization code is issued; the client never sees the user's credentials.
pub const A_CONSENT: RuleId = "A-CONSENT";
/// A-ISS: The client records the authorization server's issuer before redirecting, and compares the authorization response's `iss` with it by simple string comparison; on a mismatch it sends the code nowhere and acts on nothing in the response.
pub const A_ISS: RuleId = "A-ISS";
/// A-BEARER: Every HTTP request to the MCP server carries `Authorization: Bearer <token>`; a token is never put in the query string, and the client sends the server no token but those its authorization server issued.
pub const A_BEARER: RuleId = "A-BEARER";
/// A-AUDIENCE: The MCP server accepts only unexpired tokens its authorization server issued for it (audience: its canonical URI); an invalid, expired or other resource's token gets 401, and it passes no token on.
pub const A_AUDIENCE: RuleId = "A-AUDIENCE";
/// A-SCOPE-STEP-UP: A token short of a scope the operation needs gets 403 with `error="insufficient_scope"` and every `scope` needed; the client re-authorizes with the union of the scopes it had and those challenged, and retries a few times at most.
pub const A_SCOPE_STEP_UP: RuleId = "A-SCOPE-STEP-UP";
/// A-REFRESH: An expired access token is renewed with the refresh token (grant `refresh_token`, with `resource`) without asking the user again; the client never assumes a refresh token will be issued.
pub const A_REFRESH: RuleId = "A-REFRESH";
/// A-SCOPE-SELECT: The client asks for the scope the 401 challenge names; without one, for every scope in the protected resource metadata's `scopes_supported`; without either, it leaves `scope` out.
pub const A_SCOPE_SELECT: RuleId = "A-SCOPE-SELECT";
/// A-CLIENT-AUTH: At the token endpoint the client authenticates the way the authorization server supports (`token_endpoint_auth_methods_supported`, RFC 8414; absent means `client_secret_basic`): HTTP Basic or the form body for a client with a secret, its `client_id` alone for a public client.
pub const A_CLIENT_AUTH: RuleId = "A-CLIENT-AUTH";
/// A-CLIENT-CREDENTIALS: When the authorization server grants only `client_credentials` (the OAuth client credentials extension) and the client has a secret, the client asks the token endpoint itself, authenticated, with `resource`: no user, no authorization request.
pub const A_CLIENT_CREDENTIALS: RuleId = "A-CLIENT-CREDENTIALS";
/// G-FORWARD: A gateway between a client and a server is a server to the one and a client to the other: it forwards each message on (a request with its id, so the answer finds its asker) and passes each answer, notification and server request back; what it does not rewrite reaches the other side byte for byte, and every hop is a message valid against the revision's schema.
pub const G_FORWARD: RuleId = "G-FORWARD";
/// G-FILTER: A gateway may hide some of the server's tools or prompts: a hidden one is absent from the lists it passes back, and a request naming it is answered by the gateway itself, never forwarded, with -32602 as for a name that does not exist (M-UNKNOWN-TOOL), so the refusal does not reveal that it exists.
pub const G_FILTER: RuleId = "G-FILTER";
/// G-REWRITE: A gateway that renames the tools it exposes (a prefix, to keep several servers' tools apart) maps a called name back to the server's own before it forwards the call, and keeps the HTTP headers that mirror the body (`Mcp-Name`, H-HEADERS) in step with the body it sends; a name it does not expose is unknown to it (-32602).
pub const G_REWRITE: RuleId = "G-REWRITE";
/// S-ANSWER: Every request gets one JSON-RPC response with its id, within the client's deadline: silence, a closed connection or text that is not JSON-RPC leaves the request unanswered.
pub const S_ANSWER: RuleId = "S-ANSWER";
/// S-DECLARED: A server answers the list methods of what it declares: `tools` promises `tools/list`, `prompts` promises `prompts/list`, `resources` promises `resources/list`; a declared capability answered with an error is a broken promise.
pub const S_DECLARED: RuleId = "S-DECLARED";
/// S-SCHEMA: Every message a server sends validates against the official JSON Schema of the revision it speaks (`spec/<revision>/schema.json`).
pub const S_SCHEMA: RuleId = "S-SCHEMA";

/// Every rule of the catalog, in catalog order.
pub const ALL: &[Rule] = &[
    Rule { id: RPC_ID, summary: en!("A request id is a string or integer, never null, and never equal to the id of another request the sender still awaits; in a legacy session, never equal to any id the sender used before in that session (a server refuses the duplicate with -32600). A retry is a new request and gets a new id."), source: "2026-07-28/basic/index#requests; 2025-11-25/basic/index#requests", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#requests" },
    Rule { id: RPC_PARSE, summary: en!("Text that is not JSON gets -32700 Parse error with id null."), source: "2026-07-28/basic/index#error-codes", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#error-codes" },
    Rule { id: RPC_INVALID, summary: en!("JSON that is not a valid request object (no `jsonrpc: \"2.0\"`, no method, wrong types) gets -32600 Invalid Request."), source: "JSON-RPC 2.0 §5.1", spec_url: "https://www.jsonrpc.org/specification#error_object" },
    Rule { id: RPC_NOTIFY, summary: en!("A notification (no id) never gets a response."), source: "2026-07-28/basic/index#notifications", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#notifications" },
    Rule { id: RPC_UNKNOWN_FIELD, summary: en!("Unknown fields are ignored, not rejected; this is what keeps revisions additive."), source: "lesson \"Capabilities and negotiation\"; 2026-07-28/basic/versioning", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning" },
    Rule { id: RPC_CODES, summary: en!("-32000..-32019 are legacy and not used by new code; -32020..-32099 are reserved for MCP and only -32020, -32021, -32022 are defined; a 2026-07-28 implementation never emits -32002 (resource not found, now -32602) or -32042."), source: "2026-07-28/basic/index#error-codes", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#error-codes" },
    Rule { id: M_META_REQUIRED, summary: en!("Every modern request carries `params._meta` with PV (string) and CAPS (object). A request missing either is malformed: -32602 Invalid params (HTTP 400). CINFO is optional and a server must not require it."), source: "2026-07-28/basic/index#_meta", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#_meta" },
    Rule { id: M_STATELESS, summary: en!("The server decides each request from that request alone: version, capabilities and identity are never remembered from an earlier request, even on the same connection. Declaring a capability once and dropping it later gets refused again."), source: "2026-07-28/basic/index#statelessness", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#statelessness" },
    Rule { id: M_SINFO, summary: en!("Servers identify themselves in every result's `_meta[SINFO]` (SHOULD). serverInfo and clientInfo are for display and logs only; nobody branches on them or trusts them."), source: "2026-07-28/basic/index#_meta", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#_meta" },
    Rule { id: M_RESULT_TYPE, summary: en!("Every modern result has `resultType`: `\"complete\"` or `\"input_required\"`. A client treats an absent resultType (older server) as complete and an unknown one as invalid."), source: "2026-07-28/basic/index#resulttype", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#resulttype" },
    Rule { id: M_DISCOVER, summary: en!("`server/discover` is mandatory for servers, optional for clients. Its result: resultType complete, `supportedVersions`, `capabilities` (ServerCapabilities), optional `instructions`, `_meta[SINFO]`, and cache hints `ttlMs` + `cacheScope`."), source: "2026-07-28/server/discover", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/discover" },
    Rule { id: M_VERSION, summary: en!("A request naming a version the server does not implement gets -32022 UnsupportedProtocolVersion with `data.supported` (array of strings) and `data.requested` (string) (HTTP 400). Note the exact field names: not `supportedVersions`."), source: "2026-07-28/basic/versioning#protocol-version-negotiation", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#protocol-version-negotiation" },
    Rule { id: M_VERSION_RETRY, summary: en!("On -32022 the client picks a mutually supported version from `data.supported` and retries the same request with a new id, or tells the user no common version exists."), source: "2026-07-28/basic/versioning", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning" },
    Rule { id: M_CAP_REQUIRED, summary: en!("A server must not use a client capability the request did not declare in CAPS. If the request cannot be served without it: -32021 MissingRequiredClientCapability with `data.requiredCapabilities` shaped like ClientCapabilities (an object keyed by capability, e.g. `{\"elicitation\": {}}`, never an array) (HTTP 400)."), source: "2026-07-28/basic/index#_meta", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#_meta" },
    Rule { id: M_CAP_BEFORE_WORK, summary: en!("The capability check is part of validating the request and runs before any side effect (lock, transaction, reservation)."), source: "lesson \"The elicitation capability check\"", spec_url: "" },
    Rule { id: M_CAP_ELICIT_MODES, summary: en!("`elicitation: {}` means form mode only; URL mode needs `elicitation.url`. A server never sends an elicitation in a mode the client did not declare."), source: "2026-07-28/client/elicitation#capabilities", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation#capabilities" },
    Rule { id: M_UNKNOWN_METHOD, summary: en!("An unknown method gets -32601 Method not found (HTTP 404). On a modern-only server this includes removed legacy methods: `initialize`, `ping`, `logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`."), source: "2026-07-28/basic/transports/streamable-http#protocol-version-header", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#protocol-version-header" },
    Rule { id: M_INIT_ON_MODERN, summary: en!("A modern-only server answering `initialize` names the versions it supports in its error, because a legacy client has no other diagnostic."), source: "2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions" },
    Rule { id: M_UNKNOWN_TOOL, summary: en!("`tools/call` naming a tool the server does not have is a protocol error -32602 (\"Unknown tool: NAME\"), not a capability problem and not -32601."), source: "2026-07-28/examples/InvalidParamsError", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/examples/InvalidParamsError" },
    Rule { id: M_CACHE_HINTS, summary: en!("Results of server/discover, tools/list, prompts/list, resources/list, resources/templates/list and resources/read carry an integer `ttlMs` >= 0 and `cacheScope` \"public\" or \"private\". input_required results never carry them."), source: "2026-07-28/server/utilities/caching", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching" },
    Rule { id: M_CACHE_FRESH, summary: en!("A client treats a cached result as fresh while now < received_at + ttlMs; ttlMs 0 or absent means stale; negative is treated as 0; a matching list_changed notification invalidates at once. TTL is not a polling interval."), source: "2026-07-28/server/utilities/caching", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching" },
    Rule { id: M_MRTR, summary: en!("When a server needs client input (elicitation, sampling, roots) it returns `resultType: \"input_required\"` with `inputRequests` (map of key to request) and optional opaque `requestState`; only tools/call, prompts/get and resources/read may do so. The client retries the original request with a new id, `inputResponses` keyed the same way, and `requestState` echoed unchanged. Modern servers never send requests to the client."), source: "2026-07-28/basic/patterns/mrtr", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr" },
    Rule { id: M_MRTR_CAP, summary: en!("An input request that needs a client capability (e.g. elicitation) is only sent when the current request declares it; otherwise -32021."), source: "2026-07-28/basic/patterns/mrtr; lesson 07 \"Discovering a Server and Negotiating What It Can Do\"", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr" },
    Rule { id: M_MRTR_STATE, summary: en!("A server that carries anything in `requestState` signs it (HMAC), binds it to the method, target, arguments and an expiry, and rejects a state failing any check (-32602), doing nothing. Earlier rounds' answers travel in it; a missing answer is asked for again."), source: "2026-07-28/basic/patterns/mrtr", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr" },
    Rule { id: M_LISTEN_ACK, summary: en!("The first message on a `subscriptions/listen` stream is `notifications/subscriptions/acknowledged`, naming the filter the server honours; the listen request gets a result only when the server ends the stream."), source: "2026-07-28/basic/utilities/subscriptions", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/subscriptions" },
    Rule { id: M_LISTEN_TAG, summary: en!("Every notification on a listen stream, the acknowledgement included, carries `_meta` subscriptionId: the listen request's id."), source: "2026-07-28/basic/utilities/subscriptions", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/subscriptions" },
    Rule { id: M_LISTEN_FILTER, summary: en!("A listen stream gets only the kinds it asked for and the server supports. The stream is the subscription: closed (HTTP) or cancelled (stdio), it is forgotten."), source: "2026-07-28/basic/utilities/subscriptions", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/subscriptions" },
    Rule { id: M_LOG_LEVEL, summary: en!("Without `_meta` logLevel a modern request gets no `notifications/message`; with it, only messages at that level or above, on its own response stream. A level that is not one of the eight syslog levels is refused with -32602."), source: "2026-07-28/basic/index#_meta", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#_meta" },
    Rule { id: M_PROGRESS, summary: en!("A request with `_meta.progressToken` may get `notifications/progress` with that token and a growing progress, before its result."), source: "2026-07-28/basic/utilities/progress", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/progress" },
    Rule { id: M_RESOURCES, summary: en!("`resources/read` serves listed resources and template matches (text or blob, with mimeType); an unknown URI is -32602 with `data.uri`."), source: "2026-07-28/server/resources", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/resources" },
    Rule { id: M_PROMPTS, summary: en!("`prompts/get` returns the prompt's messages with its arguments filled in; an unknown prompt or a missing required argument is -32602."), source: "2026-07-28/server/prompts", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/prompts" },
    Rule { id: M_COMPLETION, summary: en!("`completion/complete` answers `completion.values` (at most 100) matching what was typed, for a prompt argument or template variable."), source: "2026-07-28/server/utilities/completion", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/completion" },
    Rule { id: M_SCHEMA_INTACT, summary: en!("A tool's `inputSchema` is served as written: JSON Schema 2020-12 keywords (`$defs`, `$ref`, `allOf`, `if`/`then`/`else`, ...) survive."), source: "2026-07-28/server/tools", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools" },
    Rule { id: M_TOOL_INPUT, summary: en!("Arguments that break a tool's `inputSchema` (a wrong type, a missing required property, a value out of range or not in its enum, an unknown property where `additionalProperties` is false, a missing argument the tool's text needs) are a tool execution error in 2025-11-25 and 2026-07-28: a result with `isError: true` whose text names the field, so the model can correct the call; the tool does no work."), source: "2026-07-28/server/tools#error-handling; 2025-11-25/server/tools#error-handling", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling" },
    Rule { id: M_TOOL_ERROR, summary: en!("A tool that fails at its work (an API failure, a business rule) answers a result with `isError: true` and a text the model can read, not a JSON-RPC error."), source: "2026-07-28/server/tools#error-handling", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling" },
    Rule { id: M_TOOL_RATE_LIMIT, summary: en!("A rate-limited tool answers a call over its limit (N calls in any window of time) with a tool error, `isError: true`, whose text names the limit and when to retry; the tool does no work. The request is valid, so it is not a JSON-RPC error: the model reads the text and can wait."), source: "2026-07-28/server/tools#security-considerations; 2026-07-28/server/tools#error-handling", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#security-considerations" },
    Rule { id: M_TOOL_HANDLE, summary: en!("A tool may answer with a handle (an id of state the server keeps) that a later call passes back as an argument; a handle the server never issued is a tool error, `isError: true`, naming it, not a JSON-RPC error."), source: "2026-07-28/server/tools#error-handling", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling" },
    Rule { id: M_TOOL_QUARANTINE, summary: en!("A call that matches a violation the server declares is refused with a tool error naming the violation, and from then on the tool (or every tool of the server, as declared) refuses every call the same way."), source: "2026-07-28/server/tools#security-considerations", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#security-considerations" },
    Rule { id: M_TOOL_POLICY_LIST, summary: en!("A server may list different tools to different callers (a principal, or a token's scopes): a tool hidden from a caller is absent from its `tools/list`, and its call is answered as any unknown tool's, -32602, so the refusal does not reveal that the tool exists."), source: "2026-07-28/server/tools#security-considerations", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#security-considerations" },
    Rule { id: M_TOOL_POLICY_CALL, summary: en!("A caller the server's policy does not allow to call a tool it can see gets a tool error, `isError: true`, naming the refusal, not a JSON-RPC error; a server may also answer each caller its own result. Over HTTP a token short of the tool's scope is refused earlier, with 403 `insufficient_scope` (A-SCOPE-STEP-UP); over stdio the caller is who the server was launched as (A-HTTP-ONLY)."), source: "2026-07-28/server/tools#error-handling", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling" },
    Rule { id: M_TOOL_POLL, summary: en!("Long-running work one call starts answers at once with a handle; a status call passing the handle answers that it is running until the work's time has passed, then its result."), source: "2026-07-28/server/tools", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools" },
    Rule { id: M_PAGINATION, summary: en!("`tools/list`, `prompts/list`, `resources/list` and `resources/templates/list` may answer one page and an opaque `nextCursor`; the client asks for the next page with that `cursor`, and the last page has none. A cursor the server did not issue is -32602 (\"Invalid cursor\")."), source: "2026-07-28/server/utilities/pagination", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/pagination" },
    Rule { id: H_STATUS, summary: en!("200 for results; 400 for -32602 caused by malformed `_meta`, -32021, -32022, -32020, and for unparseable or invalid JSON-RPC (-32700, -32600); 404 with -32601 for unknown methods (removed legacy methods included); 202 with no body for an accepted notification; 405 for GET or DELETE on a modern-only endpoint; 403 for a present but disallowed Origin. The spec fixes no special status for other error replies (e.g. an unknown tool's -32602): they are ordinary JSON-RPC responses, sent with 200 here."), source: "2026-07-28/basic/transports/streamable-http", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http" },
    Rule { id: H_HEADERS, summary: en!("Every POST carries `MCP-Protocol-Version` equal to the body's PV, `Mcp-Method` equal to `method`, and for tools/call, resources/read, prompts/get an `Mcp-Name` equal to `params.name` / `params.uri`. Missing or mismatched: 400 with -32020 HeaderMismatch. Header names compare case-insensitively, values case-sensitively, after dropping the optional whitespace around a field value (RFC 9110 §5.5); `Mcp-Name` and `Mcp-Param-*` values may use the `=?base64?…?=` form and are decoded before comparing."), source: "2026-07-28/basic/transports/streamable-http#server-validation", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation" },
    Rule { id: H_SESSION, summary: en!("A modern-only server ignores `Mcp-Session-Id` and `Last-Event-ID` and never mints a session id."), source: "2026-07-28/basic/transports/streamable-http#earlier-streamable-http-revisions", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#earlier-streamable-http-revisions" },
    Rule { id: H_SSE_RESPONSE, summary: en!("A POST's response may be an SSE stream: the request's notifications first, its response last; never a server request."), source: "2026-07-28/basic/transports/streamable-http", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http" },
    Rule { id: H_PARAM_HEADERS, summary: en!("An argument marked `x-mcp-header: NAME` is mirrored in `Mcp-Param-NAME`. Missing, extra, non-canonical base64 or a different value is 400 with -32020."), source: "2026-07-28/basic/transports/streamable-http#server-validation", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation" },
    Rule { id: H_HOST, summary: en!("A loopback server refuses a `Host` that is not a loopback name with 403, against DNS rebinding."), source: "2026-07-28/basic/transports/streamable-http#security-warning", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#security-warning" },
    Rule { id: H_SSE_STREAM, summary: en!("A legacy POST whose reply has to wait (the server asks the client something first) gets an SSE stream that stays open: chunked, no Content-Length. It carries the server's messages for that request and ends with the request's JSON-RPC response, then closes; the server does not close it earlier."), source: "2025-11-25/basic/transports#sending-messages-to-the-server", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server" },
    Rule { id: H_SSE_POLL, summary: en!("In a 2025-11-25 session a server may end a POST's SSE stream before the response (SSE polling): the stream's first event has an id and empty data (priming) and a `retry:` field; the client reconnects with GET and `Last-Event-ID` after that time and gets the events sent meanwhile, the response last."), source: "2025-11-25/basic/transports#sending-messages-to-the-server", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server" },
    Rule { id: H_SSE_RESUME, summary: en!("Every SSE event of a legacy session has an id, unique in the session, that names its stream. A client that lost a stream sends GET with `Last-Event-ID` and gets that stream's later events, never another stream's; a GET without it opens the session's stream for messages unrelated to any request. A modern-only server answers GET with 405."), source: "2025-11-25/basic/transports#resumability-and-redelivery", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery" },
    Rule { id: E_TERMS, summary: en!("Modern = per-request `_meta` (2026-07-28 and later). Legacy = `initialize` handshake (2025-11-25 and earlier). Dual-era = speaks both. An era is a message shape, not a version string: a modern request that names an old version is still a modern request."), source: "2026-07-28/basic/versioning#terminology", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#terminology" },
    Rule { id: E_SERVER_SELECT, summary: en!("A dual-era server chooses per request: `initialize` starts legacy semantics scoped to that stdio process or HTTP session; a request with modern `_meta` is served statelessly. Both can be served at once. Its initialize result names a legacy version, never 2026-07-28."), source: "2026-07-28/basic/versioning", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning" },
    Rule { id: E_PROBE_STDIO, summary: en!("A dual-era client on stdio sends `server/discover` first, with its preferred modern version. A DiscoverResult means modern. A recognized modern error (-32022, -32021, -32020) means modern: retry with a supported version, do not fall back. Any other error, or no answer within a timeout, means legacy: fall back to `initialize`. The fallback is never keyed to one specific error code."), source: "2026-07-28/basic/transports/stdio#backward-compatibility", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility" },
    Rule { id: E_PROBE_HTTP, summary: en!("A dual-era client on HTTP tries a modern request. On 400/404/405 it reads the body: a recognized modern error means modern; an empty or unrecognized body means legacy, fall back to `initialize`."), source: "2026-07-28/basic/transports/streamable-http#backward-compatibility", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#backward-compatibility" },
    Rule { id: E_CACHE, summary: en!("The era is a property of the server, not of a request: cache it per server process (stdio) or origin (HTTP); probe again when the cached discover result's ttlMs runs out or when a call that used to work returns a version error (the server was upgraded underneath)."), source: "2026-07-28/basic/versioning; lesson \"Discovery, capabilities and the two eras\"", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning" },
    Rule { id: E_MATRIX, summary: en!("Outcomes of every client/server era pair: modern-modern works; modern client vs legacy server fails (deterministically if the client probes first); dual-era client works with both; legacy client vs modern-only server fails (server rejects initialize naming its versions); legacy client vs dual-era server works."), source: "2026-07-28/basic/versioning#compatibility-matrix", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#compatibility-matrix" },
    Rule { id: E_HEADER_ROUTE, summary: en!("A dual-era server routes a POST whose `MCP-Protocol-Version` is modern to its modern dispatcher: `initialize` there is -32601 (404)."), source: "2026-07-28/basic/transports/streamable-http#backward-compatibility", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#backward-compatibility" },
    Rule { id: L_INIT, summary: en!("`initialize` is the first request: params `protocolVersion`, `capabilities`, `clientInfo`. The server answers with its `protocolVersion`, `capabilities`, `serverInfo`, optional `instructions`. The client then sends `notifications/initialized`."), source: "2025-11-25/basic/lifecycle", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle" },
    Rule { id: L_VERSION, summary: en!("The server echoes the requested version if it supports it, otherwise answers with another version it supports (its latest). A client that cannot speak the returned version disconnects instead of carrying on."), source: "2025-11-25/basic/lifecycle#version-negotiation; lesson \"Capabilities and negotiation\"", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation" },
    Rule { id: L_CAP_SESSION, summary: en!("Capabilities are negotiated once and fixed for the session; both sides use only what was negotiated. A server never calls a client method (e.g. `elicitation/create`) the client did not declare."), source: "2025-11-25/basic/lifecycle#operation; lesson \"The elicitation capability check\"", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#operation" },
    Rule { id: L_UNDECLARED, summary: en!("What a client does with a request it never agreed to handle is up to its SDK: answer -32601, drop it silently (the server waits forever, holding whatever it acquired), or close the connection. A server must not probe to find out."), source: "lesson \"The elicitation capability check\"", spec_url: "" },
    Rule { id: L_FALLBACK, summary: en!("Without the capability, a tool that needed to ask the user returns a tool error (isError) that names the missing argument, its legal values and the context, so the model can re-call with it. Proceeding without asking is not a fallback."), source: "lesson \"The elicitation capability check\"", spec_url: "" },
    Rule { id: L_TOOL_INPUT, summary: en!("In 2024-11-05, 2025-03-26 and 2025-06-18 invalid tool arguments are a protocol error: -32602 naming the tool and the field, and the tool does no work (2025-11-25 made them tool execution errors, M-TOOL-INPUT)."), source: "2025-06-18/server/tools#error-handling; 2025-03-26/server/tools#error-handling; 2024-11-05/server/tools#error-handling", spec_url: "https://modelcontextprotocol.io/specification/2025-06-18/server/tools#error-handling" },
    Rule { id: L_RESOURCE_NOT_FOUND, summary: en!("In a legacy session (2024-11-05 to 2025-11-25) an unknown resource URI is -32002 Resource not found, with the URI in `data.uri`; 2026-07-28 changed the code to -32602 (M-RESOURCES)."), source: "2025-11-25/server/resources#error-handling", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/server/resources#error-handling" },
    Rule { id: L_LIST_CHANGED, summary: en!("A server that declared `listChanged` may send `notifications/tools/list_changed` (or prompts/resources); the notice is a hint to re-list, and the client debounces a burst into one refresh."), source: "2025-11-25/server/tools#list-changed-notification; lesson \"Capabilities and negotiation\"", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification" },
    Rule { id: L_SUBSCRIBE, summary: en!("`resources.subscribe` promises `resources/subscribe` and `notifications/resources/updated`."), source: "2025-11-25/server/resources#subscriptions", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/server/resources#subscriptions" },
    Rule { id: L_LOGGING, summary: en!("`logging/setLevel` sets the session's minimum log level and answers `{}`; `notifications/message` below it are not sent."), source: "2025-11-25/server/utilities/logging", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging" },
    Rule { id: L_SAMPLING, summary: en!("A legacy server may send `sampling/createMessage` to a client that declared sampling while a call waits; the result follows the answer."), source: "2025-11-25/client/sampling", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/client/sampling" },
    Rule { id: L_DEGRADE, summary: en!("A client degrades rather than fails when a capability is absent: no prompts, hide the prompt menu; no logging, do not wait for logs."), source: "lesson \"Capabilities and negotiation\"", spec_url: "" },
    Rule { id: L_TIMEOUT, summary: en!("Every sent request has a timeout; on expiry the sender stops waiting and sends `notifications/cancelled`."), source: "2025-11-25/basic/lifecycle#timeouts", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts" },
    Rule { id: L_SESSION_ID, summary: en!("A legacy HTTP session id is globally unique and cryptographically secure, so no client can guess another's: the real server draws 128 bits from the operating system's generator (the simulation numbers its sessions so transcripts repeat)."), source: "2025-11-25/basic/transports#session-management", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management" },
    Rule { id: L_SESSION_IDLE, summary: en!("A server may end a legacy HTTP session: after an idle time, or to stay under its cap (the one idle longest goes first). Calls still waiting in it are cancelled with no side effect; a request naming it gets 404, and the client starts a new session with initialize."), source: "2025-11-25/basic/transports#session-management", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management" },
    Rule { id: C_PARAM_HEADERS, summary: en!("On HTTP, a tool call sends each `x-mcp-header` argument as `Mcp-Param-{name}`, base64 (`=?base64?…?=`) unless plain printable ASCII; a null one sends none."), source: "2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters" },
    Rule { id: C_PARAM_INVALID, summary: en!("On HTTP, a tool with an invalid `x-mcp-header` is dropped, with a warning, and never called."), source: "2026-07-28/server/tools#x-mcp-header", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header" },
    Rule { id: C_SSE_READ, summary: en!("JSON and SSE answers are both read; a stream that ends before its response fails the request."), source: "2026-07-28/basic/transports/streamable-http#receiving-messages", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#receiving-messages" },
    Rule { id: C_MRTR_ROUNDS, summary: en!("Each input_required round is answered and retried; `requestState` is echoed, or left out if absent."), source: "2026-07-28/basic/patterns/mrtr", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr" },
    Rule { id: C_SCHEMA_NO_DEREF, summary: en!("Tool schemas are kept as listed; a network `$ref` is never fetched."), source: "2026-07-28/basic/index#ref-resolution", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#ref-resolution" },
    Rule { id: C_VERSION_RETRY_ONCE, summary: en!("A -32022 naming the version sent is retried once; three version retries at most."), source: "2026-07-28/basic/versioning#protocol-version-negotiation", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#protocol-version-negotiation" },
    Rule { id: C_EXCHANGE_FAILED, summary: en!("Each exchange has a deadline and size limits; a failure below the protocol fails its request."), source: "2025-11-25/basic/lifecycle#timeouts", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#timeouts" },
    Rule { id: C_BACKGROUND, summary: en!("A client may keep a long request (a listen stream, a slow call) open while it sends others: answers are matched by id, notifications interleave with the other calls, and a request whose answer is no longer wanted is cancelled (`notifications/cancelled` on stdio; closing its stream on HTTP)."), source: "2026-07-28/basic/utilities/cancellation", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/utilities/cancellation" },
    Rule { id: C_ELICIT_DEFAULTS, summary: en!("A form elicitation's field is answered with its `default` when the schema gives one, else with a member of its `enum`, else a plain value of its type; the simulated user accepts."), source: "2025-11-25/client/elicitation#requested-schema", spec_url: "https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema" },
    Rule { id: C_SKILL_SIZE, summary: en!("A skill file (skills extension) is read only when its skill is loaded; a read whose byte length is not its entry's `size` fails verification, like a digest mismatch, and the skill is not loaded."), source: "SEP-2640 skills extension#integrity-and-verification", spec_url: "https://modelcontextprotocol.io/seps/2640-skills-extension#integrity-and-verification" },
    Rule { id: C_SKILL_DIGEST, summary: en!("A skill file read when its skill is loaded is used only if its SHA-256 matches its entry's `digest` (`sha256:` and lowercase hex); otherwise, or when there is no such digest, the skill is not loaded and no later file of it is read."), source: "SEP-2640 skills extension#integrity-and-verification", spec_url: "https://modelcontextprotocol.io/seps/2640-skills-extension#integrity-and-verification" },
    Rule { id: C_SKILL_FRONTMATTER, summary: en!("A `SKILL.md` that passes size and digest has its YAML frontmatter parsed and compared field by field with its entry's `frontmatter`; on any difference, or frontmatter that cannot be read, the skill is not loaded."), source: "SEP-2640 skills extension#integrity-and-verification", spec_url: "https://modelcontextprotocol.io/seps/2640-skills-extension#integrity-and-verification" },
    Rule { id: A_HTTP_ONLY, summary: en!("Authorization applies to HTTP transports: a server over stdio takes its credentials from the environment and never answers 401 or 403."), source: "2026-07-28/basic/authorization#protocol-requirements", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#protocol-requirements" },
    Rule { id: A_CHALLENGE, summary: en!("A request without a valid token gets HTTP 401 with `WWW-Authenticate: Bearer resource_metadata=\"…\"` naming the server's protected resource metadata (and SHOULD say the `scope` needed); without `resource_metadata` the client falls back to the metadata's well-known URI."), source: "2026-07-28/basic/authorization/authorization-server-discovery", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/authorization-server-discovery" },
    Rule { id: A_PRM, summary: en!("The MCP server publishes protected resource metadata (RFC 9728): its `resource` (its canonical URI) and its `authorization_servers`; the client learns from it which authorization server to ask and checks that `resource` is the server it called."), source: "2026-07-28/basic/authorization#overview", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#overview" },
    Rule { id: A_AS_METADATA, summary: en!("The client reads the authorization server's metadata (RFC 8414, or OpenID Connect discovery) and checks its `issuer`; it does not go on when `code_challenge_methods_supported` is absent, since PKCE cannot be relied on."), source: "2026-07-28/basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/authorization-server-discovery#authorization-server-metadata-discovery" },
    Rule { id: A_REGISTER, summary: en!("Before authorizing, the client has a client ID: the HTTPS URL of its Client ID Metadata Document when the authorization server supports them, else a pre-registered one, else one from dynamic registration (RFC 7591, deprecated)."), source: "2026-07-28/basic/authorization/client-registration", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/client-registration" },
    Rule { id: A_PKCE, summary: en!("The authorization request carries a `code_challenge` with method `S256` and the token request its `code_verifier`; the authorization server issues no token when the verifier's SHA-256 does not match the challenge, or when there was no challenge."), source: "2026-07-28/basic/authorization/security-considerations#authorization-code-protection", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/security-considerations#authorization-code-protection" },
    Rule { id: A_RESOURCE, summary: en!("The authorization and token requests both carry `resource`, the MCP server's canonical URI (RFC 8707), and the token is issued for that audience only."), source: "2026-07-28/basic/authorization#resource-parameter-implementation", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#resource-parameter-implementation" },
    Rule { id: A_CONSENT, summary: en!("The user consents on the authorization server, to the scopes asked, before any authorization code is issued; the client never sees the user's credentials."), source: "2026-07-28/basic/authorization#authorization-flow-steps", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#authorization-flow-steps" },
    Rule { id: A_ISS, summary: en!("The client records the authorization server's issuer before redirecting, and compares the authorization response's `iss` with it by simple string comparison; on a mismatch it sends the code nowhere and acts on nothing in the response."), source: "2026-07-28/basic/authorization#authorization-response-validation", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#authorization-response-validation" },
    Rule { id: A_BEARER, summary: en!("Every HTTP request to the MCP server carries `Authorization: Bearer <token>`; a token is never put in the query string, and the client sends the server no token but those its authorization server issued."), source: "2026-07-28/basic/authorization#access-token-usage", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#access-token-usage" },
    Rule { id: A_AUDIENCE, summary: en!("The MCP server accepts only unexpired tokens its authorization server issued for it (audience: its canonical URI); an invalid, expired or other resource's token gets 401, and it passes no token on."), source: "2026-07-28/basic/authorization#token-handling", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#token-handling" },
    Rule { id: A_SCOPE_STEP_UP, summary: en!("A token short of a scope the operation needs gets 403 with `error=\"insufficient_scope\"` and every `scope` needed; the client re-authorizes with the union of the scopes it had and those challenged, and retries a few times at most."), source: "2026-07-28/basic/authorization#scope-challenge-handling", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#scope-challenge-handling" },
    Rule { id: A_REFRESH, summary: en!("An expired access token is renewed with the refresh token (grant `refresh_token`, with `resource`) without asking the user again; the client never assumes a refresh token will be issued."), source: "2026-07-28/basic/authorization#refresh-tokens", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#refresh-tokens" },
    Rule { id: A_SCOPE_SELECT, summary: en!("The client asks for the scope the 401 challenge names; without one, for every scope in the protected resource metadata's `scopes_supported`; without either, it leaves `scope` out."), source: "2026-07-28/basic/authorization#scope-selection-strategy", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#scope-selection-strategy" },
    Rule { id: A_CLIENT_AUTH, summary: en!("At the token endpoint the client authenticates the way the authorization server supports (`token_endpoint_auth_methods_supported`, RFC 8414; absent means `client_secret_basic`): HTTP Basic or the form body for a client with a secret, its `client_id` alone for a public client."), source: "2026-07-28/basic/authorization/client-registration", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization/client-registration" },
    Rule { id: A_CLIENT_CREDENTIALS, summary: en!("When the authorization server grants only `client_credentials` (the OAuth client credentials extension) and the client has a secret, the client asks the token endpoint itself, authenticated, with `resource`: no user, no authorization request."), source: "2026-07-28/basic/authorization#authorization-flow-steps", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#authorization-flow-steps" },
    Rule { id: G_FORWARD, summary: en!("A gateway between a client and a server is a server to the one and a client to the other: it forwards each message on (a request with its id, so the answer finds its asker) and passes each answer, notification and server request back; what it does not rewrite reaches the other side byte for byte, and every hop is a message valid against the revision's schema."), source: "lesson \"Registries and gateways\"; 2026-07-28/schema", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/schema" },
    Rule { id: G_FILTER, summary: en!("A gateway may hide some of the server's tools or prompts: a hidden one is absent from the lists it passes back, and a request naming it is answered by the gateway itself, never forwarded, with -32602 as for a name that does not exist (M-UNKNOWN-TOOL), so the refusal does not reveal that it exists."), source: "lesson \"Registries and gateways\"; 2026-07-28/server/tools#security-considerations", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#security-considerations" },
    Rule { id: G_REWRITE, summary: en!("A gateway that renames the tools it exposes (a prefix, to keep several servers' tools apart) maps a called name back to the server's own before it forwards the call, and keeps the HTTP headers that mirror the body (`Mcp-Name`, H-HEADERS) in step with the body it sends; a name it does not expose is unknown to it (-32602)."), source: "lesson \"Registries and gateways\"; 2026-07-28/basic/transports/streamable-http#server-validation", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation" },
    Rule { id: S_ANSWER, summary: en!("Every request gets one JSON-RPC response with its id, within the client's deadline: silence, a closed connection or text that is not JSON-RPC leaves the request unanswered."), source: "2026-07-28/basic/index#responses", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/index#responses" },
    Rule { id: S_DECLARED, summary: en!("A server answers the list methods of what it declares: `tools` promises `tools/list`, `prompts` promises `prompts/list`, `resources` promises `resources/list`; a declared capability answered with an error is a broken promise."), source: "2026-07-28/server/tools#capabilities", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#capabilities" },
    Rule { id: S_SCHEMA, summary: en!("Every message a server sends validates against the official JSON Schema of the revision it speaks (`spec/<revision>/schema.json`)."), source: "2026-07-28/schema", spec_url: "https://modelcontextprotocol.io/specification/2026-07-28/schema" },
];

/// Looks a rule up by ID.
pub fn find(id: &str) -> Option<&'static Rule> {
    ALL.iter().find(|rule| rule.id == id)
}
