// No overlap, checked by geometry: every built-in scenario, the editor's
// lane and a live check, at 1280x800 and 360x740, in English and Chinese.
// At the end of each run (everything drawn) and at a few steps on the way,
// no label or marker box intersects another, and every arrow stays inside
// its lane, runs down (time runs down) and not through most of the lane.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { openEditor, startApp } from './harness.mjs';
import { GOLDEN_DIR, ready } from './lanes.mjs';
import { lanesGeometry, problems } from './geometry.mjs';
import { binary, cliPeers, strictApp } from './cli-peers.mjs';

const T = { timeout: 300_000 };
const sel = (id) => `[data-testid="${id}"]`;
const SCENARIOS = readdirSync(GOLDEN_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();
const SIZES = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 360, height: 740 }],
];
const LANGS = ['en', 'zh'];

let app;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

/** The position shown and the number of positions. */
async function position(page) {
  const text = await page.locator(sel('step-count')).innerText();
  const [pos, len] = text.split('/').map(Number);
  return { pos, len };
}

/** Seeks to `pos` with the scrubber. */
async function seek(page, pos) {
  await page.locator(sel('scrubber')).evaluate((el, p) => {
    el.value = String(p);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, pos);
  await page.waitForFunction(
    (p) => document.querySelector('[data-testid="step-count"]')?.textContent.startsWith(`${p}/`),
    pos,
  );
}

test('the lanes of every built-in scenario: no overlap, arrows in their lanes and running down', T, async () => {
  assert.equal(SCENARIOS.length, 31, 'the built-in scenarios');
  const found = [];
  const view = await app.open('/');
  const { page } = view;
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    for (const lang of LANGS) {
      for (const id of SCENARIOS) {
        await page.goto(new URL(`/?scenario=${id}&lang=${lang}`, app.url).href);
        await ready(page);
        const { len } = await position(page);
        // A few steps on the way (first, middle) and the end.
        const steps = size === 'desktop' && lang === 'en' ? [1, Math.ceil(len / 2), len] : [len];
        for (const step of steps) {
          await seek(page, step);
          for (const p of problems(await lanesGeometry(page))) found.push(`${id} ${size} ${lang} step ${step}/${len}: ${p}`);
        }
      }
    }
  }
  assert.deepEqual(found, [], found.join('\n'));
  assert.deepEqual(view.problems(), []);
});

test("the editor's lane after a few sends: no overlap, arrows in the lane", T, async () => {
  for (const lang of LANGS) {
    const view = await openEditor(app, `/?scenario=discover&lang=${lang}`);
    const { page } = view;
    const found = [];
    // Lists, a call of an unknown tool, a text that is not JSON, a
    // notification (no reply) and the same id twice.
    const texts = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"no_such_tool","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/list"',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}',
    ];
    for (const [i, text] of texts.entries()) {
      await page.locator(sel('editor-text')).fill(text);
      await page.locator(sel('send')).click();
      await page.locator(`${sel('reply')}[data-index="${i}"]`).waitFor();
    }
    await page.waitForFunction(
      (n) => document.querySelectorAll('.editor-lane svg.lane-svg g.ev.msg').length >= n,
      texts.length,
    );
    for (const p of problems(await lanesGeometry(page))) found.push(`editor ${lang}: ${p}`);
    await view.screenshot(`overlap-editor-${lang}`);
    assert.deepEqual(found, [], found.join('\n'));
    await view.page.close();
  }
});

test('a live check drawn on the real clock: no overlap, no arrow through the lane', T, async () => {
  const peers = cliPeers();
  const strict = await strictApp();
  try {
    const origin = new URL(strict.url).origin;
    const port = await peers.start(['bridge', '--cmd', `${binary()} serve --preset deploy-console`, '--port', '0', '--allow-origin', origin]);
    const found = [];
    const done = { en: 'Done.', zh: '完成。' };
    for (const [size, viewport] of SIZES) {
      for (const lang of LANGS) {
        const view = await strict.open(`/?scenario=discover&lang=${lang}`);
        const { page } = view;
        await page.setViewportSize(viewport);
        await page.locator(sel('player')).waitFor({ timeout: 30_000 });
        await page.locator(sel('check-toggle')).click();
        await page.locator(sel('check-url')).fill(`http://127.0.0.1:${port}/mcp`);
        await page.locator(sel('check-run')).click();
        await page.locator(`${sel('check-status')}:has-text("${done[lang]}")`).waitFor({ timeout: 90_000 });
        const { len } = await position(page);
        for (const step of [1, Math.ceil(len / 2), len]) {
          await seek(page, step);
          for (const p of problems(await lanesGeometry(page))) found.push(`live ${size} ${lang} step ${step}/${len}: ${p}`);
        }
        await view.screenshot(`overlap-live-${size}-${lang}`);
        await page.close();
      }
    }
    assert.deepEqual(found, [], found.join('\n'));
  } finally {
    peers.stopAll();
    await strict.close();
  }
});
