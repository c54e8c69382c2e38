// The MCP behaviour of the faulty server (server.mjs, beside it, is its entry
// point: the command line and the two transports). Node 20, built-in modules
// only. What it answers to one message, whatever the transport: the eras,
// initialize and server/discover, the tools, and the effects of the faults.
//
// Without --fault it is a correct dual-era deploy console (2026-07-28 served
// statelessly per request, 2025-11-25 … 2024-11-05 through initialize) with
// two tools: list_incidents (read-only) and page_oncall {service} (needs the
// client's elicitation capability). --modern-only drops the legacy side.
//
// Faults, one broken rule each:
//   no-answer-unknown-method  never answers an unknown method            S-ANSWER
//   declared-unanswered       declares prompts, answers prompts/list -32601 S-DECLARED
//   bad-schema                list_incidents listed without inputSchema  S-SCHEMA
//   init-no-server-info       initialize result has no serverInfo        L-INIT
//   echo-any-version          initialize echoes any version (1999-01-01) L-VERSION
//   elicit-undeclared         legacy page_oncall sends elicitation/create
//                             to a client that did not declare it        L-CAP-SESSION
//   discover-no-capabilities  server/discover without capabilities       M-DISCOVER
//   no-result-type            tools/call results without resultType      M-RESULT-TYPE
//   no-cache-hints            discover/tools/list without ttlMs/cacheScope M-CACHE-HINTS
//   version-wrong-data        -32022 data says supportedVersions         M-VERSION
//   meta-lenient              serves requests lacking clientCapabilities
//                             or _meta (capabilities taken as {})        M-META-REQUIRED
//   unknown-method-32602      unknown method: -32602 (HTTP 400)          M-UNKNOWN-METHOD
//   unknown-tool-32601        unknown tool: -32601 (HTTP 404)            M-UNKNOWN-TOOL
//   cap-wrong-code            missing elicitation: -32602, not -32021    M-CAP-REQUIRED
//   stateful-caps             remembers declared capabilities per client M-STATELESS
//   elicit-without-cap        missing elicitation: input_required anyway M-MRTR-CAP
//   init-unnamed              modern-only; initialize refused unnamed    M-INIT-ON-MODERN
//   status-200                every error with HTTP 200 (HTTP only)      H-STATUS
//   no-header-check           ignores Mcp-Method (HTTP only)             H-HEADERS
// (The processes that are not MCP servers are in server.mjs; wrong-id's id is
// set here, in outgoing.)
//
// Where FAULTS.md is silent, this file chooses:
// - stdio, before any initialize: every request that is not initialize is
//   modern, so one without the protocolVersion key in _meta gets -32602;
// - a JSON-RPC response from the client (no method) is never answered
//   (HTTP 202), and wakes elicit-undeclared's wait;
// - page_oncall without a string "service" is a tool error (isError).

// ---- constants ------------------------------------------------------------

const MODERN = '2026-07-28';
const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const NEWEST_LEGACY = LEGACY_VERSIONS[0];

// Reserved _meta keys (spec/RULES.md: PV, CAPS, CINFO, SINFO).
const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const CINFO = 'io.modelcontextprotocol/clientInfo';
const SINFO = 'io.modelcontextprotocol/serverInfo';

const SERVER_INFO = { name: 'faulty-deploy-console', version: '1.0.0' };

// JSON-RPC and MCP error codes.
export const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
const HEADER_MISMATCH = -32020;
const MISSING_CAPABILITY = -32021;
const UNSUPPORTED_VERSION = -32022;

const CACHE_HINTS = { ttlMs: 60000, cacheScope: 'public' };
const WRONG_ID = 424242;
const ELICIT_ID = 'elicit-1';
const ELICIT_WAIT_MS = 1000;

export const PROTOCOL_FAULTS = [
  'no-answer-unknown-method', 'declared-unanswered', 'bad-schema',
  'init-no-server-info', 'echo-any-version', 'elicit-undeclared',
  'discover-no-capabilities', 'no-result-type', 'no-cache-hints',
  'version-wrong-data', 'meta-lenient', 'unknown-method-32602',
  'unknown-tool-32601', 'cap-wrong-code', 'stateful-caps',
  'elicit-without-cap', 'init-unnamed', 'status-200', 'no-header-check',
];

// ---- configuration --------------------------------------------------------

