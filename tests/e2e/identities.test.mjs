// Scenario 30 (identities): one server, callers with different rights.
// Each lane's client shows its principal after its name (as text); alice
// is served, bob is refused (a hidden tool, then 403 over HTTP, a tool
// error over stdio) and carol, without a token, gets 401.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './harness.mjs';
import { openAtEnd } from './lanes.mjs';

const T = { timeout: 90_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

test('identities draws each caller, its refusals and its principal', T, async () => {
  const { view, want } = await openAtEnd(app, 'identities');
  const { page } = view;
  const principals = ['alice', 'bob', 'bob', 'carol'];
  for (let n = 0; n < want.length; n++) {
    const lane = page.locator(sel(`lane-${n}`));
    assert.equal(await lane.locator('h3').innerText(), want[n].label, `lane ${n} label`);
    assert.equal(await lane.locator('[data-testid^="message-"]').count(), want[n].count, `lane ${n} draws every message`);
    const client = await lane.locator('.peers .peer').first().innerText();
    assert.ok(client.endsWith(`· ${principals[n]}`), `lane ${n} client: ${client}`);
  }
  const labels = async (n) =>
    page.locator(`${sel(`lane-${n}`)} [data-testid^="message-"]`).evaluateAll((ms) => ms.map((m) => m.dataset.label));
  // alice: every answer a result.
  assert.ok((await labels(0)).filter((l) => l.startsWith('200')).length === 3, `alice: ${await labels(0)}`);
  // bob over HTTP: the hidden tool is -32602, the delete 403.
  const bob = await labels(1);
  assert.ok(bob.includes('200 -32602'), `bob: ${bob}`);
  assert.ok(bob.some((l) => l.startsWith('403')), `bob: ${bob}`);
  // bob over stdio: a tool error.
  assert.ok((await labels(2)).includes('result (isError)'));
  // carol: 401.
  assert.ok((await labels(3)).some((l) => l.startsWith('401')), `carol: ${await labels(3)}`);
  await view.screenshot('scenario-identities');
  assert.deepEqual(view.problems(), []);
});
