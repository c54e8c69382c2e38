// The two bundles: a first visit loads the lite bundle and one scenario's
// recorded runs, never the full bundle; a change only the simulator can
// make (a setting, compare, the editor, the exports, a link with changed
// lanes) loads the full bundle, which opens the same state with the change
// made — playhead, inspector, open panel and focus kept, one page on screen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ARTIFACTS_DIR, DIST_DIR, REPO_ROOT, saveScreenshot, startApp } from './harness.mjs';
import { lastLabel, ready } from './lanes.mjs';

const T = { timeout: 90_000 };
const sel = (id) => `[data-testid="${id}"]`;
const FULL = /mcp-lanes-web(_bg\.wasm|\.js)$/;
const LITE = /mcp-lanes-lite(_bg\.wasm|\.js)$/;

let app;
// Course pages served on the app's origin under /__host/NAME.
const hosts = new Map();
before(async () => {
  app = await startApp();
  await app.context.route('**/__host/*', (route) => {
    const body = hosts.get(new URL(route.request().url()).pathname.split('/').pop());
    return body === undefined
      ? route.fulfill({ status: 404, body: 'no such host page' })
      : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
  });
});
after(async () => {
  await app?.close();
});

/**
 * A fresh page that records every request and every console problem
 * (`cold`: with the browser's HTTP cache, and so its cache of compiled
 * WebAssembly, emptied first, as for a reader's first visit).
 */
async function tracked(urlPath, { block, cold } = {}) {
  const page = await app.context.newPage();
  if (cold) await (await app.context.newCDPSession(page)).send('Network.clearBrowserCache');
  const requests = [];
  const problems = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  if (block) await page.route(block, (route) => route.abort());
  await page.goto(new URL(urlPath, app.url).href);
  await ready(page);
  return { page, requests, problems };
}

/**
 * In the page: clicks the summary of `<details data-testid=id>` (which
 * hands over, with no pointer over it first) and resolves once the full
 * page alone is on screen with that panel's settings. How long that takes
 * is bench/page/handover.mjs's.
 */
function handOver(id) {
  document.querySelector(`[data-testid="${id}"] > summary`).click();
  return new Promise((done) => {
    const check = () =>
      document.querySelectorAll('.app-root').length === 1 && document.querySelector('[data-testid="cap-0-elicitation.form"]')
        ? done()
        : requestAnimationFrame(check);
    check();
  });
}

/** Resolves once the full bundle runs the page (on the root it took over). */
async function fullLoaded(page) {
  await page.waitForFunction(() => {
    const roots = document.querySelectorAll('.app-root');
    return roots.length === 1 && !roots[0].matches('[data-static], [aria-busy]')
      && performance.getEntriesByType('resource').some((e) => /mcp-lanes-web_bg\.wasm$/.test(e.name));
  }, null, { timeout: 30_000 });
}

