#!/usr/bin/env node
// A deliberately faulty MCP server for `mcp-lanes check`: Node 20, built-in
// modules only (no npm package). It keeps the contract in FAULTS.md beside it
// (the rules it cites are in spec/RULES.md), written independently of
// server.py, which keeps the same contract in Python.
//
//   node tests/peers/faulty/server.mjs [--fault NAME] [--modern-only]             # stdio
//   node tests/peers/faulty/server.mjs [--fault NAME] [--modern-only] --http --port N
//
// stdio: one JSON-RPC message per line each way; nothing else on stdout.
// --http: Streamable HTTP, POST http://127.0.0.1:N/mcp (--port 0: any free
// port); once listening it prints "listening on http://127.0.0.1:PORT/mcp" on
// stderr. GET and DELETE get 405 with no body.
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
// Processes that are not MCP servers (also --fault):
//   echo               stdio: like cat;           HTTP: the POST body back, 200 JSON
//   silent             stdio: reads, never writes; HTTP: reads, never answers
//   garbage            stdio: "hello, this is not JSON" per line; HTTP: 200 text/html
//   crash-after-first  answers the first request, then exits 3 (stdio) or
//                      closes every later connection unanswered (HTTP)
//   wrong-id           correct answers, but every one with id 424242
//
// Where FAULTS.md is silent, this file chooses:
// - stdio, before any initialize: every request that is not initialize is
//   modern, so one without the protocolVersion key in _meta gets -32602;
// - a JSON-RPC response from the client (no method) is never answered
//   (HTTP 202), and wakes elicit-undeclared's wait;
// - elicit-undeclared over HTTP answers the call as an SSE stream: the
//   elicitation/create event first, the tool error last; the client's
//   answer comes in its own POST;
// - a line or body over 16 MiB is dropped and answered -32700;
// - page_oncall without a string "service" is a tool error (isError).
import http from 'node:http';
import process from 'node:process';

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
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const HEADER_MISMATCH = -32020;
const MISSING_CAPABILITY = -32021;
const UNSUPPORTED_VERSION = -32022;

const CACHE_HINTS = { ttlMs: 60000, cacheScope: 'public' };
const WRONG_ID = 424242;
const ELICIT_ID = 'elicit-1';
const ELICIT_WAIT_MS = 1000;
// Longer lines or bodies are dropped and answered with a parse error, so a
// huge message cannot exhaust memory.
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const PROTOCOL_FAULTS = [
  'no-answer-unknown-method', 'declared-unanswered', 'bad-schema',
  'init-no-server-info', 'echo-any-version', 'elicit-undeclared',
  'discover-no-capabilities', 'no-result-type', 'no-cache-hints',
  'version-wrong-data', 'meta-lenient', 'unknown-method-32602',
  'unknown-tool-32601', 'cap-wrong-code', 'stateful-caps',
  'elicit-without-cap', 'init-unnamed', 'status-200', 'no-header-check',
];
const NOT_MCP_MODES = ['echo', 'silent', 'garbage', 'crash-after-first', 'wrong-id'];

// ---- command line ---------------------------------------------------------

const USAGE = 'usage: server.mjs [--fault NAME] [--modern-only] [--http --port N]';

function die(message) {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseCommandLine(argv) {
  const options = { fault: '', modernOnly: false, http: false, port: 0 };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const takeValue = () => {
      if (value !== undefined) return value;
      if (i + 1 >= argv.length) die(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--fault') options.fault = takeValue();
    else if (arg === '--port') options.port = Number(takeValue());
    else if (arg === '--modern-only') options.modernOnly = true;
    else if (arg === '--http') options.http = true;
    else die(`unknown argument: ${argv[i]}`);
  }
  const known = [...PROTOCOL_FAULTS, ...NOT_MCP_MODES];
  if (options.fault && !known.includes(options.fault)) {
    die(`unknown fault: ${options.fault} (known: ${known.join(', ')})`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    die('--port needs a port number (0: any free port)');
  }
  // init-unnamed is a modern-only server's fault.
  if (options.fault === 'init-unnamed') options.modernOnly = true;
  return options;
}

const OPTIONS = parseCommandLine(process.argv.slice(2));
const FAULT = OPTIONS.fault;

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
const SILENCE = Symbol('silence');
const NO_ANSWER = Symbol('no answer');

function ok(id, result) {
  return { status: 200, message: { jsonrpc: '2.0', id, result } };
}

function fail(id, code, message, status, data) {
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
  if (OPTIONS.modernOnly) return true;
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
    return OPTIONS.modernOnly ? refuseInitialize(value) : initialize(value, ctx);
  }
  return isModern(value, ctx) ? serveModern(value, ctx) : serveLegacy(value, ctx);
}

/** handleText, never throwing: an unexpected failure is an internal error. */
function answer(text, ctx) {
  const internal = () => fail(null, INTERNAL_ERROR, 'Internal error', 500);
  try {
    const reply = handleText(text, ctx);
    return reply instanceof Promise ? reply.catch(internal) : reply;
  } catch {
    return internal();
  }
}

/** What is finally sent: the faults that bend every answer. */
function outgoing(message) {
  if (FAULT === 'wrong-id') return { ...message, id: WRONG_ID };
  return message;
}

function httpStatus(reply) {
  // H-STATUS broken by status-200: errors go with 200 like results.
  if (FAULT === 'status-200') return 200;
  return reply.status;
}

// ---- stdio ----------------------------------------------------------------

/** Calls onLine(buffer) for each line of stdin, across chunk boundaries. */
function readLines(onLine, onEnd) {
  let pending = [];
  let pendingBytes = 0;
  let tooLong = false;
  const finishLine = (tail) => {
    if (tooLong) onLine(null);
    else onLine(pending.length ? Buffer.concat([...pending, tail]) : tail);
    pending = [];
    pendingBytes = 0;
    tooLong = false;
  };
  process.stdin.on('data', (chunk) => {
    let start = 0;
    let newline;
    while ((newline = chunk.indexOf(10, start)) !== -1) {
      finishLine(chunk.subarray(start, newline));
      start = newline + 1;
    }
    if (start < chunk.length && !tooLong) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > MAX_MESSAGE_BYTES) {
        tooLong = true; // dropped until its newline
        pending = [];
      } else {
        pending.push(Buffer.from(rest));
      }
    }
  });
  process.stdin.on('end', () => {
    if (tooLong || pendingBytes > 0) finishLine(Buffer.alloc(0));
    if (onEnd) onEnd();
  });
  process.stdin.on('error', () => {});
}