// Set once by configure(), from the command line, before any message.
let FAULT = '';
let MODERN_ONLY = false;

/** Takes the fault (or '') and --modern-only from the command line. */
export function configure(options) {
  FAULT = options.fault;
  MODERN_ONLY = options.modernOnly;
}

// ---- small helpers --------------------------------------------------------

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(object, key) {
  return isObject(object) && Object.prototype.hasOwnProperty.call(object, key);
}

/** params._meta, or undefined when the request has none. */
function metaOf(request) {
  return has(request.params, '_meta') ? request.params._meta : undefined;
}

// A reply: the JSON-RPC message to send and its HTTP status. SILENCE means
// "send nothing and hold the HTTP request open"; NO_ANSWER (notifications,
// client responses) means nothing on stdio and 202 on HTTP.
export const SILENCE = Symbol('silence');
export const NO_ANSWER = Symbol('no answer');

function ok(id, result) {
  return { status: 200, message: { jsonrpc: '2.0', id, result } };
}

export function fail(id, code, message, status, data) {
  const error = { code, message };
  if (data !== undefined) error.data = data;
  return { status, message: { jsonrpc: '2.0', id, error } };
}

// ---- the tools ------------------------------------------------------------

function listedTools() {
  const listIncidents = {
    name: 'list_incidents',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: {} },
  };
  // S-SCHEMA: a Tool requires inputSchema; bad-schema leaves it out.
  if (FAULT === 'bad-schema') delete listIncidents.inputSchema;
  const pageOncall = {
    name: 'page_oncall',
    inputSchema: {
      type: 'object',
      properties: { service: { type: 'string' } },
      required: ['service'],
    },
  };
  return [listIncidents, pageOncall];
}

const TOOL_NAMES = ['list_incidents', 'page_oncall'];

function text(value) {
  return { type: 'text', text: value };
}

function argumentsOf(request) {
  const args = isObject(request.params) ? request.params.arguments : undefined;
  return isObject(args) ? args : {};
}

/** Runs a tool the caller is allowed to run; its CallToolResult. */
function runTool(name, args) {
  if (name === 'list_incidents') return { content: [text('INC-7: api latency')] };
  if (typeof args.service !== 'string') {
    return { isError: true, content: [text('page_oncall needs a string argument "service"')] };
  }
  return { content: [text(`paged ${args.service}`)] };
}

/** L-FALLBACK: the tool error of a legacy session without elicitation. */
function confirmationNeeded(args) {
  const service = typeof args.service === 'string' ? args.service : 'the service';
  return {
    isError: true,
    content: [text(
      `page_oncall needs a confirmation from the user before paging ${service}, ` +
      'and this client did not declare the elicitation capability; nothing was paged. ' +
      'Call it again from a client that supports elicitation.'
    )],
  };
}

// ---- capabilities ---------------------------------------------------------

function serverCapabilities() {
  // S-DECLARED: declared-unanswered promises prompts and never lists them.
  return FAULT === 'declared-unanswered' ? { tools: {}, prompts: {} } : { tools: {} };
}

// stateful-caps (M-STATELESS broken): capabilities declared by earlier modern
// requests, per clientInfo name, across requests and connections.
const rememberedCaps = new Map();
const ANONYMOUS = Symbol('no clientInfo');

function effectiveCaps(meta) {
  if (FAULT !== 'stateful-caps') return meta.caps;
  const key = meta.clientName ?? ANONYMOUS;
  const merged = { ...(rememberedCaps.get(key) ?? {}), ...meta.caps };
  rememberedCaps.set(key, merged);
  return merged;
}

// ---- answers shared by both eras ------------------------------------------

/** M-UNKNOWN-METHOD (and S-ANSWER): -32601, HTTP 404. */
function methodNotFound(request) {
  if (FAULT === 'no-answer-unknown-method') return SILENCE;
  if (FAULT === 'unknown-method-32602') return fail(request.id, INVALID_PARAMS, 'Invalid params', 400);
  return fail(request.id, METHOD_NOT_FOUND, 'Method not found', 404);
}

/** M-UNKNOWN-TOOL: an unknown tool is -32602 with HTTP 200. */
function unknownTool(request, name) {
  if (FAULT === 'unknown-tool-32601') return fail(request.id, METHOD_NOT_FOUND, 'Method not found', 404);
  return fail(request.id, INVALID_PARAMS, `Unknown tool: ${name}`, 200);
}

