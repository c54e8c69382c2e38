#!/usr/bin/env node
// A deliberately faulty MCP server for `mcp-lanes check`: Node 20, built-in
// modules only (no npm package). It keeps the contract in FAULTS.md beside it
// (the rules it cites are in spec/RULES.md), written independently of
// server.py, which keeps the same contract in Python.
//
// This file is its entry point: the command line and the two transports
// (stdio, HTTP). What it answers to a message (the eras, the tools, the
// faults' effects) is in mcp.mjs, beside it.
//
//   node tests/peers/faulty/server.mjs [--fault NAME] [--modern-only]             # stdio
//   node tests/peers/faulty/server.mjs [--fault NAME] [--modern-only] --http --port N
//
// stdio: one JSON-RPC message per line each way; nothing else on stdout.
// --http: Streamable HTTP, POST http://127.0.0.1:N/mcp (--port 0: any free
// port); once listening it prints "listening on http://127.0.0.1:PORT/mcp" on
// stderr. GET and DELETE get 405 with no body.
//
// Without --fault it is a correct dual-era deploy console; the faults, one
// broken rule each, are listed in mcp.mjs.
//
// Processes that are not MCP servers (also --fault):
//   echo               stdio: like cat;           HTTP: the POST body back, 200 JSON
//   silent             stdio: reads, never writes; HTTP: reads, never answers
//   garbage            stdio: "hello, this is not JSON" per line; HTTP: 200 text/html
//   crash-after-first  answers the first request, then exits 3 (stdio) or
//                      closes every later connection unanswered (HTTP)
//   wrong-id           correct answers, but every one with id 424242
//
// Where FAULTS.md is silent, this file chooses:
// - elicit-undeclared over HTTP answers the call as an SSE stream: the
//   elicitation/create event first, the tool error last; the client's
//   answer comes in its own POST;
// - a line or body over 16 MiB is dropped and answered -32700.
import http from 'node:http';
import process from 'node:process';

import {
  configure, answer, outgoing, httpStatus, fail,
  SILENCE, NO_ANSWER, PARSE_ERROR, INTERNAL_ERROR, PROTOCOL_FAULTS,
} from './mcp.mjs';

// ---- constants ------------------------------------------------------------

// Longer lines or bodies are dropped and answered with a parse error, so a
// huge message cannot exhaust memory.
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

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
configure(OPTIONS);

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