function writeLine(line, then) {
  process.stdout.write(`${line}\n`, then);
}

function serveStdio() {
  process.stdout.on('error', () => process.exit(0)); // the client went away
  if (FAULT === 'echo') {
    process.stdin.pipe(process.stdout); // like cat
    return;
  }
  if (FAULT === 'silent') {
    process.stdin.resume();
    process.stdin.on('error', () => {});
    return;
  }
  if (FAULT === 'garbage') {
    readLines(() => writeLine('hello, this is not JSON'));
    return;
  }
  let stopped = false; // crash-after-first: nothing more after the first answer
  const ctx = {
    session: { initialized: false, caps: {} },
    headers: null,
    sendToClient: (message) => { if (!stopped) writeLine(JSON.stringify(message)); },
  };
  const emit = (reply) => {
    if (stopped || reply === NO_ANSWER || reply === SILENCE) return;
    writeLine(JSON.stringify(outgoing(reply.message)), FAULT === 'crash-after-first' ? () => process.exit(3) : undefined);
    if (FAULT === 'crash-after-first') stopped = true;
  };
  readLines((line) => {
    if (stopped) return;
    if (line === null) {
      emit(fail(null, PARSE_ERROR, 'Parse error: message longer than 16 MiB', 400));
      return;
    }
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    const reply = answer(text, ctx);
    if (reply instanceof Promise) reply.then(emit);
    else emit(reply);
  });
}

// ---- HTTP -----------------------------------------------------------------

/** The request body as text, or null when it is too large or cut short. */
function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    let bytes = 0;
    req.on('data', (chunk) => {
      bytes += chunk.length;
      if (bytes <= MAX_MESSAGE_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(bytes > MAX_MESSAGE_BYTES ? { tooLarge: true } : { text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve(null));
    req.on('aborted', () => resolve(null));
  });
}

function sendEmpty(res, status, headers = {}) {
  res.writeHead(status, { 'Content-Length': '0', ...headers });
  res.end();
}

function sendJson(res, status, message) {
  const body = JSON.stringify(message);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** H-SSE-STREAM: a POST whose answer waits turns into an SSE stream. */
function sseWriter(res) {
  let nextEvent = 1;
  return (message) => {
    if (!res.headersSent) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    }
    res.write(`id: ${nextEvent++}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`);
  };
}

/** Sends a reply to a POST; SILENCE holds it open forever. */
function sendReply(res, reply, sse) {
  if (reply === SILENCE || res.destroyed) return;
  if (reply === NO_ANSWER) {
    if (!res.headersSent) sendEmpty(res, 202); // RPC-NOTIFY: 202, no body
    else res.end();
    return;
  }
  const message = outgoing(reply.message);
  if (res.headersSent) {
    sse(message); // the stream's last event is the answer
    res.end();
    return;
  }
  sendJson(res, httpStatus(reply), message);
}

async function serveMcpPost(req, res) {
  const body = await readBody(req);
  if (body === null) return;
  if (body.tooLarge) {
    sendReply(res, fail(null, PARSE_ERROR, 'Parse error: body larger than 16 MiB', 400));
    return;
  }
  const sse = sseWriter(res);
  const ctx = { session: null, headers: req.headers, sendToClient: sse };
  sendReply(res, await answer(body.text, ctx), sse);
}

/** The processes that are not MCP servers, over HTTP. */
async function serveNotMcp(req, res) {
  const body = await readBody(req);
  if (FAULT === 'silent' || body === null) return; // read, never answer
  if (req.method !== 'POST') return sendEmpty(res, 405, { Allow: 'POST' });
  if (FAULT === 'echo') {
    const text = body.tooLarge ? '' : body.text;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  } else {
    const html = '<html>not MCP</html>';
    res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(html) });
    res.end(html);
  }
}

function serveHttp() {
  let crashed = false; // crash-after-first: the first POST has been taken
  const server = http.createServer((req, res) => {
    if (FAULT === 'echo' || FAULT === 'silent' || FAULT === 'garbage') {
      serveNotMcp(req, res);
      return;
    }
    if (crashed) {
      req.socket.destroy();
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/mcp') {
      req.resume();
      return sendEmpty(res, 404);
    }
    if (req.method !== 'POST') {
      // GET and DELETE: no SSE stream, no session to end.
      req.resume();
      return sendEmpty(res, 405, { Allow: 'POST' });
    }
    if (FAULT === 'crash-after-first') crashed = true;
    serveMcpPost(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, fail(null, INTERNAL_ERROR, 'Internal error', 500).message);
      else res.end();
    });
  });
  server.on('connection', (socket) => {
    if (crashed) socket.destroy();
  });
  server.on('error', (error) => {
    process.stderr.write(`cannot listen: ${error.message}\n`);
    process.exit(1);
  });
  server.listen(OPTIONS.port, '127.0.0.1', () => {
    process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`);
  });
}

if (OPTIONS.http) serveHttp();
else serveStdio();
