#!/usr/bin/env node
// Runs the suite's authorization-server scenarios against an authorization
// server that consents at once (`mcp-lanes serve --auth`), standing in for
// the person at the browser the suite asks to open its authorization URL.
//
//   node tests/peers/conformance-authorization.mjs --url ISSUER
//        [--resource URI] [--spec-version V] [--timeout MS] --out DIR
//
// 1. Reads the server's RFC 8414 metadata (ISSUER/.well-known/
//    oauth-authorization-server) and registers a public client there
//    (RFC 7591) with the suite's callback, http://127.0.0.1:PORT/callback
//    on a free PORT: the suite needs a registered --client-id.
// 2. Runs `conformance authorization --url ISSUER --client-id ID --port PORT
//    [--resource URI]` (every authorization scenario, in the suite's
//    order: the code grant reads the metadata scenario's result), its
//    results in DIR, its console output in DIR/suite.log.
// 3. When the suite prints the authorization URL, GETs it without
//    following the redirect, and GETs the redirect's Location (the suite's
//    callback): what a browser does after the person consents, which a lab
//    server does at once. Nothing in the answers is changed or skipped.
// Exit status: the suite's (0: no check failed), 2 on a usage error.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const suiteJs = path.join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const opts = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const name = argv[i].replace(/^--/, '');
  if (!['url', 'resource', 'spec-version', 'timeout', 'out'].includes(name) || argv[i + 1] === undefined) {
    console.error(`usage: conformance-authorization.mjs --url ISSUER [--resource URI] [--spec-version V] [--timeout MS] --out DIR (bad: ${argv[i]})`);
    process.exit(2);
  }
  opts[name] = argv[i + 1];
}
if (!opts.url || !opts.out) {
  console.error('conformance-authorization.mjs needs --url and --out');
  process.exit(2);
}
const timeout = Number(opts.timeout ?? 15000);
const issuer = opts.url.replace(/\/$/, '');
fs.mkdirSync(opts.out, { recursive: true });
const log = fs.createWriteStream(path.join(opts.out, 'suite.log'));
const say = (line) => log.write(`[runner] ${line}\n`);

const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer();
  s.on('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

const metadataUrl = `${new URL(issuer).origin}/.well-known/oauth-authorization-server${new URL(issuer).pathname.replace(/\/$/, '')}`;
const metadata = await (await fetch(metadataUrl, { signal: AbortSignal.timeout(timeout) })).json();
if (!metadata.registration_endpoint || !metadata.authorization_endpoint) {
  console.error(`no registration or authorization endpoint in ${metadataUrl}`);
  process.exit(1);
}
const port = await freePort();
const redirect = `http://127.0.0.1:${port}/callback`;
const registered = await fetch(metadata.registration_endpoint, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    client_name: 'MCP conformance suite',
    redirect_uris: [redirect],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }),
  signal: AbortSignal.timeout(timeout),
});
const client = await registered.json();
if (!client.client_id) {
  console.error(`registration failed: ${registered.status} ${JSON.stringify(client)}`);
  process.exit(1);
}
say(`registered client ${client.client_id} with redirect URI ${redirect}`);

const args = ['--import', path.join(here, 'node20/register.mjs'), suiteJs, 'authorization',
  '--url', issuer, '--client-id', client.client_id, '--port', String(port), '-o', opts.out];
if (opts.resource) args.push('--resource', opts.resource);
if (opts['spec-version']) args.push('--spec-version', opts['spec-version']);
const suite = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
suite.stderr.on('data', (chunk) => log.write(chunk));

/** The person's browser: open the URL, follow its one redirect to the callback. */
async function consent(url) {
  const answer = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeout) });
  const location = answer.headers.get('location');
  say(`GET authorization URL -> ${answer.status}`);
  if (!location) return;
  const back = await fetch(location, { signal: AbortSignal.timeout(timeout) });
  say(`GET redirect to the callback -> ${back.status}`);
}

const lines = readline.createInterface({ input: suite.stdout });
lines.on('line', (line) => {
  log.write(`${line}\n`);
  if (line.startsWith(`${metadata.authorization_endpoint}?`)) {
    consent(line.trim()).catch((err) => say(`the authorization URL failed: ${err}`));
  }
});
const watchdog = setTimeout(() => { say('the suite took too long'); suite.kill(); }, timeout * 8);
suite.on('exit', (code) => {
  clearTimeout(watchdog);
  say(`suite exited with ${code}`);
  log.end(() => process.exit(code ?? 1));
});
