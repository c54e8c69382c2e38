// A run of more than two actors (issue 28): the recorded timeline of
// tests/fixtures/actors/three-actors.json (client, MCP server and
// authorization server) opened by ?transcript=URL. Three column heads and
// lifelines; every arrow starts at its sender's lifeline and ends at its
// receiver's; no two arrow labels overlap; the authorization server's
// decision sits on its column; the inspector names both actors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './harness.mjs';
import { strictApp } from './cli-peers.mjs';

const T = { timeout: 240_000 };
const sel = (id) => `[data-testid="${id}"]`;
const FIXTURES = path.join(REPO_ROOT, 'tests/fixtures/actors');
const files = new Map();
let app;

before(async () => {
  app = await strictApp();
  for (const name of ['three-actors.json', 'auth-flow.json']) files.set(name, await readFile(path.join(FIXTURES, name), 'utf8'));
  await app.context.route('**/__files/*', (route) => {
    const body = files.get(new URL(route.request().url()).pathname.split('/').pop());
    return route.fulfill({ status: body ? 200 : 404, contentType: 'application/json', body: body ?? 'no such file' });
  });
});
after(async () => {
  await app?.close();
});

/** Opens a fixture at its end; checks its geometry; returns the view. */
async function drawnBetweenActors(name) {
  const view = await app.open(`/?transcript=${encodeURIComponent(`/__files/${name}`)}`);
  const { page } = view;
  await page.locator(sel('check-summary')).waitFor({ timeout: 60_000 });
  await page.locator(sel('jump-end')).click();
  const timeline = JSON.parse(files.get(name))[0];
  const consentAt = timeline.events.find((e) => e.type === 'decision' && e.actor === 'auth_server').index;
  const column = Object.fromEntries(timeline.actors.map((a, k) => [a, k]));
  const picture = await page.evaluate((consentAt) => {
    const svg = document.querySelector('[data-testid="lane-0"] svg.lane-svg');
    const lifelines = [...svg.querySelectorAll('line.lifeline')].map((l) => Number(l.getAttribute('x1')));
    const heads = [...svg.querySelectorAll('.heads .head-text')].map((t) => t.textContent);
    const messages = [...svg.querySelectorAll('[data-testid^="message-0-"]')].map((g) => {
      const shaft = g.querySelector('line.shaft');
      return { index: Number(g.dataset.testid.split('-').pop()), x1: Number(shaft.getAttribute('x1')), x2: Number(shaft.getAttribute('x2')) };
    });
    const chips = [...svg.querySelectorAll('.labels .chip rect')].map((r) => {
      const b = r.getBoundingClientRect();
      return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    });
    const consent = svg.querySelector(`[data-testid="event-0-${consentAt}"] path.glyph`).getBoundingClientRect();
    const box = svg.getBoundingClientRect();
    const scale = box.width / Number(svg.getAttribute('width'));
    return { lifelines, heads, messages, chips, consent: (consent.left + consent.right) / 2, left: box.left, scale, cls: svg.getAttribute('class') };
  }, consentAt);
  assert.equal(picture.cls, 'lane-svg cols-3');
  assert.match(await page.locator(sel('actor-0-auth_server')).innerText(), /auth server/);
  assert.deepEqual(picture.heads, ['client', 'server', 'auth server']);
  assert.equal(picture.lifelines.length, 3);
  const expected = timeline.events.filter((e) => e.type === 'message');
  assert.equal(picture.messages.length, expected.length);
  for (const e of expected) {
    const from = e.from_actor ?? e.from;
    const to = e.to_actor ?? (e.from === 'client' ? 'server' : 'client');
    const m = picture.messages.find((m) => m.index === e.index);
    assert.equal(m.x1, picture.lifelines[column[from]], `#${e.index} starts at the ${from}'s lifeline`);
    assert.equal(m.x2, picture.lifelines[column[to]], `#${e.index} ends at the ${to}'s lifeline`);
  }
  const { chips } = picture;
  for (let i = 0; i < chips.length; i++) {
    for (let j = i + 1; j < chips.length; j++) {
      const [a, b] = [chips[i], chips[j]];
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      assert.ok(apart, `labels ${i} and ${j} overlap: ${JSON.stringify([a, b])}`);
    }
  }
  // The consent decision: its glyph just left of the authorization server's lifeline.
  const asX = picture.left + picture.lifelines[2] * picture.scale;
  assert.ok(picture.consent < asX && asX - picture.consent < 20 * picture.scale, `consent at ${picture.consent}, column at ${asX}`);
  return view;
}

test('three actors: arrows between their lifelines, labels apart, the inspector names both ends', T, async () => {
  const view = await drawnBetweenActors('three-actors.json');
  const { page } = view;
  await page.locator(sel('message-0-4')).click();
  assert.equal(await page.locator(sel('inspector-direction')).innerText(), 'client → auth server');
  await page.locator(sel('message-0-5')).click();
  assert.equal(await page.locator(sel('inspector-direction')).innerText(), 'auth server → client');
  const aria = await page.locator(sel('message-0-4')).getAttribute('aria-label');
  assert.match(aria, /client to auth server/);
  await view.screenshot('actors-three');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('the simulated authorization flow drawn in three columns', T, async () => {
  const view = await drawnBetweenActors('auth-flow.json');
  const { page } = view;
  const consent = JSON.parse(files.get('auth-flow.json'))[0].events.find((e) => e.type === 'decision' && e.actor === 'auth_server');
  await page.locator(sel(`event-0-${consent.index}`)).click();
  assert.match(await page.locator(sel('inspector')).innerText(), /A-CONSENT/);
  await view.screenshot('actors-auth-flow');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});
