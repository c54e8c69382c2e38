// Scenario 23 (tool-state): tools that remember their earlier calls. The
// page draws the rate-limited, quarantined and unknown-handle calls as
// tool errors, the server's handle decisions, and the job polled until
// its virtual time has passed.
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

test('tool-state draws rate limit, quarantine, handles and polling', T, async () => {
  const { view, want } = await openAtEnd(app, 'tool-state');
  const { page } = view;
  await assertLaneEnds(page, want, { counts: true });
  // Lane 0: the third search (rate limit), the violation and the call after
  // it (quarantine) are tool errors.
  const errors0 = page.locator(`${sel('lane-0')} [data-testid^="message-"][data-label="result (isError)"]`);
  assert.equal(await errors0.count(), 3);
  // Lane 1: the unknown handle is the one tool error; the rest are results.
  const errors1 = page.locator(`${sel('lane-1')} [data-testid^="message-"][data-label="200 result (isError)"]`);
  assert.equal(await errors1.count(), 1);
  await view.screenshot('scenario-tool-state');
  assert.deepEqual(view.problems(), []);
});
