#!/usr/bin/env node
// A protected MCP server (2026-07-28 authorization) with one fault at a
// time, Node built-in modules only. The contract is PROTECTED.md. The
// token check is done here; an allowed request is passed on to a correct
// faulty/server.mjs started as a child (a gateway in front of an MCP
// server), its answer streamed back as it comes.

import http from 'node:http';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import process from 'node:process';

const FAULTS = ['challenge-no-metadata', 'challenge-not-bearer', 'any-audience',
  'no-metadata', 'scope-401', 'not-mcp'];
const NEEDED = 'mcp:tools';
const ISSUED = new Map([
  ['good-token', { aud: 'self', scope: [NEEDED] }],
  ['other-audience-token', { aud: 'other', scope: [NEEDED] }],
  ['low-scope-token', { aud: 'self', scope: [] }],
]);

function options(argv) {
  const out = { fault: null, port: 0 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--fault') out.fault = argv[++i];
    else if (argv[i] === '--port') out.port = Number(argv[++i]);
    else { process.stderr.write(`unknown option ${argv[i]}\n`); process.exit(2); }
  }
  if (out.fault !== null && !FAULTS.includes(out.fault)) {
    process.stderr.write(`unknown --fault ${out.fault}; known: ${FAULTS.join(', ')}\n`);
    process.exit(2);
  }
  return out;
}

const opts = options(process.argv.slice(2));
let origin = '';
const q = (s) => `"${s.replace(/["\\]/g, (c) => '\\' + c)}"`;
const metadataUrl = () => `${origin}/.well-known/oauth-protected-resource/mcp`;

function wwwAuthenticate() {
  switch (opts.fault) {
    case 'challenge-not-bearer': return 'Basic realm="mcp"';
    case 'challenge-no-metadata': return `Bearer scope=${q(NEEDED)}`;
    default: return `Bearer resource_metadata=${q(metadataUrl())}, scope=${q(NEEDED)}`;
  }
}

// What to refuse the request with, or null to let it through.
function verdictOn(authorization) {
  const m = /^Bearer\s+(\S+)\s*$/.exec(authorization || '');
  const token = m && ISSUED.get(m[1]);
  if (!token) return [401, wwwAuthenticate()];
  if (token.aud !== 'self' && opts.fault !== 'any-audience') return [401, wwwAuthenticate()];
  if (!token.scope.includes(NEEDED)) {
    if (opts.fault === 'scope-401') return [401, wwwAuthenticate()];
    return [403, `Bearer error="insufficient_scope", scope=${q(NEEDED)}, resource_metadata=${q(metadataUrl())}`];
  }
  return null;
}

function json(res, status, doc, headers = {}) {
  const body = doc === undefined ? '' : JSON.stringify(doc);
  const h = { ...headers, 'content-length': Buffer.byteLength(body) };
  if (doc !== undefined) h['content-type'] = 'application/json';
  res.writeHead(status, h);
  res.end(body);
}

function documents(pathname) {
  if (pathname === '/.well-known/oauth-protected-resource/mcp' && opts.fault !== 'no-metadata') {
    return { resource: `${origin}/mcp`, authorization_servers: [origin], scopes_supported: [NEEDED] };
  }
  if (pathname === '/.well-known/oauth-authorization-server') {
    return {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    };
  }
  return undefined;
}

// The MCP server behind the gateway.
const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.join(here, '..', 'faulty', 'server.mjs');
// The child ends when its stdin does, that is when this process ends, even
// killed: a gateway leaves no server behind.
const boot = `process.stdin.on('end', () => process.exit(0)); process.stdin.resume();
process.argv.splice(1, 0, ${JSON.stringify(script)});
await import(${JSON.stringify(pathToFileURL(script).href)});`;
const inner = spawn(process.execPath, ['--input-type=module', '-e', boot, '--', '--http', '--port', '0'],
  { stdio: ['pipe', 'ignore', 'pipe'] });
process.on('exit', () => inner.kill());
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
const innerPort = await new Promise((resolve, reject) => {
  let seen = '';
  inner.stderr.on('data', (chunk) => {
    seen += chunk;
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(seen);
    if (m) resolve(Number(m[1]));
  });
  inner.on('exit', () => reject(new Error('the inner MCP server exited')));
});

function passOn(req, res) {
  const headers = { ...req.headers };
  delete headers.authorization; // a token is never passed on (A-AUDIENCE)
  headers.host = `127.0.0.1:${innerPort}`;
  const up = http.request({ host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers);
    answer.pipe(res);
  });
  up.on('error', () => res.destroy());
  req.pipe(up);
}

const server = http.createServer((req, res) => {
  const { pathname } = new URL(req.url, 'http://x');
  if (opts.fault === 'not-mcp') {
    req.resume();
    const page = '<html><body>Sign in to the intranet</body></html>';
    res.writeHead(401, { 'www-authenticate': 'Basic realm="intranet"', 'content-type': 'text/html',
      'content-length': Buffer.byteLength(page) });
    res.end(page);
    return;
  }
  if (req.method === 'GET' && pathname !== '/mcp') {
    req.resume();
    const doc = documents(pathname);
    if (doc) json(res, 200, doc); else json(res, 404);
    return;
  }
  if (pathname !== '/mcp') { req.resume(); json(res, 404); return; }
  const refused = verdictOn(req.headers.authorization);
  if (refused) {
    req.resume();
    json(res, refused[0], undefined, { 'www-authenticate': refused[1] });
    return;
  }
  passOn(req, res);
});

server.listen(opts.port, '127.0.0.1', () => {
  origin = `http://127.0.0.1:${server.address().port}`;
  process.stderr.write(`listening on ${origin}/mcp\n`);
});