/** The tool name of a tools/call, or a reply refusing the call. */
function toolOf(request) {
  const name = isObject(request.params) ? request.params.name : undefined;
  if (typeof name !== 'string') {
    return { refusal: fail(request.id, INVALID_PARAMS, 'Invalid params: tools/call needs a string "name"', 200) };
  }
  if (!TOOL_NAMES.includes(name)) return { refusal: unknownTool(request, name) };
  return { name };
}

// ---- modern era (2026-07-28) ----------------------------------------------

/** M-SINFO, M-RESULT-TYPE: every modern result names the server and its type. */
function modernResult(fields) {
  return { resultType: 'complete', ...fields, _meta: { [SINFO]: SERVER_INFO } };
}

/** M-CACHE-HINTS: discover and list results carry ttlMs and cacheScope. */
function cacheHints() {
  return FAULT === 'no-cache-hints' ? {} : CACHE_HINTS;
}

/**
 * Check 1, M-META-REQUIRED: _meta must carry PV (a string) and CAPS (an
 * object). Returns {version, caps, clientName} or {refusal}.
 */
function readMeta(request, ctx) {
  const meta = metaOf(request);
  const refusal = { refusal: fail(request.id, INVALID_PARAMS, 'Invalid params', 400) };
  if (meta === undefined) {
    if (FAULT !== 'meta-lenient') return refusal;
    // meta-lenient: no _meta at all is served, as the header's version (HTTP)
    // or the modern one (stdio), declaring nothing.
    const header = ctx.headers ? headerValue(ctx.headers, 'mcp-protocol-version') : undefined;
    return { version: header ?? MODERN, caps: {}, clientName: undefined };
  }
  if (!isObject(meta) || typeof meta[PV] !== 'string') return refusal;
  let caps = meta[CAPS];
  if (caps === undefined && FAULT === 'meta-lenient') caps = {};
  if (!isObject(caps)) return refusal;
  const info = meta[CINFO];
  const clientName = isObject(info) && typeof info.name === 'string' ? info.name : undefined;
  return { version: meta[PV], caps, clientName };
}

/** A header's value, trimmed (RFC 9110 §5.5), or undefined. */
function headerValue(headers, lowercaseName) {
  const value = headers[lowercaseName];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value.join(', ') : String(value)).trim();
}

/** Mcp-Name may be sent as =?base64?…?= (H-HEADERS); decoded before comparing. */
function decodeHeaderWord(value) {
  const match = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/i.exec(value);
  return match ? Buffer.from(match[1], 'base64').toString('utf8') : value;
}

/** Check 2, H-HEADERS (HTTP only): the headers must repeat the body. */
function checkHeaders(request, version, ctx) {
  if (!ctx.headers) return null;
  const mismatch = (what) => fail(request.id, HEADER_MISMATCH, `Header mismatch: ${what}`, 400);
  if (headerValue(ctx.headers, 'mcp-protocol-version') !== version) {
    return mismatch('MCP-Protocol-Version differs from the _meta protocol version');
  }
  // no-header-check ignores Mcp-Method.
  if (FAULT !== 'no-header-check' && headerValue(ctx.headers, 'mcp-method') !== request.method) {
    return mismatch('Mcp-Method differs from the method');
  }
  if (request.method === 'tools/call') {
    const name = headerValue(ctx.headers, 'mcp-name');
    const bodyName = isObject(request.params) ? request.params.name : undefined;
    if (name === undefined || decodeHeaderWord(name) !== bodyName) {
      return mismatch('Mcp-Name differs from params.name');
    }
  }
  return null;
}

/** Check 3, M-VERSION: -32022 with data.supported and data.requested. */
function unsupportedVersion(request, version) {
  const data = FAULT === 'version-wrong-data'
    ? { supportedVersions: [MODERN], requested: version }
    : { supported: [MODERN], requested: version };
  return fail(request.id, UNSUPPORTED_VERSION, `Unsupported protocol version: ${version}`, 400, data);
}

