#!/usr/bin/env node
// An official TypeScript SDK client through the whole OAuth flow against a
// protected server whose authorization server consents at once
// (`mcp-lanes serve --auth`): --sdk v1 is @modelcontextprotocol/sdk 1.32.2
// (legacy era, initialize), --sdk v2 @modelcontextprotocol/client 2.4.0.
//
//   node tests/peers/smoke/oauth-client.mjs URL [--sdk v1|v2] [--tool NAME [--args JSON]] [--timeout SECONDS]
//
// The SDK does the flow: its first request gets 401, it reads the protected
// resource metadata and the authorization server's metadata, registers
// dynamically, and hands this script the authorization URL (PKCE S256,
// resource). This script is the user's browser: it opens the URL, and the
// lab server's redirect carries the code straight back (no sign-in page);
// the SDK exchanges it for tokens (finishAuth; v2 also checks the
// redirect's state and iss), then connects (initialize or discover), lists
// the tools and calls --tool with its bearer token. Prints one JSON
// summary: {"sdk", "ok", "requests": ["METHOD /path -> status"...],
// "authorization": {"state_returned", "iss"}, "tools", "call", "error"?}.
// No token, code or verifier is printed.
// Exit status: 0 when every step succeeded, 1 otherwise, 2 on a usage error.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';

let opts;
try {
  opts = parseArgs({
    allowPositionals: true,
    options: {
      sdk: { type: 'string', default: 'v1' },
      tool: { type: 'string', default: 'test_simple_text' },
      args: { type: 'string', default: '{}' },
      timeout: { type: 'string', default: '20' },
    },
  });
  if (opts.positionals.length !== 1) throw new Error('one URL expected');
  if (!['v1', 'v2'].includes(opts.values.sdk)) throw new Error('--sdk is v1 or v2');
} catch (err) {
  console.error(`${err.message}\nusage: oauth-client.mjs URL [--sdk v1|v2] [--tool NAME [--args JSON]] [--timeout SECONDS]`);
  process.exit(2);
}
const url = new URL(opts.positionals[0]);
const timeout = Number(opts.values.timeout) * 1000;
const v2 = opts.values.sdk === 'v2';
const pkg = v2 ? '@modelcontextprotocol/client' : '@modelcontextprotocol/sdk';
const version = JSON.parse(
  readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), 'utf8'),
).version;
const { Client, StreamableHTTPClientTransport, UnauthorizedError } = v2
  ? await import('@modelcontextprotocol/client')
  : {
    ...(await import('@modelcontextprotocol/sdk/client/index.js')),
    ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
    ...(await import('@modelcontextprotocol/sdk/client/auth.js')),
  };
const summary = { sdk: `${pkg} ${version}`, ok: false, requests: [] };

/** Every request the SDK makes, as METHOD /path -> status (no query: it holds the code). */
const logged = async (input, init) => {
  const answer = await fetch(input, { ...init, signal: AbortSignal.timeout(timeout) });
  const target = new URL(input instanceof Request ? input.url : String(input));
  summary.requests.push(`${init?.method ?? 'GET'} ${target.pathname} -> ${answer.status}`);
  return answer;
};

// Nothing listens here: the script reads the code from the redirect itself.
const redirectUrl = 'http://127.0.0.1:9/callback';
const provider = {
  saved: {},
  get redirectUrl() { return redirectUrl; },
  get clientMetadata() {
    return {
      client_name: `mcp-lanes oauth smoke (${pkg})`,
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  },
  state() { this.saved.state = `state-${Date.now()}`; return this.saved.state; },
  clientInformation() { return this.saved.client; },
  saveClientInformation(info) { this.saved.client = info; },
  tokens() { return this.saved.tokens; },
  saveTokens(tokens) { this.saved.tokens = tokens; },
  saveCodeVerifier(verifier) { this.saved.verifier = verifier; },
  codeVerifier() { return this.saved.verifier; },
  // v2 binds the callback to the authorization server it discovered (SEP-2352).
  saveDiscoveryState(state) { this.saved.discovery = state; },
  discoveryState() { return this.saved.discovery; },
  /** The browser: open the authorization URL; the lab consents at once and redirects back. */
  async redirectToAuthorization(authorizationUrl) {
    const answer = await logged(authorizationUrl.href, { redirect: 'manual' });
    const location = answer.headers.get('location');
    if (!location) throw new Error(`the authorization endpoint answered ${answer.status} without a redirect`);
    const back = new URL(location);
    summary.authorization = {
      state_returned: back.searchParams.get('state') === this.saved.state,
      iss: back.searchParams.get('iss'),
      asked: Object.fromEntries(['response_type', 'code_challenge_method', 'resource', 'scope']
        .map((k) => [k, authorizationUrl.searchParams.get(k)])),
    };
    this.code = back.searchParams.get('code');
    this.callback = back.searchParams;
  },
};

const transport = () => new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: logged });
try {
  let client = new Client({ name: 'mcp-lanes-oauth-smoke', version: '1.0.0' });
  try {
    await client.connect(transport());
  } catch (err) {
    if (!(err instanceof UnauthorizedError) || !provider.code) throw err;
    const first = transport();
    await (v2 ? first.finishAuth(provider.callback) : first.finishAuth(provider.code));
    client = new Client({ name: 'mcp-lanes-oauth-smoke', version: '1.0.0' });
    await client.connect(first);
  }
  summary.server_info = client.getServerVersion();
  summary.token_type = provider.saved.tokens?.token_type;
  summary.scope = provider.saved.tokens?.scope;
  const listed = await client.listTools(undefined, { timeout });
  summary.tools = listed.tools.map((t) => t.name);
  const result = await client.callTool({ name: opts.values.tool, arguments: JSON.parse(opts.values.args) }, undefined, { timeout });
  summary.call = { name: opts.values.tool, result };
  summary.ok = !result.isError;
  await client.close();
} catch (err) {
  summary.error = String(err?.message ?? err);
}
console.log(JSON.stringify(summary));
process.exit(summary.ok ? 0 : 1);
