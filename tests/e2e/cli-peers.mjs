// Real `mcp-lanes` processes for browser tests that talk to a server the
// page does not host (the live check, the editor's "Your server" target),
// and the strict page those tests open it from.
//
//   import { cliPeers, strictApp } from './cli-peers.mjs';
//   const peers = cliPeers();
//   const port = await peers.start(['serve', '--transport', 'http', '--port', '0']);
//   ...
//   peers.stopAll();

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, STRICT_CSP, startApp } from './harness.mjs';

/** The mcp-lanes binary: $MCP_LANES_BIN, else the one scripts/test.sh built. */
export function binary() {
  const candidates = [
    process.env.MCP_LANES_BIN,
    path.join(REPO_ROOT, 'target/standalone/debug/mcp-lanes'),
    path.join(REPO_ROOT, 'target/debug/mcp-lanes'),
  ].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  assert.ok(found, `no mcp-lanes binary (cargo build -p mcp-lanes-cli): tried ${candidates.join(', ')}`);
  return found;
}

/**
 * A set of `mcp-lanes` children: `start(args)` runs one and resolves with the
 * port it prints on stderr ("listening on http://127.0.0.1:PORT/mcp");
 * `stopAll()` ends every one started.
 */
export function cliPeers() {
  const children = [];
  const start = (args) =>
    new Promise((resolve, reject) => {
      const child = spawn(binary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(child);
      let text = '';
      const timer = setTimeout(() => reject(new Error(`no port from mcp-lanes ${args.join(' ')}: ${text}`)), 20_000);
      child.stderr.on('data', (chunk) => {
        text += chunk;
        const m = text.match(/listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.on('exit', (code) => reject(new Error(`mcp-lanes ${args.join(' ')} exited ${code}: ${text}`)));
    });
  const stopAll = () => {
    for (const child of children) child.kill('SIGTERM');
  };
  return { start, stopAll };
}

/**
 * The app served under the site's strict Content-Security-Policy, with every
 * violation a page reports collected in `window.__violations`.
 */
export async function strictApp() {
  const app = await startApp({ headers: { 'content-security-policy': STRICT_CSP } });
  await app.context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return app;
}
