// The editor knows the tool: E puts the cursor in the editor's text, a
// tools/call gets an arguments form built from the tool's inputSchema (kept
// in step with the JSON), a parse error's place is the same in the
// editor's and the server's words, and "bump the id" gives the next
// request a fresh id after each Send.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openEditor, startApp } from './harness.mjs';

const T = { timeout: 90_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

const focused = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
const text = (page) => page.locator(sel('editor-text')).inputValue();

test('E opens the editor with the cursor in its text, from the first page and from the lanes', T, async () => {
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('tab-editor')).waitFor({ timeout: 30_000 });
  await page.locator('h1').click();
  await page.keyboard.press('e');
  await page.locator(sel('editor-text')).waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'editor-text', null, { timeout: 10_000 });
  // Typing goes into the text at once.
  await page.keyboard.press('End');
  assert.equal(await focused(page), 'editor-text');
  // Back to the lanes, then E again (the full page now).
  await page.locator(sel('tab-lanes')).click();
  await page.locator('h1').click();
  await page.keyboard.press('E');
  await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'editor-text', null, { timeout: 10_000 });
  await view.screenshot('editor-e-focus');
  assert.deepEqual(view.problems(), []);
  await page.close();
});

test('a tools/call gets an arguments form from the inputSchema, in step with the JSON', T, async () => {
  for (const lang of ['en', 'zh']) {
    const view = await openEditor(app, `/?scenario=discover&lang=${lang}`);
    const { page } = view;
    await page.selectOption(sel('editor-target'), 'search-index');
    await page.selectOption(sel('editor-revision'), '2025-06-18');
    await page.selectOption(sel('editor-method'), 'tools/call');
    await page.locator(sel('insert-template')).click();
    const form = page.locator(sel('arguments-form'));
    await form.waitFor();
    assert.equal(await page.locator(sel('field-index')).getAttribute('data-required'), 'true');
    assert.equal(await page.locator(sel('field-retention_days')).getAttribute('data-required'), 'false');
    assert.equal(await page.locator(sel('arg-retention_days')).getAttribute('type'), 'number');
    // A control rewrites the arguments, keeping the rest of the request.
    const before = JSON.parse(await text(page));
    await page.locator(sel('arg-retention_days')).fill('30');
    await page.locator(sel('arg-retention_days')).press('Tab');
    await page.waitForFunction(() => document.querySelector('[data-testid="editor-text"]').value.includes('"retention_days": 30'));
    const after = JSON.parse(await text(page));
    assert.equal(after.params.arguments.retention_days, 30);
    assert.equal(after.id, before.id);
    assert.equal(after.params.name, 'purge_index');
    // The text rewrites the form.
    await page.locator(sel('editor-text')).fill(JSON.stringify({ ...after, params: { ...after.params, arguments: { index: 'logs-2026' } } }, null, 2));
    await page.waitForFunction(() => document.querySelector('[data-testid="arg-index"]')?.value === 'logs-2026');
    assert.equal(await page.locator(sel('arg-retention_days')).inputValue(), '');
    await view.screenshot(`editor-arguments-form-${lang}`);
    assert.deepEqual(view.problems(), []);
    await page.close();
  }
});

test('a missing comma is at the same line and column in the editor and in the server’s answer', T, async () => {
  const view = await openEditor(app);
  const { page } = view;
  await page.selectOption(sel('editor-transport'), 'stdio');
  await page.locator(sel('editor-text')).fill('{\n  "jsonrpc": "2.0",\n  "id": 1\n  "method": "tools/list"\n}');
  await page.locator(sel('editor-lint')).waitFor();
  assert.match(await page.locator(sel('editor-lint')).innerText(), /line 4, column 3/);
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="0"]`).waitFor();
  assert.match(await page.locator(sel('reply-json')).innerText(), /line 1 column \d+/, 'the server reads one line');
  const mapped = page.locator(sel('reply-wire-error'));
  assert.equal(await mapped.getAttribute('data-line'), '4');
  assert.equal(await mapped.getAttribute('data-column'), '3');
  assert.match(await mapped.innerText(), /line 4, column 3 of your text/);
  await page.close();
});

test('bump the id after each Send: the next request gets a fresh id', T, async () => {
  const view = await openEditor(app);
  const { page } = view;
  await page.locator(sel('editor-bump-id')).check();
  const request = '{"jsonrpc":"2.0","id":5,"method":"ping"}';
  await page.locator(sel('editor-text')).fill(request);
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="0"]`).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-text"]').value === '{"jsonrpc":"2.0","id":6,"method":"ping"}');
  assert.doesNotMatch(await page.locator(sel('editor-lint')).innerText(), /RPC-ID/);
  // Remembered in this browser.
  await page.reload();
  await page.locator(sel('tab-editor')).click();
  await page.locator(sel('editor-bump-id')).waitFor();
  assert.equal(await page.locator(sel('editor-bump-id')).isChecked(), true);
  await page.locator(sel('editor-bump-id')).uncheck();
  await page.close();
});
