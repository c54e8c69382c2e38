// The editor's "Your server" target: a hand-crafted request goes with fetch
// (the live check's path) to a real server, here `mcp-lanes serve --preset
// deploy-console` behind `mcp-lanes bridge --allow-origin <the page's
// origin>`, both started here; the reply is drawn in the editor's lane like
// any target's. A server without CORS (`serve --transport http`) is refused
// by the browser and the editor says so, pointing at the bridge. The page is
// served under the site's strict Content-Security-Policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { binary, cliPeers, strictApp } from './cli-peers.mjs';

const T = { timeout: 120_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;
const peers = cliPeers();
const start = peers.start;

before(async () => {
  app = await strictApp();
});
after(async () => {
  peers.stopAll();
  await app?.close();
});

/** Opens the editor and points "Your server" at `url`. */
async function yourServer(url) {
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('tab-editor')).waitFor({ timeout: 30_000 });
  await page.locator('h1').click();
  await page.keyboard.press('e');
  await page.locator(sel('editor-text')).waitFor({ state: 'visible', timeout: 30_000 });
  await page.selectOption(sel('editor-target'), 'remote');
  await page.locator(sel('editor-remote-url')).fill(url);
  await page.locator(sel('editor-remote-url')).press('Tab');
  await page.waitForFunction(
    (u) => document.querySelector('[data-testid="editor-remote-url"]')?.value === u,
    url,
  );
  await page.selectOption(sel('editor-revision'), '2026-07-28');
  await page.selectOption(sel('editor-method'), 'tools/list');
  await page.locator(sel('insert-template')).click();
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="editor-text"]').value.includes('"method": "tools/list"'),
  );
  return view;
}

test('"Your server" sends a hand-crafted request through mcp-lanes bridge and draws the reply', T, async () => {
  const origin = new URL(app.url).origin;
  const port = await start(['bridge', '--cmd', `${binary()} serve --preset deploy-console`, '--port', '0', '--allow-origin', origin]);
  const url = `http://127.0.0.1:${port}/mcp`;
  const view = await yourServer(url);
  const { page } = view;
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="0"]`).waitFor({ timeout: 30_000 });
  const pane = page.locator(sel('reply'));
  assert.equal(await pane.locator(sel('reply-status')).innerText(), 'HTTP 200');
  const reply = JSON.parse(await pane.locator(sel('reply-json')).innerText());
  assert.ok(Array.isArray(reply.result?.tools), JSON.stringify(reply));
  assert.ok(reply.result.tools.some((t) => t.name === 'notify_oncall'), 'the real server\'s tools');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^="message-90-"]').length >= 2, null, { timeout: 10_000 });
  assert.match(await page.locator('.editor-lane .peers').innerText(), new RegExp(`127\\.0\\.0\\.1:${port}`));
  assert.equal(await page.locator(sel('editor-notice')).count(), 0);
  await view.screenshot('editor-your-server');
  assert.deepEqual(view.problems(), []);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
});

test('"Your server" without CORS: the browser refuses, the editor says so and names the bridge', T, async () => {
  const port = await start(['serve', '--transport', 'http', '--port', '0', '--preset', 'deploy-console', '--quiet']);
  const view = await yourServer(`http://127.0.0.1:${port}/mcp`);
  const { page } = view;
  await page.locator(sel('send')).click();
  await page.locator(`${sel('editor-notice')}:has-text("CORS")`).waitFor({ timeout: 30_000 });
  const notice = await page.locator(sel('editor-notice')).innerText();
  assert.match(notice, /mcp-lanes bridge/);
  assert.equal(await page.locator(`${sel('reply')}[data-index="0"]`).count(), 1, 'the failed exchange is listed');
});

test('"Your server": a refusal names the versions each side named and gets the simulated replies\' lint', T, async () => {
  const origin = new URL(app.url).origin;
  const port = await start(['bridge', '--cmd', `${binary()} serve --preset deploy-console`, '--port', '0', '--allow-origin', origin]);
  const view = await yourServer(`http://127.0.0.1:${port}/mcp`);
  const { page } = view;
  const editor = page.locator(sel('editor-text'));
  const text = await editor.inputValue();
  const asked = text.replace('"io.modelcontextprotocol/protocolVersion": "2026-07-28"', '"io.modelcontextprotocol/protocolVersion": "2025-11-25"');
  assert.notEqual(asked, text, 'the template names its version');
  await editor.fill(asked);
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="0"]`).waitFor({ timeout: 30_000 });
  const pane = page.locator(sel('reply'));
  const versions = await pane.locator(sel('reply-versions')).innerText();
  assert.match(versions, /asked for 2025-11-25/);
  assert.match(versions, /server supports 2026-07-28/);
  assert.doesNotMatch(versions, /server speaks/);
  await pane.locator(sel('reply-code')).waitFor({ timeout: 10_000 });
  assert.match(await pane.locator(sel('reply-code')).innerText(), /-32022 UnsupportedProtocolVersion/);
  assert.ok(await pane.locator(`${sel('reply-rules')} [data-rule="M-VERSION"]`).count() > 0, 'the rules behind the code');
  assert.equal(await pane.locator(sel('reply-lint')).count(), 0, 'the refusal fits the spec');
  const supported = pane.locator('[data-path="error.data.supported"]');
  await supported.hover();
  assert.match(await supported.locator('.fx').innerText(), /retries with one of them/);
  await view.screenshot('editor-your-server-refusal');
  assert.deepEqual(view.problems().filter((p) => !/status of 400/.test(p) && !/^http 400/.test(p)), []);
});
