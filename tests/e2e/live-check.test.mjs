// The live check: the page runs the core's check plan against a real server
// with fetch and draws the exchanges as they happen, then the verdicts.
// The server is `mcp-lanes serve --preset deploy-console` (stdio) behind
// `mcp-lanes bridge --allow-origin <the page's origin>`, both started here;
// a server without CORS (`serve --transport http`) is refused by the
// browser, and the page says so and points at the bridge. The page is served
// under the site's strict Content-Security-Policy. With ?lang=zh the check's
// text and its CORS message come from the Chinese catalog, commands untouched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './harness.mjs';
import { binary, cliPeers, strictApp } from './cli-peers.mjs';

const T = { timeout: 120_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;
const peers = cliPeers();
const start = peers.start;

before(async () => {
  // Under the site's strict policy: the live check's fetches must pass it.
  app = await strictApp();
});
after(async () => {
  peers.stopAll();
  await app?.close();
});

async function runCheck(page, url) {
  await page.locator(sel('check-toggle')).click();
  await page.locator(sel('check-url')).waitFor({ timeout: 30_000 });
  await page.locator(sel('check-url')).fill(url);
  await page.locator(sel('check-run')).click();
  await page.locator(`${sel('check-status')}:has-text("Done.")`).waitFor({ timeout: 90_000 });
}

test('a live check through mcp-lanes bridge draws the exchanges and their verdicts', T, async () => {
  const origin = new URL(app.url).origin;
  const port = await start(['bridge', '--cmd', `${binary()} serve --preset deploy-console`, '--port', '0', '--allow-origin', origin]);
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('player')).waitFor({ timeout: 30_000 });
  // Lanes appear while the check runs (the first one before the last flow is done).
  const url = `http://127.0.0.1:${port}/mcp`;
  await page.locator(sel('check-toggle')).click();
  await page.locator(sel('check-url')).fill(url);
  await page.locator(sel('check-run')).click();
  await page.locator(sel('check-summary')).waitFor({ timeout: 30_000 });
  await page.locator(`${sel('check-status')}:has-text("Done.")`).waitFor({ timeout: 90_000 });
  const summary = page.locator(sel('check-summary'));
  const line = await page.locator(sel('check-summary-line')).innerText();
  assert.equal(await summary.getAttribute('data-failed'), '0', line);
  assert.ok(Number(await summary.getAttribute('data-passed')) > 0, line);
  const lanes = await page.locator('[data-testid^="lane-"][aria-labelledby]').count();
  assert.equal(lanes, 1, 'the flows merged into one lane, as `mcp-lanes check` reports them');
  assert.ok((await page.locator('[data-testid^="verdict-"]').count()) > 0, 'verdict marks');
  assert.ok((await page.locator('[data-testid^="message-0-"]').count()) >= 2, 'messages drawn');
  assert.equal(await page.locator(sel('notice')).count(), 0);
  await view.screenshot('check-live-bridge');
  // The checks provoke 400 and 404 answers on purpose (a version the server
  // does not speak, an unknown method): the browser logs those.
  const problems = view.problems().filter((p) => !(p.includes(url) && /status of 40[04]|http 40[04]/.test(p)));
  assert.deepEqual(problems, [], problems.join('\n'));
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
});

test('a server without CORS is refused by the browser, and the page says so', T, async () => {
  const port = await start(['serve', '--transport', 'http', '--port', '0', '--preset', 'deploy-console', '--quiet']);
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('player')).waitFor({ timeout: 30_000 });
  await runCheck(page, `http://127.0.0.1:${port}/mcp`);
  const notice = await page.locator(sel('notice')).innerText();
  assert.match(notice, /CORS/);
  assert.match(notice, /mcp-lanes bridge/);
  await view.screenshot('check-live-no-cors');
});

test('in Chinese (?lang=zh) the check panel and its CORS message come from the zh catalog', T, async () => {
  const zh = JSON.parse(readFileSync(path.join(REPO_ROOT, 'www/i18n/zh.json'), 'utf8'));
  const port = await start(['serve', '--transport', 'http', '--port', '0', '--preset', 'deploy-console', '--quiet']);
  const view = await app.open('/?scenario=discover&lang=zh');
  const { page } = view;
  await page.locator(sel('player')).waitFor({ timeout: 30_000 });
  assert.equal((await page.locator(sel('check-toggle')).innerText()).trim(), zh['check.title']);
  await page.locator(sel('check-toggle')).click();
  await page.locator(sel('check-url')).waitFor({ timeout: 30_000 });
  assert.equal((await page.locator(sel('check-run')).innerText()).trim(), zh['check.run']);
  assert.equal((await page.locator('label[for="check-url"]').innerText()).trim(), zh['check.url_label']);
  await page.locator(sel('check-url')).fill(`http://127.0.0.1:${port}/mcp`);
  await page.locator(sel('check-run')).click();
  await page.locator(`${sel('check-status')}:has-text("${zh['check.done']}")`).waitFor({ timeout: 90_000 });
  const notice = await page.locator(sel('notice')).innerText();
  assert.ok(notice.includes(zh['live.blocked'].split('{url}')[0]), notice);
  assert.match(notice, /CORS/);
  assert.match(notice, /mcp-lanes bridge --cmd "COMMAND" --port 8931 --allow-origin/);
  assert.doesNotMatch(notice, /The browser could not read/);
  await view.screenshot('check-live-no-cors-zh');
});
