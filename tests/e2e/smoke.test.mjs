// Smoke test: the built app loads in chromium, the wasm app renders, and the
// page is quiet (no console errors or warnings, no uncaught errors).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './harness.mjs';

let app;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

test('the page loads, renders "mcp-lanes" and logs no errors or warnings', { timeout: 60_000 }, async () => {
  const view = await app.open('/');
  // <noscript> and <title> also say mcp-lanes; innerText only counts what is
  // rendered, so this waits for the wasm app itself to mount.
  await view.page.waitForFunction(() => document.body.innerText.includes('mcp-lanes'), null, {
    timeout: 30_000,
  });
  assert.equal(await view.page.title(), 'mcp-lanes');
  const heading = view.page.locator('h1').first();
  if ((await heading.count()) > 0) {
    assert.match(await heading.innerText(), /mcp-lanes/);
  }
  // let late work (deferred effects, timers) report before judging the console
  await view.page.waitForTimeout(500);
  const shot = await view.screenshot('smoke');
  assert.ok(shot.endsWith('smoke.png'));
  assert.deepEqual(view.problems(), [], `console errors/warnings on load:\n${view.problems().join('\n')}`);
});

test('the page names no WebAssembly; the server sends the bundles as application/wasm', async () => {
  const html = await (await fetch(app.url + '/')).text();
  assert.doesNotMatch(html, /\.wasm/, 'a first visit loads no WebAssembly');
  for (const wasm of ['/mcp-lanes-lite_bg.wasm', '/mcp-lanes-web_bg.wasm']) {
    const res = await fetch(new URL(wasm, app.url + '/'));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/wasm');
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'wasm magic number');
  }
});
