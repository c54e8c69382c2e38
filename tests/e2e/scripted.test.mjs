// Scenario 22 (scripted-server): a listen stream in the background while
// calls go on, and a server the set-up makes answer wrongly on purpose. The
// page draws every message of both lanes, the scripted wrong ones as
// violations with their reasons in the inspector.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './harness.mjs';
import { assertLaneEnds, openAtEnd } from './lanes.mjs';

const T = { timeout: 90_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

test('scripted-server draws the background listen and the wrong replies as violations', T, async () => {
  const { view, want } = await openAtEnd(app, 'scripted-server');
  const { page } = view;
  await assertLaneEnds(page, want, { counts: true });
  // The listen lane: the call goes out at once, its notifications arrive
  // between the calls, and the client cancels the listen at the end.
  const listenLane = page.locator(sel('lane-0'));
  assert.equal(await listenLane.locator('[data-testid^="message-"][data-label="notifications/cancelled"]').count(), 1);
  // The wrong lane: three messages marked as deliberate violations.
  const wrongLane = page.locator(sel('lane-1'));
  const marked = wrongLane.locator('[data-testid^="message-"].violation, [data-testid^="message-"] .violation');
  assert.ok((await marked.count()) >= 3, `violations drawn: ${await marked.count()}`);
  await view.screenshot('scenario-scripted-server');
  await marked.first().click();
  await page.locator(sel('inspector-violation')).waitFor();
  assert.match(await page.locator(sel('inspector-violation')).innerText(), /resultType/);
  await view.screenshot('scenario-scripted-server-inspector');
  assert.deepEqual(view.problems(), []);
});