/** A modern request: checks 1 to 3 (first failure wins), then the method. */
function serveModern(request, ctx) {
  const meta = readMeta(request, ctx);
  if (meta.refusal) return meta.refusal;
  const mismatch = checkHeaders(request, meta.version, ctx);
  if (mismatch) return mismatch;
  if (meta.version !== MODERN) return unsupportedVersion(request, meta.version);
  const caps = effectiveCaps(meta);
  switch (request.method) {
    case 'server/discover':
      return ok(request.id, discoverResult());
    case 'tools/list':
      return ok(request.id, modernResult({ tools: listedTools(), ...cacheHints() }));
    case 'tools/call':
      return callToolModern(request, caps);
    default:
      return methodNotFound(request);
  }
}

/** M-DISCOVER: versions, capabilities, cache hints, serverInfo. */
function discoverResult() {
  const result = modernResult({
    supportedVersions: [MODERN],
    capabilities: serverCapabilities(),
    ...cacheHints(),
  });
  if (FAULT === 'discover-no-capabilities') delete result.capabilities;
  return result;
}

function callToolModern(request, caps) {
  const tool = toolOf(request);
  if (tool.refusal) return tool.refusal;
  const args = argumentsOf(request);
  // M-CAP-REQUIRED, M-MRTR-CAP: page_oncall asks the user to confirm, so it
  // needs elicitation declared in this very request.
  if (tool.name === 'page_oncall' && !has(caps, 'elicitation')) {
    return missingElicitation(request, args);
  }
  const result = modernResult(runTool(tool.name, args));
  // M-RESULT-TYPE: no-result-type drops it from tools/call results.
  if (FAULT === 'no-result-type') delete result.resultType;
  return ok(request.id, result);
}

function missingElicitation(request, args) {
  if (FAULT === 'cap-wrong-code') {
    return fail(request.id, INVALID_PARAMS, 'page_oncall needs elicitation', 400);
  }
  if (FAULT === 'elicit-without-cap') {
    // M-MRTR-CAP broken: an input request the client cannot answer.
    const service = typeof args.service === 'string' ? args.service : '';
    return ok(request.id, {
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: `Page the on-call for ${service}?`,
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          },
        },
      },
      _meta: { [SINFO]: SERVER_INFO },
    });
  }
  return fail(request.id, MISSING_CAPABILITY, 'Missing required client capability: elicitation', 400,
    { requiredCapabilities: { elicitation: {} } });
}

/** M-INIT-ON-MODERN: a modern-only server names its versions to a legacy client. */
function refuseInitialize(request) {
  if (FAULT === 'init-unnamed') return fail(request.id, METHOD_NOT_FOUND, 'Method not found', 404);
  return fail(request.id, METHOD_NOT_FOUND,
    `Method not found: initialize; this server speaks protocol version ${MODERN} only (send server/discover)`,
    404, { supported: [MODERN] });
}

// ---- legacy era (initialize) ----------------------------------------------

/** L-INIT, L-VERSION: echo a supported version, else counter-offer the newest. */
function initialize(request, ctx) {
  const params = isObject(request.params) ? request.params : {};
  const asked = params.protocolVersion;
  let version = LEGACY_VERSIONS.includes(asked) ? asked : NEWEST_LEGACY;
  if (FAULT === 'echo-any-version' && typeof asked === 'string') version = asked;
  // L-CAP-SESSION: the stdio session keeps what the client declared; HTTP
  // keeps no session, so nothing is remembered there.
  if (ctx.session) {
    ctx.session.initialized = true;
    ctx.session.caps = isObject(params.capabilities) ? params.capabilities : {};
  }
  const result = { protocolVersion: version, capabilities: serverCapabilities(), serverInfo: SERVER_INFO };
  if (FAULT === 'init-no-server-info') delete result.serverInfo;
  return ok(request.id, result);
}

function serveLegacy(request, ctx) {
  switch (request.method) {
    case 'tools/list':
      return ok(request.id, { tools: listedTools() });
    case 'tools/call':
      return callToolLegacy(request, ctx);
    case 'ping':
      return ok(request.id, {});
    default:
      return methodNotFound(request);
  }
}

function callToolLegacy(request, ctx) {
  const tool = toolOf(request);
  if (tool.refusal) return tool.refusal;
  const args = argumentsOf(request);
  const sessionCaps = ctx.session ? ctx.session.caps : {};
  if (tool.name === 'page_oncall' && !has(sessionCaps, 'elicitation')) {
    // L-CAP-SESSION broken by elicit-undeclared: ask anyway.
    if (FAULT === 'elicit-undeclared') return elicitAnyway(request, args, ctx);
    return ok(request.id, confirmationNeeded(args));
  }
  return ok(request.id, runTool(tool.name, args));
}

