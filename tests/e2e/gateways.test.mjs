// Scenario 31 (gateways): the same server reached straight and through a
// gateway (issue 28, point 1). A gateway lane has three columns, client,
// gateway and server; every arrow starts at its sender's lifeline and ends
// at its receiver's (as the recorded run says), no two arrow labels
// overlap, the inspector and the narration name the gateway, the Mermaid
// export has a participant for it, and the lane's setting that shows a
// hidden tool re-runs the lane.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT, startApp } from './harness.mjs';
import { assertLaneEnds, openAtEnd, openScenario } from './lanes.mjs';

const T = { timeout: 120_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;
let recorded;

before(async () => {
  app = await startApp();
  recorded = JSON.parse(await readFile(path.join(REPO_ROOT, 'www/timelines/gateways.json'), 'utf8'));
});
after(async () => {
  await app?.close();
});

/** A lane's drawing: lifelines, column heads, arrows and label chips. */
async function picture(page, n) {
  return page.evaluate((n) => {
    const svg = document.querySelector(`[data-testid="lane-${n}"] svg.lane-svg`);
    const lifelines = [...svg.querySelectorAll('line.lifeline')].map((l) => Number(l.getAttribute('x1')));
    const heads = [...svg.querySelectorAll('.heads .head-text')].map((t) => t.textContent);
    const messages = [...svg.querySelectorAll(`[data-testid^="message-${n}-"]`)].map((g) => {
      const shaft = g.querySelector('line.shaft');
      return { index: Number(g.dataset.testid.split('-').pop()), x1: Number(shaft.getAttribute('x1')), x2: Number(shaft.getAttribute('x2')) };
    });
    const chips = [...svg.querySelectorAll('.labels .chip rect')].map((r) => {
      const b = r.getBoundingClientRect();
      return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    });
    return { cls: svg.getAttribute('class'), lifelines, heads, messages, chips };
  }, n);
}

function apart(chips, what) {
  for (let i = 0; i < chips.length; i++) {
    for (let j = i + 1; j < chips.length; j++) {
      const [a, b] = [chips[i], chips[j]];
      const ok = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      assert.ok(ok, `${what}: labels ${i} and ${j} overlap: ${JSON.stringify([a, b])}`);
    }
  }
}

test('a gateway lane draws each hop between its two actors, labels apart', T, async () => {
  const { view, want } = await openAtEnd(app, 'gateways');
  const { page } = view;
  await assertLaneEnds(page, want);
  // Straight: two columns, as always.
  const straight = await picture(page, 0);
  assert.equal(straight.cls, 'lane-svg');
  assert.equal(straight.lifelines.length, 2);
  for (const n of [1, 2]) {
    const timeline = recorded[n];
    assert.deepEqual(timeline.actors, ['client', 'gateway', 'server']);
    const column = Object.fromEntries(timeline.actors.map((a, k) => [a, k]));
    const p = await picture(page, n);
    assert.equal(p.cls, 'lane-svg cols-3', `lane ${n}`);
    assert.deepEqual(p.heads, ['client', 'gateway', 'server']);
    assert.equal(p.lifelines.length, 3);
    const expected = timeline.events.filter((e) => e.type === 'message');
    assert.equal(p.messages.length, expected.length, `lane ${n} draws every hop`);
    let throughGateway = 0;
    for (const e of expected) {
      const from = e.from_actor ?? e.from;
      const to = e.to_actor ?? (e.from === 'client' ? 'server' : 'client');
      assert.ok(from === 'gateway' || to === 'gateway', `lane ${n} #${e.index} goes through the gateway`);
      throughGateway += 1;
      const m = p.messages.find((m) => m.index === e.index);
      assert.equal(m.x1, p.lifelines[column[from]], `lane ${n} #${e.index} starts at the ${from}'s lifeline`);
      assert.equal(m.x2, p.lifelines[column[to]], `lane ${n} #${e.index} ends at the ${to}'s lifeline`);
    }
    assert.ok(throughGateway >= 8, `lane ${n}: ${throughGateway} hops`);
    apart(p.chips, `lane ${n}`);
  }
  apart(straight.chips, 'lane 0');
  // The inspector and the narration name the gateway.
  const first = recorded[1].events.find((e) => e.type === 'message');
  await page.locator(sel(`message-1-${first.index}`)).click();
  assert.equal(await page.locator(sel('inspector-direction')).innerText(), 'client → gateway');
  const hop = recorded[1].events.find((e) => e.type === 'message' && e.from_actor === 'gateway');
  await page.locator(sel(`message-1-${hop.index}`)).click();
  assert.equal(await page.locator(sel('inspector-direction')).innerText(), 'gateway → server');
  assert.match(await page.locator(sel('inspector')).innerText(), /G-FORWARD/);
  assert.match(await page.locator(sel(`message-1-${first.index}`)).getAttribute('aria-label'), /client to gateway/);
  await view.screenshot('scenario-gateways');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test("Mermaid names the gateway; a gateway lane's setting shows a hidden tool", T, async () => {
  const view = await openScenario(app, 'gateways');
  const { page } = view;
  await page.locator(`${sel('exports')} > summary`).click();
  await page.locator(sel('export-lane')).waitFor();
  await page.selectOption(sel('export-lane'), '1');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(sel('export-mermaid-download')).click()]);
  const mermaid = await readFile(await download.path(), 'utf8');
  assert.match(mermaid, /participant G as gateway\n/);
  assert.match(mermaid, /C->>G: tools\/list/);
  assert.match(mermaid, /G->>S: tools\/list/);
  assert.match(mermaid, /G-->>C: 200 -32602/);
  // Lane 1 hides reset_stations: cleared, the call goes through to the server.
  await page.keyboard.press('End');
  await page.locator(`${sel('settings-1')} > summary`).click();
  const box = page.locator(sel('gateway-hides-1-reset_stations'));
  assert.equal(await box.isChecked(), true);
  assert.equal(await page.locator(sel('gateway-hides-0-reset_stations')).count(), 0, 'no gateway, no gateway setting');
  await box.uncheck();
  await page.waitForFunction(() => {
    const msgs = document.querySelectorAll('[data-testid="lane-1"] [data-testid^="message-"]');
    return msgs.length && msgs[msgs.length - 1].dataset.label === '200 result';
  });
  await view.screenshot('scenario-gateways-shows-reset');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});
