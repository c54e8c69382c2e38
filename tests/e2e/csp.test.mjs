// The site under a strict Content-Security-Policy, as many course sites and
// LMSs serve it: no inline script, no inline style, WebAssembly allowed.
// The page, the hand-over to the full bundle, an iframe figure (with a
// permalink fragment) and the course page's script figures must all work
// (and a script figure's hand-over) with zero `securitypolicyviolation`
// events, and envelopes must still
// travel along their arrows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openEditor, startApp } from './harness.mjs';
const T = { timeout: 120_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;

before(async () => {
  app = await startApp({ headers: { 'content-security-policy': STRICT_CSP } });
  // Every frame records the violations it sees.
  await app.context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
});
after(async () => {
  await app?.close();
});

/** Violations seen by the page and each of its frames. */
async function violations(page) {
  const out = [];
  for (const frame of page.frames()) {
    out.push(...((await frame.evaluate(() => window.__violations ?? []).catch(() => [])) ?? []));
  }
  return out;
}

test('the server sends the strict policy', async () => {
  const res = await fetch(app.url + '/');
  assert.equal(res.headers.get('content-security-policy'), STRICT_CSP);
  const html = await res.text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'index.html has no inline script');
  assert.doesNotMatch(html, /\sstyle=/, 'index.html has no style attribute');
});

test('the page plays under the strict policy, and envelopes travel along their arrows', T, async () => {
  const view = await app.open('/?scenario=plain-vs-rich');
  const { page } = view;
  await page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
  await page.locator(sel('speed')).selectOption('0');
  await page.locator(sel('step-forward')).click();
  const envelope = page.locator('.envelope').first();
  await envelope.waitFor({ state: 'attached' });
  const name = await page.evaluate(() => getComputedStyle(document.querySelector('.envelope')).animationName);
  assert.match(name, /^travel(-back)?$/, 'the envelope is animated');
  // When it has travelled, the envelope sits at the arrow's end.
  await page.waitForTimeout(3_000);
  const where = await page.evaluate(() => {
    // The visible envelope (the group also holds its invisible copy at the end).
    const env = document.querySelector('.envelope rect:not(.env-end)');
    const msg = document.querySelector('g.msg');
    const shaft = msg.querySelector('line.shaft');
    const e = env.getBoundingClientRect();
    const end = new DOMPoint(Number(shaft.getAttribute('x2')), Number(shaft.getAttribute('y2'))).matrixTransform(shaft.getScreenCTM());
    return { ex: e.x + e.width / 2, ey: e.y + e.height / 2, x: end.x, y: end.y };
  });
  assert.ok(Math.abs(where.ex - where.x) < 12 && Math.abs(where.ey - where.y) < 12, `envelope at the arrow's end: ${JSON.stringify(where)}`);
  await page.locator(sel('jump-end')).click();
  await page.locator(`${sel('player')}[data-state="end"]`).waitFor();
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(view.problems(), []);
  await page.close();
});

test('the hand-over to the full bundle and the editor work under the strict policy', T, async () => {
  const view = await openEditor(app);
  const { page } = view;
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="0"]`).waitFor({ timeout: 10_000 });
  await page.waitForTimeout(1_000);
  assert.equal(await page.locator('.editor-lane g.msg').count(), 2);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(view.problems(), []);
  await page.close();
});

test('an iframe figure with a permalink fragment works under the strict policy', T, async () => {
  // A fragment the page itself writes: two steps into discover.
  const first = await app.open('/?scenario=discover');
  await first.page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
  await first.page.locator(sel('step-forward')).click();
  await first.page.locator(sel('step-forward')).click();
  await first.page.waitForFunction(() => location.hash.startsWith('#v3.'));
  const hash = await first.page.evaluate(() => location.hash);
  await first.page.close();
  const view = await app.open(`/?embed=1&scenario=discover${hash}`);
  const { page } = view;
  await page.locator(sel('player')).waitFor({ timeout: 30_000 });
  assert.match(await page.locator(sel('step-count')).innerText(), /^2\//, 'the figure starts where the fragment says');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(view.problems(), []);
  await page.close();
});

test('the course page: script figures and the iframe figure under the strict policy', T, async () => {
  const view = await app.open('/course-demo.html');
  const { page } = view;
  for (const id of ['fig-discover', 'fig-plain-vs-rich', 'fig-unchecked']) {
    await page.waitForFunction((id) => !!document.getElementById(id).shadowRoot?.querySelector('[data-testid="player"]'), id, {
      timeout: 30_000,
    });
  }
  await page.frameLocator('#fig-frame').locator(sel('player')).waitFor({ timeout: 30_000 });
  await page.locator(`#fig-plain-vs-rich ${sel('player')}[data-state="end"]`).waitFor({ timeout: 30_000 });
  // The script figures' stylesheet applies inside their shadow roots.
  const radius = await page.evaluate(
    () => getComputedStyle(document.getElementById('fig-discover').shadowRoot.querySelector('[data-testid="play"]')).borderRadius,
  );
  assert.notEqual(radius, '0px');
  // A script figure hands over to the full bundle (compiled from a fetch,
  // imported by embed.js) under the same policy.
  await page.locator(`#fig-discover ${sel('settings-0')} > summary`).click();
  await page.locator(`#fig-discover ${sel('compare-0')}`).waitFor({ timeout: 30_000 });
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(view.problems(), []);
  await page.close();
});