describe('first visit', () => {
  for (const url of ['/', '/?scenario=elicitation-unchecked', '/?embed=1&scenario=plain-vs-rich']) {
    test(`${url} shows the drawn figure and plays it with no WebAssembly`, T, async () => {
      const { page, requests, problems } = await tracked(url);
      await page.locator('[data-testid^="lane-"]').first().waitFor();
      await page.keyboard.press('End');
      await page.locator('[data-testid="player"][data-state="end"]').waitFor();
      assert.ok((await page.locator('[data-testid^="message-"]').count()) > 0, 'the run is drawn');
      assert.equal(requests.filter((p) => /\.wasm$/.test(p) || LITE.test(p) || FULL.test(p)).length, 0, `no bundle: ${requests.join(', ')}`);
      assert.ok(requests.filter((p) => p.startsWith('/figures/')).length <= 1, 'at most one drawn figure fetched');
      assert.equal(requests.filter((p) => p.startsWith('/timelines/') || p.startsWith('/i18n/')).length, 0, 'no recorded runs, no catalogs');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('the drawn runs show what the simulator shows (last message of each lane)', T, async () => {
    const { page } = await tracked('/?scenario=plain-vs-rich');
    await page.keyboard.press('End');
    assert.equal(await lastLabel(page, 0), '-32021');
    assert.equal(await lastLabel(page, 1), 'result');
    await page.close();
  });

  test('switching scenarios fetches their drawn figures; back and forward work', T, async () => {
    const { page, requests, problems } = await tracked('/?scenario=discover');
    await page.locator(`${sel('scenario-picker')} > summary`).click();
    await page.locator(sel('scenario-version-retry')).click();
    await page.waitForFunction(() => document.querySelector('.app-root[data-ready] [data-testid="scenario-title"]')?.dataset.scenario === 'version-retry');
    await page.keyboard.press('End');
    assert.equal(await lastLabel(page, 0), 'result');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('.app-root[data-ready] [data-testid="scenario-title"]')?.dataset.scenario === 'discover');
    assert.deepEqual(
      requests.filter((p) => p.startsWith('/figures/')),
      ['/figures/discover.en.html', '/figures/version-retry.en.html', '/figures/discover.en.html'],
    );
    assert.equal(requests.filter((p) => /\.wasm$/.test(p)).length, 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('with WebAssembly blocked, every catalog scenario shows its whole run and steps', { timeout: 300_000 }, async () => {
    const { page, problems } = await tracked('/', { block: '**/*.wasm' });
    const ids = await page.evaluate(() => [...document.querySelectorAll('[data-act="scenario"]')].map((a) => a.dataset.arg));
    assert.equal(ids.length, 31);
    for (const id of ids) {
      await page.goto(new URL(`/?scenario=${id}`, app.url).href);
      await ready(page);
      await page.waitForFunction((id) => document.querySelector('.app-root[data-ready] [data-testid="scenario-title"]')?.dataset.scenario === id, id);
      const total = Number((await page.locator(sel('step-count')).innerText()).split('/')[1]);
      assert.equal(await page.locator('[data-testid^="message-"]').count(), 0, `${id}: nothing drawn at the start`);
      await page.locator(sel('step-forward')).click();
      assert.equal(await page.locator(sel('step-count')).innerText(), `1/${total}`, id);
      assert.ok((await page.locator('[data-testid^="message-"], [data-testid^="event-"]').count()) > 0, `${id}: the first step draws`);
      await page.keyboard.press('End');
      const drawn = await page.locator('[data-testid^="message-"]').count();
      const expected = await page.evaluate(() => document.querySelectorAll('[data-testid^="message-"]').length);
      assert.ok(drawn > 0 && drawn === expected, `${id}: every message at the end`);
      assert.equal(await page.locator(sel('player')).getAttribute('data-state'), 'end');
      assert.notEqual(await page.locator(sel('narration')).innerText(), '', `${id}: narrated`);
    }
    await saveScreenshot(page, 'no-wasm-last-scenario');
    assert.ok(problems.every((p) => /wasm|Failed to load resource/.test(p)), problems.join('\n'));
    await page.close();
  });

  test('printing shows the whole run and every step with its messages, then the page is as it was', T, async () => {
    const { page, problems } = await tracked('/?scenario=plain-vs-rich');
    await page.locator(sel('step-forward')).click();
    const events = await page.evaluate(() => document.querySelectorAll('[data-testid^="message-"], [data-testid^="event-"]').length);
    await page.evaluate(() => dispatchEvent(new Event('beforeprint')));
    await page.emulateMedia({ media: 'print' });
    const drawn = await page.locator('[data-testid="lanes"] [data-testid^="message-"], [data-testid="lanes"] [data-testid^="event-"]').count();
    assert.equal(await page.locator(`${sel('transcript')} details.step-event`).count(), drawn, 'every event in the transcript');
    assert.ok(drawn > events, 'the whole run in the lanes');
    assert.equal(await page.locator(sel('player')).isVisible(), false, 'no controls on paper');
    await saveScreenshot(page, 'print-plain-vs-rich');
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => dispatchEvent(new Event('afterprint')));
    assert.equal(await page.locator(sel('transcript')).count(), 0);
    assert.equal(await page.locator(sel('step-count')).innerText(), `1/${await page.evaluate(() => document.querySelector('[data-testid="scrubber"]').max)}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('with scripts off, the first visit shows every message and its narration', T, async () => {
    const context = await app.context.browser().newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(app.url);
    const messages = await page.locator('[data-testid="lanes"] [data-testid^="message-"]').count();
    const transcript = page.locator(sel('transcript'));
    assert.ok(messages > 0, 'every message in the lanes');
    assert.equal(await transcript.locator('details.step-event').count(), await page.locator('[data-testid="lanes"] [data-testid^="message-"], [data-testid="lanes"] [data-testid^="event-"]').count(), 'each with its content');
    assert.ok((await transcript.locator('.step-narration p').count()) > 1, 'and every step narrated');
    assert.equal(await page.locator('g[data-key]').evaluateAll((els) => els.filter((e) => getComputedStyle(e).display !== 'none').length), 0, 'no envelope in flight');
    await saveScreenshot(page, 'no-scripts-first-visit');
    await context.close();
  });
});

/**
 * In the page: regions (`selectors`), as trees of tag, sorted attributes
 * and text; `data-act`, `data-arg` and `data-key` (what the listeners
 * read) and the open state of panels are left out, and a form control's
 * value is the one it shows.
 */
function drawn(selectors) {
  // A form control's value is compared as the control shows it.
  // The drawn figure's marks for figure.js (data-show, …) are not drawn.
  const skip = new Set(['data-act', 'data-arg', 'data-key', 'data-handover', 'open', 'value', 'selected', 'data-show', 'data-flight', 'data-for', 'data-grow', 'data-shows']);
  const tree = (node) => {
    const attrs = [...node.attributes].filter((a) => !skip.has(a.name)).map((a) => `${a.name}=${a.value}`);
    if (node instanceof HTMLInputElement || node instanceof HTMLSelectElement) attrs.push(`(value)=${node.value}`);
    attrs.sort();
    const kids = [];
    let text = '';
    for (const c of node.childNodes) {
      if (c.nodeType === 3) text += c.nodeValue;
      else if (c.nodeType === 1) {
        if (text) kids.push(text);
        text = '';
        kids.push(tree(c));
      }
    }
    if (text) kids.push(text);
    return { tag: node.tagName.toLowerCase(), attrs, kids };
  };
  return Object.fromEntries(selectors.map((s) => [s, [...document.querySelectorAll(s)].map(tree)]));
}

/** Where two `drawn` trees first differ (`null`: the same). */
function firstDifference(a, b, where = '') {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return a === b ? null : `${where}: ${JSON.stringify(a)?.slice(0, 160)} vs ${JSON.stringify(b)?.slice(0, 160)}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = firstDifference(a[k], b[k], `${where}/${a.tag ?? ''}${k}`);
    if (d) return d;
  }
  return null;
}

describe('one renderer: the full bundle runs the views on the page it takes over', () => {
  test('the drawn page\'s root stays, its regions are patched to the same, and the islands mount in their hosts', T, async () => {
    const regions = [
      '.app-header',
      '[data-testid="scenario-picker"] nav',
      'section.intro',
      '[data-testid="narration"]',
      '[data-testid="player"]',
      '.view-tabs',
      '#panel-lanes .lane-head .lane-title-row',
      '#panel-lanes .lane-head .peers',
      '#panel-lanes .lane-status',
      '#panel-lanes .lane-svg',
      '#panel-lanes .lane-end',
      '[data-testid="inspector"]',
      '[data-testid="help-dialog"]',
    ];
    const { page, problems } = await tracked('/?scenario=elicitation-unchecked');
    await page.keyboard.press('End');
    await page.locator(sel('message-0-8')).click();
    await page.locator(sel('inspector-title')).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('.rule-summary')].every((e) => e.textContent !== ''));
    const before = await page.evaluate(drawn, regions);
    await page.evaluate(() => {
      document.querySelector('.app-root').mcpLanesMark = 'drawn';
    });
    await page.locator(`${sel('exports')} > summary`).click();
    await fullLoaded(page);
    await page.locator(`[data-island="exports"] ${sel('export-json-copy')}`).waitFor();
    assert.equal(await page.evaluate(() => document.querySelector('.app-root').mcpLanesMark), 'drawn', 'the same root, patched');
    const after = await page.evaluate(drawn, regions);
    assert.equal(firstDifference(before, after), null, 'the full page draws what the drawn page drew');
    // Where the drawn page handed over, the full page's islands are.
    assert.equal(await page.locator('[data-act="handover"], [data-handover]').count(), 0);
    await page.locator(`${sel('settings-0')} > summary`).click();
    await page.locator(`[data-island="settings-0"] ${sel('compare-0')}`).waitFor();
    await page.locator(`[data-island="check"] ${sel('check-file')}`).waitFor({ state: 'attached' });
    await page.locator(`[data-island="editor"] ${sel('editor-text')}`).waitFor({ state: 'attached' });
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a step redraws its regions as the whole page draws them', T, async () => {
    const regions = ['[data-testid="player"]', '[data-testid="narration"]', '#panel-lanes .lanes'];
    const { page, problems } = await tracked('/?scenario=compatibility-matrix');
    await page.locator(`${sel('exports')} > summary`).click();
    await fullLoaded(page);
    await page.locator(`[data-island="exports"] ${sel('export-json-copy')}`).waitFor();
    for (const steps of [1, 4, 9]) {
      await page.locator(sel('restart')).click();
      for (let i = 0; i < steps; i++) await page.locator(sel('step-forward')).click();
      // Drawn region by region (a step) …
      const stepped = await page.evaluate(drawn, regions);
      // … and then by the whole page (opening and closing the help).
      await page.locator(sel('help-button')).click();
      await page.locator(`${sel('help-dialog')}[open]`).waitFor();
      await page.keyboard.press('Escape');
      await page.locator(`${sel('help-dialog')}:not([open])`).waitFor({ state: 'attached' });
      const whole = await page.evaluate(drawn, regions);
      assert.equal(firstDifference(stepped, whole), null, `after ${steps} steps`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
});

/**
 * How two screenshots of one region differ, in the page: whether their
 * sizes differ (`moved`), and the share of pixels whose colour differs by
 * more than a rasterizer's rounding (`share`).
 */
async function pixelsApart(page, a, b) {
  return page.evaluate(async ([a, b]) => {
    const load = (src) => new Promise((done) => {
      const img = new Image();
      img.onload = () => done(img);
      img.src = `data:image/png;base64,${src}`;
    });
    const [x, y] = await Promise.all([load(a), load(b)]);
    if (x.width !== y.width || x.height !== y.height) return { moved: 1, share: 1 };
    const pixels = (img) => {
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      return g.getImageData(0, 0, img.width, img.height).data;
    };
    const [p, q] = [pixels(x), pixels(y)];
    let apart = 0;
    for (let i = 0; i < p.length; i += 4) {
      if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]) > 48) apart++;
    }
    return { moved: 0, share: apart / (p.length / 4) };
  }, [a.toString('base64'), b.toString('base64')]);
}

describe('hand-over to the full bundle', () => {
  test('changing a setting: the change is made, playhead, inspector, panel and focus kept', T, async () => {
    const { page, requests, problems } = await tracked('/?scenario=plain-vs-rich', { cold: true });
    await page.keyboard.press('End');
    await page.locator('[data-testid^="message-1-"]').first().click();
    const inspected = await page.locator(sel('inspector-title')).innerText();
    // A click without a pointer over the control first: the full bundle is
    // not prefetched.
    await page.evaluate(handOver, 'settings-0');
    await page.locator(sel('cap-0-elicitation.form')).check();
    await fullLoaded(page);
    assert.equal(requests.filter((p) => /mcp-lanes-web_bg\.wasm$/.test(p)).length, 1, 'loaded once');
    assert.equal(await lastLabel(page, 0), 'result', 'the change is made');
    assert.equal(await page.locator(sel('player')).getAttribute('data-state'), 'end', 'still at the end');
    assert.equal(await page.locator(sel('inspector-title')).innerText(), inspected, 'same message inspected');
    assert.equal(await page.locator(`${sel('settings-0')}[open]`).count(), 1, 'the panel stays open');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'cap-0-elicitation.form');
    assert.equal(await page.locator(sel('cap-0-elicitation.form')).isChecked(), true);
    assert.equal(await page.locator(sel('modified-0')).count(), 1);
    // The full page goes on as usual: reset runs the simulator again.
    await page.locator(sel('reset-0')).click();
    assert.equal(await lastLabel(page, 0), '-32021');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the hand-over changes no pixel of what was drawn', T, async () => {
    const { page, problems } = await tracked('/?scenario=plain-vs-rich');
    await page.keyboard.press('End');
    await page.locator('[data-testid="message-1-1"]').click();
    await page.locator(sel('inspector-title')).waitFor();
    await page.mouse.move(0, 0);
    // Pixels: the lanes, the player and the intro. Where every element of
    // the narration and the inspector is, to the fraction of a pixel, and
    // its text (Chromium rasterizes HTML text a pixel apart after the DOM
    // is replaced, at the very same layout).
    const pictures = [`${sel('lane-0')} svg.lane-svg`, `${sel('lane-1')} svg.lane-svg`, sel('player'), 'section.intro'];
    const placed = [sel('narration'), sel('inspector')];
    const look = async () => {
      const shots = [];
      for (const r of pictures) {
        // Each from the top of the page (where the window is scrolled to
        // moves text by fractions of a pixel).
        await page.evaluate(() => scrollTo(0, 0));
        shots.push(await page.locator(r).screenshot({ animations: 'disabled', caret: 'hide' }));
      }
      const geometry = await page.evaluate((placed) => {
        scrollTo(0, 0);
        return placed.map((r) => [...document.querySelectorAll(`${r}, ${r} *`)].map((e) => {
          const b = e.getBoundingClientRect();
          return `${e.tagName} ${b.x} ${b.y} ${b.width} ${b.height} ${e.children.length ? '' : e.textContent}`;
        }));
      }, placed);
      return { shots, geometry };
    };
    const before = await look();
    // "Export a run" opens below the lanes: nothing drawn above it moves.
    await page.locator(`${sel('exports')} > summary`).click();
    await fullLoaded(page);
    await page.locator(`${sel('exports')}[open] button`).first().waitFor();
    await page.mouse.move(0, 0);
    await page.locator(sel('inspector-title')).waitFor();
    const after = await look();
    await saveScreenshot(page, 'hand-over-after');
    const differ = [];
    for (const [i, r] of pictures.entries()) {
      if (before.shots[i].equals(after.shots[i])) continue;
      differ.push([r, await pixelsApart(page, before.shots[i], after.shots[i])]);
    }
    assert.deepEqual(differ.filter(([, d]) => d.moved > 0 || d.share > 0.005), [], `regions that look different after the hand-over: ${JSON.stringify(differ)}`);
    placed.forEach((r, i) => assert.deepEqual(after.geometry[i], before.geometry[i], `${r}: every element where it was`));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the pointer over "Settings" starts loading the full bundle before the click', T, async () => {
    const { page, requests, problems } = await tracked('/?scenario=plain-vs-rich', { cold: true });
    assert.equal(requests.filter((p) => FULL.test(p)).length, 0);
    await page.locator(`${sel('settings-0')} > summary`).hover();
    // A reader's pointer rests on a control a moment before the click.
    await page.waitForTimeout(300);
    assert.ok(requests.some((p) => /mcp-lanes-web_bg\.wasm$/.test(p)), 'fetched on intent');
    await page.evaluate(handOver, 'settings-0');
    assert.equal(requests.filter((p) => /mcp-lanes-web_bg\.wasm$/.test(p)).length, 1, 'fetched once');
    assert.equal(await page.locator(`${sel('settings-0')}[open]`).count(), 1);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the E key opens the editor through the full bundle', T, async () => {
    const { page, problems } = await tracked('/?scenario=discover');
    await page.locator('body').press('e');
    await page.locator(sel('editor-text')).waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await page.locator('.app-root').count(), 1);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a link with a changed lane opens in the full bundle directly', T, async () => {
    // Make the link in a full page, then open it fresh.
    const first = await tracked('/?scenario=plain-vs-rich');
    await first.page.locator(`${sel('settings-0')} > summary`).click();
    await first.page.locator(sel('cap-0-elicitation.form')).check();
    await fullLoaded(first.page);
    await first.page.waitForFunction(() => /^#v3\./.test(location.hash));
    const hash = await first.page.evaluate(() => location.hash);
    await first.page.close();
    const { page, requests, problems } = await tracked(`/?scenario=plain-vs-rich${hash}`);
    await page.locator(sel('modified-0')).waitFor();
    assert.ok(requests.some((p) => /mcp-lanes-web_bg\.wasm$/.test(p)));
    assert.equal(requests.filter((p) => p.startsWith('/timelines/')).length, 0, 'no recorded runs needed');
    await page.keyboard.press('End');
    assert.equal(await lastLabel(page, 0), 'result');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('without the drawn figure (fetch fails) the lite bundle shows the scenario', T, async () => {
    const { page, problems } = await tracked('/?scenario=legacy-handshake', { block: '**/figures/**' });
    await page.waitForFunction(() => document.querySelectorAll('.app-root').length === 1 && !document.querySelector('.app-root[data-static]'), null, { timeout: 30_000 });
    assert.equal(await page.locator(sel('scenario-title')).getAttribute('data-scenario'), 'legacy-handshake');
    await page.keyboard.press('End');
    assert.ok((await page.locator('[data-testid^="message-0-"]').count()) > 0);
    // The blocked fetch is the only complaint.
    assert.ok(problems.every((p) => /figures|Failed to load resource/.test(p)), problems.join('\n'));
    await page.close();
  });

  test('if the full bundle cannot be loaded, the settings cannot open and a notice says why', T, async () => {
    const { page, problems } = await tracked('/?scenario=plain-vs-rich', { block: '**/mcp-lanes-web_bg.wasm' });
    await page.keyboard.press('End');
    // Opening the settings asks for the full bundle (the lite one has none).
    await page.locator(`${sel('settings-0')} > summary`).click();
    await page.locator(sel('notice')).waitFor({ timeout: 30_000 });
    assert.match(await page.locator(sel('notice')).innerText(), /could not be loaded/);
    assert.equal(await lastLabel(page, 0), '-32021', 'nothing changed');
    assert.equal(await page.locator('.app-root').count(), 1);
    assert.equal(await page.locator('.app-root[aria-busy]').count(), 0, 'no longer busy');
    assert.ok(problems.some((p) => /full bundle could not be loaded/.test(p)), problems.join('\n'));
    await page.close();
  });
});

describe('script figures (McpLanes.mount)', () => {
  // A lesson page with three script figures (as in course-demo.html).
  hosts.set(
    'three',
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>three</title><link rel="icon" href="data:,"></head>' +
      '<body><h1>Three figures</h1><div id="a"></div><div id="b"></div><div id="c"></div>' +
      '<script src="/embed.js"></script><script>' +
      "window.handles = {};" +
      "McpLanes.mount(document.getElementById('a'), {scenario: 'discover'}).then((h) => (handles.a = h));" +
      "McpLanes.mount(document.getElementById('b'), {scenario: 'plain-vs-rich'}).then((h) => (handles.b = h));" +
      "McpLanes.mount(document.getElementById('c'), {scenario: 'elicitation-unchecked', speed: 4, step: 3}).then((h) => (handles.c = h));" +
      '</script></body></html>',
  );
  const figure = (page, id) => page.locator(`#${id} ${sel('player')}`).waitFor({ timeout: 30_000 });
  const lastIn = (page, id, n) =>
    page.evaluate(([id, n]) => {
      const lane = document.getElementById(id).shadowRoot.querySelector(`[data-testid="lane-${n}"]`);
      const msgs = lane ? lane.querySelectorAll('[data-testid^="message-"]') : [];
      return msgs.length ? msgs[msgs.length - 1].dataset.label : null;
    }, [id, n]);

  /** The budget scripts/measure-size.sh enforces on a course page of three script figures (bytes, gzip). */
  async function budget() {
    const script = await readFile(path.join(REPO_ROOT, 'scripts', 'measure-size.sh'), 'utf8');
    return Number(script.match(/COURSE_BUDGET_BYTES:-(\d+)/)[1]);
  }

  test('a page of three script figures loads the drawn figures and no WebAssembly, within its budget', T, async (t) => {
    const { page, requests, problems } = await tracked('/__host/three');
    for (const id of ['a', 'b', 'c']) await figure(page, id);
    await page.waitForLoadState('networkidle');
    assert.equal(requests.filter((p) => /\.wasm$/.test(p)).length, 0, `no WebAssembly: ${requests.join(', ')}`);
    assert.equal(requests.filter((p) => p.startsWith('/figures/') && p.endsWith('.embed.html')).length, 3, 'one drawn figure each');
    // What the page loaded from us, `gzip -9` as measure-size.sh counts it.
    const files = [...new Set(requests.filter((p) => !p.startsWith('/__host/')))];
    let total = 0;
    const lines = [];
    for (const file of files) {
      const bytes = execFileSync('gzip', ['-9', '-c', path.join(DIST_DIR, decodeURIComponent(file))]).length;
      total += bytes;
      lines.push(`${file.padEnd(56)} ${String(bytes).padStart(8)}`);
    }
    lines.push(`${'TOTAL (gzip -9)'.padEnd(56)} ${String(total).padStart(8)}`);
    t.diagnostic(`three script figures: ${total} bytes gzip`);
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    await writeFile(path.join(ARTIFACTS_DIR, 'script-figures-size.txt'), `${lines.join('\n')}\n`);
    const limit = await budget();
    assert.ok(total <= limit, `${total} bytes gzip, over the ${limit}-byte course page budget:\n${lines.join('\n')}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('changing a setting hands that figure alone to the full bundle; its handle and events follow it', T, async () => {
    const { page, requests, problems } = await tracked('/__host/three', { cold: true });
    for (const id of ['a', 'b', 'c']) await figure(page, id);
    await page.waitForFunction(() => window.handles.a && window.handles.b && window.handles.c);
    await page.locator(`#b ${sel('jump-end')}`).click();
    assert.equal(await lastIn(page, 'b', 0), '-32021');
    const stepA = await page.locator(`#a ${sel('step-count')}`).innerText();
    await page.locator(`#b [data-testid^="message-1-"]`).first().click();
    const inspected = await page.locator(`#b ${sel('inspector-title')}`).innerText();
    await page.locator(`#b ${sel('settings-0')} > summary`).click();
    // The full figure opens beside the drawn one, which then goes: one root.
    await page.waitForFunction(() => {
      const shadow = document.getElementById('b').shadowRoot;
      return shadow.querySelectorAll('[data-testid="player"]').length === 1 && shadow.querySelector('[data-testid="cap-0-elicitation.form"]');
    }, null, { timeout: 30_000 });
    await page.locator(`#b ${sel('cap-0-elicitation.form')}`).check();
    assert.equal(await lastIn(page, 'b', 0), 'result', 'the change is made');
    assert.equal(await page.locator(`#b ${sel('modified-0')}`).count(), 1);
    assert.equal(await page.locator(`#b ${sel('inspector-title')}`).innerText(), inspected, 'same message inspected');
    assert.equal(await page.locator(`#b ${sel('player')}`).getAttribute('data-state'), 'end', 'still at the end');
    assert.equal(requests.filter((p) => /mcp-lanes-web_bg\.wasm$/.test(p)).length, 1, 'the full bundle loaded once');
    assert.equal(await page.evaluate(() => document.getElementById('b').shadowRoot.querySelectorAll('link[href$="style.css"]').length), 1);
    // The other figures stay as they were.
    assert.equal(await page.locator(`#a ${sel('step-count')}`).innerText(), stepA);
    // The handle drives the full figure now, and its events reach the host.
    const events = page.evaluate(
      () => new Promise((done) => document.getElementById('b').addEventListener('mcp-lanes:step', (e) => done(e.detail), { once: true })),
    );
    assert.equal(await page.evaluate(() => window.handles.b.control({ type: 'mcp-lanes:control', action: 'restart' })), true);
    assert.equal((await events).step, 0);
    assert.equal(await page.locator(`#b ${sel('player')}`).getAttribute('data-state'), 'start');
    // A second figure hands over too, without loading the full bundle again.
    await page.locator(`#c ${sel('settings-0')} > summary`).click();
    await page.locator(`#c ${sel('cap-0-elicitation.form')}`).waitFor({ timeout: 30_000 });
    assert.equal(requests.filter((p) => /mcp-lanes-web_bg\.wasm$/.test(p)).length, 1);
    await page.locator('body > h1').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'script-figures-after-hand-over');
    // destroy() removes the full figure.
    await page.evaluate(() => window.handles.b.destroy());
    assert.equal(await page.evaluate(() => document.getElementById('b').shadowRoot.querySelectorAll('[data-testid="player"]').length), 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('if the full bundle cannot be loaded, the figure stays with a notice, and the others are untouched', T, async () => {
    const { page, problems } = await tracked('/__host/three', { block: '**/mcp-lanes-web_bg.wasm' });
    for (const id of ['a', 'b', 'c']) await figure(page, id);
    await page.locator(`#b ${sel('jump-end')}`).click();
    await page.locator(`#b ${sel('settings-0')} > summary`).click();
    await page.locator(`#b ${sel('notice')}`).waitFor({ timeout: 30_000 });
    assert.match(await page.locator(`#b ${sel('notice')}`).innerText(), /could not be loaded/);
    assert.equal(await lastIn(page, 'b', 0), '-32021', 'nothing changed');
    assert.equal(await page.evaluate(() => document.getElementById('b').shadowRoot.querySelectorAll('[data-testid="player"]').length), 1);
    assert.equal(await page.evaluate(() => document.getElementById('b').shadowRoot.querySelectorAll('[aria-busy]').length), 0, 'no longer busy');
    assert.equal(await page.locator(`#a ${sel('notice')}`).count(), 0);
    assert.ok(problems.some((p) => /full bundle could not be loaded/.test(p)), problems.join('\n'));
    await page.close();
  });
});
