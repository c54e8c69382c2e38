// Authorization scenarios (issue 28): the flow drawn in three columns, a
// protected lane's setting that breaks one step (the lanes show what it
// costs), exports that leave the tokens out unless the reader keeps
// them, and a gateway in front of the protected server in four columns.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT, startApp } from './harness.mjs';
import { lastLabel, openScenario, scenarioDocument } from './lanes.mjs';

const T = { timeout: 120_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

test('the whole flow in three columns, and registration side by side', T, async () => {
  const view = await openScenario(app, 'auth-happy-path');
  const { page } = view;
  await page.keyboard.press('End');
  await page.locator(`${sel('player')}[data-state="end"]`).waitFor();
  assert.equal(await page.locator(`${sel('lane-0')} svg.lane-svg`).getAttribute('class'), 'lane-svg cols-3');
  assert.equal(await lastLabel(page, 0), '200 result');
  await view.screenshot('auth-happy-path');
  const two = await openScenario(app, 'auth-registration');
  await two.page.keyboard.press('End');
  await two.page.locator(`${sel('player')}[data-state="end"]`).waitFor();
  assert.equal(await two.page.locator(`${sel('lane-1')} [data-label="POST /register"]`).count(), 1);
  await two.screenshot('auth-registration');
  assert.deepEqual(view.problems(), []);
  assert.deepEqual(two.problems(), []);
});

test("a protected lane's setting breaks one step and the lane shows the cost", T, async () => {
  const view = await openScenario(app, 'auth-happy-path');
  const { page } = view;
  await page.keyboard.press('End');
  await page.locator(`${sel('settings-0')} > summary`).click();
  await page.locator(sel('auth-break-0')).selectOption('no-pkce');
  await page.waitForFunction(() => {
    const msgs = document.querySelectorAll('[data-testid="lane-0"] [data-testid^="message-"]');
    return msgs.length && msgs[msgs.length - 1].dataset.label === '400 invalid_grant';
  });
  await page.locator(sel('auth-break-0')).selectOption('expired-token');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="lane-0"] [data-label="POST /token (refresh)"]'),
  );
  assert.equal(await lastLabel(page, 0), '200 result');
  await view.screenshot('auth-setting-expired-token');
  assert.deepEqual(view.problems(), []);
});

test('exports leave tokens and codes out unless the reader keeps them', T, async () => {
  const view = await openScenario(app, 'auth-happy-path');
  const { page } = view;
  await page.locator(`${sel('exports')} > summary`).click();
  await page.locator(sel('export-lane')).waitFor();
  const download = async () => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.locator(sel('export-json-download')).click()]);
    return readFile(await d.path(), 'utf8');
  };
  const golden = scenarioDocument('auth-happy-path');
  const token = golden.setups[0].transcript.find((e) => e.message?.access_token).message.access_token;
  const redacted = await download();
  assert.ok(!redacted.includes(token), 'the access token is left out');
  assert.match(redacted, /"access_token": "\[redacted\]"/);
  assert.match(redacted, /Bearer \[redacted\]/);
  await page.locator(sel('export-keep-secrets')).check();
  const kept = JSON.parse(await download());
  assert.deepEqual(kept, { scenario: 'auth-happy-path', setups: [golden.setups[0]] });
  await view.screenshot('auth-exports-keep-secrets');
  assert.deepEqual(view.problems(), []);
});

test('a gateway in front of the protected server: four columns, its own 401 and its own token', T, async () => {
  const lesson = await readFile(path.join(REPO_ROOT, 'tests/lessons/35-protected-gateway.json'), 'utf8');
  await app.context.route('**/__files/protected-gateway.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: lesson }),
  );
  const view = await app.open(`/?scenario-url=${encodeURIComponent('/__files/protected-gateway.json')}`);
  const { page } = view;
  await page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
  await page.keyboard.press('End');
  await page.locator(`${sel('player')}[data-state="end"]`).waitFor();
  assert.equal(await page.locator(`${sel('lane-0')} svg.lane-svg`).getAttribute('class'), 'lane-svg cols-4');
  assert.equal(await page.locator(`${sel('lane-0')} [data-label="401 Unauthorized"]`).count(), 1);
  assert.equal(await page.locator(`${sel('lane-0')} [data-label="POST /token (client credentials)"]`).count(), 1);
  assert.equal(await page.locator(`${sel('lane-1')} [data-label="403 insufficient_scope"]`).count(), 1);
  assert.equal(await lastLabel(page, 0), '200 result');
  await view.screenshot('auth-behind-gateway');
  assert.deepEqual(view.problems(), []);
});