// Server-to-client requests waiting for their answer, by id.
const waitingForClient = new Map();

/** Resolves on the client's answer to request `id`, or after `ms`. */
function awaitClientAnswer(id, ms) {
  return new Promise((resolve) => {
    const queue = waitingForClient.get(id) ?? [];
    waitingForClient.set(id, queue);
    const done = () => {
      clearTimeout(timer);
      const at = queue.indexOf(done);
      if (at >= 0) queue.splice(at, 1);
      if (queue.length === 0 && waitingForClient.get(id) === queue) waitingForClient.delete(id);
      resolve();
    };
    const timer = setTimeout(done, ms);
    queue.push(done);
  });
}

/** A JSON-RPC response from the client: wakes whoever waits for its id. */
function onClientResponse(response) {
  const queue = waitingForClient.get(response.id);
  if (queue && queue.length > 0) queue[0]();
}

async function elicitAnyway(request, args, ctx) {
  const service = typeof args.service === 'string' ? args.service : '';
  const answered = awaitClientAnswer(ELICIT_ID, ELICIT_WAIT_MS);
  ctx.sendToClient({
    jsonrpc: '2.0',
    id: ELICIT_ID,
    method: 'elicitation/create',
    params: {
      message: `Page the on-call for ${service}?`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    },
  });
  await answered;
  return ok(request.id, confirmationNeeded(args));
}

// ---- one message, either transport ----------------------------------------

/** JSON-RPC request shape (RPC-INVALID): version, method, id and params types. */
function isRequest(value) {
  if (!isObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return false;
  // RPC-ID: a string or an integer, never null.
  if (has(value, 'id') && typeof value.id !== 'string' && !Number.isInteger(value.id)) return false;
  // JSON-RPC 2.0: params, when present, is structured (an object or an array).
  if (has(value, 'params') && !isObject(value.params) && !Array.isArray(value.params)) return false;
  return true;
}

/** A response the client sends to a server request (e.g. an elicitation). */
function isClientResponse(value) {
  return isObject(value) && value.jsonrpc === '2.0' && !has(value, 'method') &&
    has(value, 'id') && (has(value, 'result') || has(value, 'error'));
}

/** A request with modern _meta (E-SERVER-SELECT), or routed modern by header. */
function isModern(request, ctx) {
  if (MODERN_ONLY) return true;
  const meta = metaOf(request);
  if (isObject(meta) && has(meta, PV)) return true;
  if (ctx.headers) {
    const header = headerValue(ctx.headers, 'mcp-protocol-version');
    return header !== undefined && header >= MODERN;
  }
  // stdio: before initialize there is no legacy session, so a request
  // without modern _meta is a malformed modern one (-32602).
  return !ctx.session.initialized;
}

/**
 * Answers one message (a stdio line or an HTTP body): a reply, NO_ANSWER,
 * SILENCE, or a promise of one of them.
 */
function handleText(text, ctx) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return fail(null, PARSE_ERROR, 'Parse error', 400); // RPC-PARSE
  }
  if (isClientResponse(value)) {
    onClientResponse(value);
    return NO_ANSWER;
  }
  if (!isRequest(value)) return fail(null, INVALID_REQUEST, 'Invalid Request', 400); // RPC-INVALID
  if (!has(value, 'id')) return NO_ANSWER; // RPC-NOTIFY
  if (value.method === 'initialize') {
    return MODERN_ONLY ? refuseInitialize(value) : initialize(value, ctx);
  }
  return isModern(value, ctx) ? serveModern(value, ctx) : serveLegacy(value, ctx);
}

/** handleText, never throwing: an unexpected failure is an internal error. */
export function answer(text, ctx) {
  const internal = () => fail(null, INTERNAL_ERROR, 'Internal error', 500);
  try {
    const reply = handleText(text, ctx);
    return reply instanceof Promise ? reply.catch(internal) : reply;
  } catch {
    return internal();
  }
}

/** What is finally sent: the faults that bend every answer. */
export function outgoing(message) {
  if (FAULT === 'wrong-id') return { ...message, id: WRONG_ID };
  return message;
}

export function httpStatus(reply) {
  // H-STATUS broken by status-200: errors go with 200 like results.
  if (FAULT === 'status-200') return 200;
  return reply.status;
}
