// Figures in course pages: the demo page (three script figures, one
// iframe), independent instances, theming through the host's CSS
// variables, style isolation, events, the iframe's height and control
// messages (allowed and refused origins), and invalid options.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, startStaticServer } from './harness.mjs';
import { labelOf, scenarioDocument } from './lanes.mjs';

const T = { timeout: 90_000 };
let app;
// Host pages served on the app's origin under /__host/NAME (see host()).
const hosts = new Map();

before(async () => {
  app = await startApp();
  await app.context.route('**/__host/*', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop();
    const body = hosts.get(name);
    return body === undefined
      ? route.fulfill({ status: 404, body: 'no such host page' })
      : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
  });
});
after(async () => {
  await app?.close();
});

/** A host page: `body`, then embed.js, then `script`. Returns its path. */
function host(name, body, script = '', head = '') {
  hosts.set(
    name,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>` +
      `<link rel="icon" href="data:,">${head}</head><body>${body}` +
      `<script src="/embed.js"></script><script>${script}</script></body></html>`,
  );
  return `/__host/${name}`;
}

const sel = (id) => `[data-testid="${id}"]`;
/** Waits until the figure in `#id` has rendered its player. */
const figure = (page, id) => page.locator(`#${id} ${sel('player')}`).waitFor({ timeout: 30_000 });
const stepCount = (page, id) => page.locator(`#${id} ${sel('step-count')}`).innerText();
/** A computed style inside the shadow root of `#id`. */
const styleIn = (page, id, selector, prop) =>
  page.evaluate(
    ([id, selector, prop]) => getComputedStyle(document.getElementById(id).shadowRoot.querySelector(selector))[prop],
    [id, selector, prop],
  );

describe('the demo course page', () => {
  let view;
  before(async () => {
    view = await app.open('/course-demo.html');
    for (const id of ['fig-discover', 'fig-plain-vs-rich', 'fig-unchecked']) await figure(view.page, id);
    await view.page.frameLocator('#fig-frame').locator(sel('player')).waitFor({ timeout: 30_000 });
  });

  test('shows four working figures and logs no errors', T, async () => {
    const { page } = view;
    assert.equal(await page.locator(`#fig-discover ${sel('scenario-title')}`).getAttribute('data-scenario'), 'discover');
    assert.equal(await page.locator(`#fig-unchecked ${sel('lane-2')}`).count(), 1, 'all three set-ups');
    assert.equal(await stepCount(page, 'fig-unchecked'), '3/8', 'starts at step 3');
    assert.equal(await page.locator(`#fig-unchecked ${sel('speed')}`).inputValue(), '4', 'at 4x');
    // plain-vs-rich plays by itself to the end
    await page.locator(`#fig-plain-vs-rich ${sel('player')}[data-state="end"]`).waitFor({ timeout: 20_000 });
    const frame = page.frameLocator('#fig-frame');
    assert.equal(await frame.locator(sel('scenario-title')).getAttribute('data-scenario'), 'version-retry');
    assert.equal(await frame.locator('.app-header').isVisible(), false, 'the iframe drops the chrome');
    // Yew's event delegation works inside the shadow root: a click on a
    // message opens the inspector there.
    await page.locator(`#fig-plain-vs-rich [data-testid^="message-0-"]`).first().click();
    await page.locator(`#fig-plain-vs-rich ${sel('inspector-json')}`).waitFor();
    assert.match(await page.locator(`#fig-plain-vs-rich ${sel('inspector-json')}`).innerText(), /"jsonrpc": "2.0"/);
    await page.waitForTimeout(300);
    assert.deepEqual(view.problems(), [], `console problems:\n${view.problems().join('\n')}`);
  });

  test("keeps the page's own styles, and the page's styles stay out of the figures", T, async () => {
    const { page } = view;
    const h1 = await page.evaluate(() => {
      const s = getComputedStyle(document.querySelector('h1'));
      return { color: s.color, font: s.fontFamily, style: s.fontStyle };
    });
    assert.equal(h1.color, 'rgb(138, 47, 18)', 'the lesson colour');
    assert.match(h1.font, /Georgia/);
    assert.equal(h1.style, 'italic');
    const pageButton = await page.evaluate(() => getComputedStyle(document.querySelector('.remote button')).borderRadius);
    assert.equal(pageButton, '999px', "the page's buttons keep the page's style");
    const play = await styleIn(page, 'fig-discover', '[data-testid="play"]', 'borderRadius');
    assert.equal(play, '6px', "the figure's buttons keep the figure's style");
    const playFont = await styleIn(page, 'fig-discover', '[data-testid="play"]', 'fontFamily');
    assert.doesNotMatch(playFont, /Georgia/, 'no font inherited from the page');
    // The figure takes the page's palette from its CSS variables.
    assert.equal(await styleIn(page, 'fig-discover', '[data-testid="play"]', 'backgroundColor'), 'rgb(11, 98, 93)');
    assert.equal(await styleIn(page, 'fig-discover', '.app', 'color'), 'rgb(43, 33, 24)');
  });

  test('the iframe is sized from its height message and obeys the page', T, async () => {
    const { page } = view;
    const frame = page.frameLocator('#fig-frame');
    const content = await frame.locator('.app').evaluate((el) => el.offsetHeight);
    await page.waitForFunction(
      (h) => document.getElementById('fig-frame').style.height === `${h}px`,
      content,
      { timeout: 10_000 },
    );
    await page.locator('.remote [data-action="step"]').click();
    await page.locator('.remote [data-action="step"]').click();
    await frame.locator(`${sel('step-count')}:text("2/5")`).waitFor();
    await page.locator(sel('log-frame')).getByText('"step":2').waitFor();
    await page.locator('.remote [data-action="restart"]').click();
    await frame.locator(`${sel('step-count')}:text("0/5")`).waitFor();
    // Opening the inspector makes the figure taller: a new height arrives.
    await page.locator('.remote [data-action="play"]').click();
    await frame.locator(`${sel('player')}[data-state="end"]`).waitFor({ timeout: 20_000 });
    await frame.locator('[data-testid^="message-0-"]').first().click();
    const taller = await frame.locator('.app').evaluate((el) => el.offsetHeight);
    assert.ok(taller > content, `the inspector adds height (${content} -> ${taller})`);
    await page.waitForFunction(
      (h) => document.getElementById('fig-frame').style.height === `${h}px`,
      taller,
      { timeout: 10_000 },
    );
    assert.deepEqual(view.problems(), []);
  });

  for (const [theme, width] of [
    ['light', 1280],
    ['dark', 1280],
    ['light', 360],
    ['dark', 360],
  ]) {
    test(`screenshot: ${theme}, ${width} px wide`, T, async () => {
      const page = await app.context.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(new URL('/course-demo.html', app.url).href);
      for (const id of ['fig-discover', 'fig-plain-vs-rich', 'fig-unchecked']) await figure(page, id);
      await page.frameLocator('#fig-frame').locator(sel('player')).waitFor({ timeout: 30_000 });
      await page.locator(`#fig-plain-vs-rich ${sel('player')}[data-state="end"]`).waitFor({ timeout: 20_000 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no sideways scrolling of the page (${overflow}px too wide)`);
      if (theme === 'dark') {
        assert.equal(await styleIn(page, 'fig-discover', '.app', 'color'), 'rgb(239, 230, 216)', "the page's dark palette");
      }
      const { saveScreenshot } = await import('./harness.mjs');
      await saveScreenshot(page, `course-demo-${theme}-${width}`);
      await page.close();
    });
  }
});

test('two figures on one page play and take keys independently', T, async () => {
  const path = host(
    'two',
    '<h1 tabindex="-1">Two figures</h1><div id="a"></div><div id="b"></div>',
    "McpLanes.mount(document.getElementById('a'), {scenario: 'discover'});" +
      "McpLanes.mount(document.getElementById('b'), {scenario: 'discover'});",
  );
  const view = await app.open(path);
  const { page } = view;
  await figure(page, 'a');
  await figure(page, 'b');
  await page.locator(`#a ${sel('play')}`).click();
  await page.locator(`#a ${sel('player')}[data-state="end"]`).waitFor({ timeout: 10_000 });
  assert.equal(await stepCount(page, 'b'), '0/3', 'b stays put while a plays');
  await page.locator(`#b ${sel('step-forward')}`).click();
  assert.equal(await stepCount(page, 'b'), '1/3');
  // Keys go to the figure that has focus, and to none when focus is outside.
  await page.locator(`#b ${sel('scrubber')}`).focus(); // a field: no shortcuts
  await page.locator(`#b ${sel('restart')}`).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await stepCount(page, 'b'), '2/3');
  assert.equal(await stepCount(page, 'a'), '3/3');
  await page.locator('body > h1').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.equal(await stepCount(page, 'a'), '3/3', 'keys outside the figures move nothing');
  assert.equal(await stepCount(page, 'b'), '2/3');
  await page.locator(`#a ${sel('restart')}`).focus();
  await page.keyboard.press('Home');
  assert.equal(await stepCount(page, 'a'), '0/3');
  assert.equal(await stepCount(page, 'b'), '2/3');
  assert.deepEqual(view.problems(), []);
});

test("the host's CSS variables theme a figure; its styles stay in, the host's stay out", T, async () => {
  const path = host(
    'themed',
    '<div id="themed" style="--ink: rgb(1, 2, 3); --ink-mute: rgb(90, 60, 30); --bg-surface: rgb(250, 240, 230);' +
      ' --rule-soft: rgb(10, 200, 10); --blueprint: rgb(200, 0, 0); --font-mono: &quot;Courier New&quot;, monospace"></div>' +
      '<div id="plain"></div><button id="outside" type="button">outside</button>',
    "McpLanes.mount(document.getElementById('themed'), {scenario: 'plain-vs-rich'});" +
      "McpLanes.mount(document.getElementById('plain'), {scenario: 'plain-vs-rich'});",
    '<style>button { background: rgb(0, 128, 0); } .lane { display: none; } body { font: 20px Georgia, serif; letter-spacing: 3px; }</style>',
  );
  const view = await app.open(path);
  const { page } = view;
  await figure(page, 'themed');
  await figure(page, 'plain');
  const get = (id, selector, prop) => styleIn(page, id, selector, prop);
  assert.equal(await get('themed', '.app', 'color'), 'rgb(1, 2, 3)');
  assert.equal(await get('themed', '[data-testid="play"]', 'backgroundColor'), 'rgb(200, 0, 0)');
  assert.equal(await get('themed', '.lane', 'backgroundColor'), 'rgb(250, 240, 230)');
  assert.equal(await get('themed', '.lane', 'borderTopColor'), 'rgb(10, 200, 10)');
  assert.equal(await get('themed', '.peers', 'color'), 'rgb(90, 60, 30)');
  assert.match(await get('themed', '.lane-title', 'fontFamily'), /Courier New/);
  // Without variables: the figure's own light palette.
  assert.equal(await get('plain', '.app', 'color'), 'rgb(26, 31, 38)');
  assert.equal(await get('plain', '[data-testid="play"]', 'backgroundColor'), 'rgb(26, 91, 191)');
  // The host's rules do not reach inside: lanes show, buttons keep their colours,
  // no inherited letter spacing or font.
  assert.equal(await get('plain', '.lane', 'display'), 'grid');
  assert.notEqual(await get('plain', '[data-testid="restart"]', 'backgroundColor'), 'rgb(0, 128, 0)');
  assert.equal(await get('plain', '.app', 'letterSpacing'), 'normal');
  assert.doesNotMatch(await get('plain', '.app', 'fontFamily'), /Georgia/);
  // ...and the figure's rules do not reach out.
  const outside = await page.evaluate(() => {
    const s = getComputedStyle(document.getElementById('outside'));
    return { radius: s.borderRadius, minHeight: s.minHeight, bg: s.backgroundColor };
  });
  assert.notEqual(outside.radius, '6px');
  assert.notEqual(outside.minHeight, '36px');
  assert.equal(outside.bg, 'rgb(0, 128, 0)');
  assert.deepEqual(view.problems(), []);
});

test('the editor tab only where asked for (editor: true, &editor=1)', T, async () => {
  const path = host(
    'editor',
    '<div id="ed"></div><div id="no"></div>',
    "McpLanes.mount(document.getElementById('ed'), {scenario: 'discover', editor: true});" +
      "McpLanes.mount(document.getElementById('no'), {scenario: 'discover'});",
  );
  const view = await app.open(path);
  const { page } = view;
  await figure(page, 'ed');
  await figure(page, 'no');
  assert.equal(await page.locator(`#no ${sel('tab-editor')}`).count(), 0);
  // E inside a figure without the editor changes nothing
  await page.locator(`#no ${sel('restart')}`).focus();
  await page.keyboard.press('e');
  assert.equal(await page.locator(`#no ${sel('player')}`).isVisible(), true, 'the lanes stay');
  await page.locator(`#ed ${sel('tab-editor')}`).click();
  await page.locator(`#ed ${sel('editor')}`).waitFor();
  assert.equal(await page.locator(`#ed ${sel('player')}`).isVisible(), false);
  await page.locator(`#ed ${sel('tab-lanes')}`).click();
  await page.locator(`#ed ${sel('player')}`).waitFor();
  const frame = await app.open('/?embed=1&scenario=discover&editor=1');
  await frame.page.locator(sel('tab-editor')).click();
  await frame.page.locator(sel('editor')).waitFor();
  assert.deepEqual(view.problems(), []);
  assert.deepEqual(frame.problems(), []);
});

test('the theme option picks light or dark regardless of the system', T, async () => {
  const path = host(
    'theme',
    '<div id="d"></div><div id="l"></div><div id="auto"></div>',
    "McpLanes.mount(document.getElementById('d'), {scenario: 'discover', theme: 'dark'});" +
      "McpLanes.mount(document.getElementById('l'), {scenario: 'discover', theme: 'light'});" +
      "McpLanes.mount(document.getElementById('auto'), {scenario: 'discover', theme: 'auto'});",
  );
  const view = await app.open(path);
  const { page } = view;
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const id of ['d', 'l', 'auto']) await figure(page, id);
  assert.equal(await styleIn(page, 'd', '.app', 'color'), 'rgb(230, 237, 243)');
  assert.equal(await styleIn(page, 'l', '.app', 'color'), 'rgb(26, 31, 38)');
  assert.equal(await styleIn(page, 'auto', '.app', 'color'), 'rgb(230, 237, 243)', 'auto follows the system');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await styleIn(page, 'd', '.app', 'color'), 'rgb(230, 237, 243)');
  assert.equal(await styleIn(page, 'auto', '.app', 'color'), 'rgb(26, 31, 38)');
  assert.deepEqual(view.problems(), []);
});

test('events report steps, server replies and the end with the documented payloads', T, async () => {
  const path = host(
    'events',
    '<div id="fig"></div>',
    "window.events = []; const el = document.getElementById('fig');" +
      "for (const t of ['mcp-lanes:step', 'mcp-lanes:reply', 'mcp-lanes:complete'])" +
      '  el.addEventListener(t, (e) => events.push({ type: e.type, detail: e.detail }));' +
      "window.handle = McpLanes.mount(el, {scenario: 'plain-vs-rich', speed: 4});",
  );
  const view = await app.open(path);
  const { page } = view;
  await figure(page, 'fig');
  const accepted = await page.evaluate(async () => (await handle).control({ type: 'mcp-lanes:control', action: 'play' }));
  assert.equal(accepted, true);
  await page.waitForFunction(() => events.some((e) => e.type === 'mcp-lanes:complete'), null, { timeout: 20_000 });
  const events = await page.evaluate(() => events);
  const steps = events.filter((e) => e.type === 'mcp-lanes:step').map((e) => e.detail);
  // Four sends, and the last reply's arrival: the run ends when it arrives.
  assert.deepEqual(
    steps.map((s) => s.step),
    [0, 1, 2, 3, 4, 5],
  );
  for (const s of steps) {
    assert.deepEqual(Object.keys(s).sort(), ['atMs', 'scenario', 'step', 'total']);
    assert.equal(s.scenario, 'plain-vs-rich');
    assert.equal(s.total, 5);
    assert.equal(typeof s.atMs, 'number');
  }
  assert.equal(steps[0].atMs, 0);
  assert.ok(steps.every((s, i) => i === 0 || s.atMs >= steps[i - 1].atMs), 'virtual time never goes back');
  assert.ok(steps.at(-1).atMs > 0);
  // Every server reply of the transcripts, per lane, in order.
  const doc = scenarioDocument('plain-vs-rich');
  const replies = events.filter((e) => e.type === 'mcp-lanes:reply').map((e) => e.detail);
  doc.setups.forEach((setup, lane) => {
    const want = setup.transcript
      .filter((e) => e.direction === 'server->client' && e.message && ('result' in e.message || 'error' in e.message))
      .map((e) => ({ lane, label: labelOf(e), kind: 'error' in e.message ? 'error' : 'result' }));
    assert.ok(want.length > 0);
    assert.deepEqual(
      replies.filter((r) => r.lane === lane),
      want,
      `lane ${lane} (${setup.label})`,
    );
  });
  const complete = events.filter((e) => e.type === 'mcp-lanes:complete');
  assert.deepEqual(complete.map((e) => e.detail), [{ scenario: 'plain-vs-rich' }]);
  assert.equal(events.at(-1).type, 'mcp-lanes:complete');
  // control() takes only the documented shapes.
  const bad = await page.evaluate(async () => {
    const h = await handle;
    return [
      h.control({ type: 'mcp-lanes:control', action: 'explode' }),
      h.control({ type: 'mcp-lanes:control', action: 'seek' }),
      h.control({ type: 'mcp-lanes:control', action: 'play', extra: 1 }),
      h.control('play'),
      h.control({ type: 'mcp-lanes:control', action: 'seek', step: 2 }),
    ];
  });
  assert.deepEqual(bad, [false, false, false, false, true]);
  assert.equal(await stepCount(page, 'fig'), '2/5');
  await page.evaluate(async () => (await handle).destroy());
  assert.equal(await page.locator(`#fig ${sel('player')}`).count(), 0, 'destroy removes the figure');
  // A destroyed figure takes no more control messages.
  assert.equal(await page.evaluate(async () => (await handle).control({ type: 'mcp-lanes:control', action: 'play' })), false);
  assert.deepEqual(view.problems(), []);
});

test('one window.postMessage drives no script figure: each is driven by its own handle', T, async () => {
  const path = host(
    'own-handles',
    '<div id="a"></div><div id="b"></div>',
    "window.handles = [McpLanes.mount(document.getElementById('a'), {scenario: 'discover'})," +
      " McpLanes.mount(document.getElementById('b'), {scenario: 'discover'})];",
  );
  const view = await app.open(path);
  const { page } = view;
  await figure(page, 'a');
  await figure(page, 'b');
  await page.evaluate(() => window.postMessage({ type: 'mcp-lanes:control', action: 'step' }, location.origin));
  await page.waitForTimeout(300);
  assert.match(await stepCount(page, 'a'), /^0\//, 'figure a is not driven by the page window');
  assert.match(await stepCount(page, 'b'), /^0\//, 'figure b is not driven by the page window');
  assert.equal(await page.evaluate(async () => (await handles[0]).control({ type: 'mcp-lanes:control', action: 'step' })), true);
  await page.waitForTimeout(100);
  assert.match(await stepCount(page, 'a'), /^1\//, 'its own handle drives figure a');
  assert.match(await stepCount(page, 'b'), /^0\//, 'and only figure a');
  assert.deepEqual(view.problems(), []);
});

describe('control messages from other windows', () => {
  let other;
  before(async () => {
    other = await startStaticServer(); // the same dist, another origin
  });
  after(async () => {
    await other?.close();
  });

  test('are accepted from allowed origins only, in the documented shapes', T, async () => {
    const own = app.url; // the parent page's origin
    // A page the server really serves (Chromium's local network checks
    // refuse loopback iframes in a page made up by the test), with two
    // iframes from the other origin: one allows this page's origin.
    const view = await app.open('/?scenario=discover');
    const { page } = view;
    await page.locator(sel('player')).waitFor({ timeout: 30_000 });
    await page.evaluate(
      ([other, own]) => {
        for (const [id, extra] of [['deny', ''], ['allow', `&origins=${encodeURIComponent(own)}`]]) {
          const frame = document.createElement('iframe');
          frame.id = id;
          frame.src = `${other}/?embed=1&scenario=discover${extra}`;
          document.body.append(frame);
        }
        window.got = [];
        addEventListener('message', (e) => got.push({ origin: e.origin, data: e.data }));
        window.send = (id, data) => document.getElementById(id).contentWindow.postMessage(data, '*');
      },
      [other.url, own],
    );
    const deny = page.frameLocator('#deny');
    const allow = page.frameLocator('#allow');
    await deny.locator(sel('player')).waitFor({ timeout: 30_000 });
    await allow.locator(sel('player')).waitFor({ timeout: 30_000 });
    const step = { type: 'mcp-lanes:control', action: 'step' };
    await page.evaluate((m) => (send('deny', m), send('deny', m), send('allow', m)), step);
    await allow.locator(`${sel('step-count')}:text("1/3")`).waitFor();
    await page.waitForTimeout(300);
    assert.equal(await deny.locator(sel('step-count')).innerText(), '0/3', 'another origin is refused');
    // Wrong shapes from the allowed origin are ignored too.
    for (const m of [
      { type: 'mcp-lanes:control', action: 'seek' },
      { type: 'mcp-lanes:control', action: 'seek', step: -1 },
      { type: 'mcp-lanes:control', action: 'jump' },
      { type: 'mcp-lanes:control', action: 'step', step: 2 },
      { type: 'mcp-lanes:control', action: 'play', also: 'this' },
      'mcp-lanes:control play',
    ]) {
      await page.evaluate((m) => send('allow', m), m);
    }
    await page.waitForTimeout(300);
    assert.equal(await allow.locator(sel('step-count')).innerText(), '1/3');
    await page.evaluate(() => send('allow', { type: 'mcp-lanes:control', action: 'seek', step: 3 }));
    await allow.locator(`${sel('player')}[data-state="end"]`).waitFor();
    // The iframes report to their parent whatever its origin.
    const got = await page.evaluate(() => got);
    assert.ok(got.some((m) => m.origin === other.url && m.data.type === 'mcp-lanes:height' && m.data.height > 100));
    assert.ok(got.some((m) => m.data.type === 'mcp-lanes:step' && m.data.step === 3 && m.data.total === 3));
    // Refused messages are logged at most once per figure, at debug level.
    const debug = view.console.filter((l) => l.startsWith('debug: mcp-lanes: ignored'));
    assert.ok(debug.length >= 1 && debug.length <= 2, debug.join('\n'));
    assert.deepEqual(view.problems(), []);
  });
});

describe('invalid options', () => {
  test('show one console error and a notice in the figure, with the defaults', T, async () => {
    const path = host(
      'invalid',
      '<div id="bad"></div>',
      "McpLanes.mount(document.getElementById('bad'), {scenario: 'nope<b>', speed: 'fast', autoplay: 'yes', setups: [7], colour: 'red'});",
    );
    const view = await app.open(path);
    const { page } = view;
    await figure(page, 'bad');
    const notice = page.locator(`#bad ${sel('notice')}`);
    assert.equal(await notice.isVisible(), true);
    const text = await notice.innerText();
    for (const word of ['nope<b>', 'speed', 'autoplay', 'colour']) assert.ok(text.includes(word), `notice names ${word}: ${text}`);
    assert.equal(await page.locator('#bad b').count() + (await page.evaluate(() => document.getElementById('bad').shadowRoot.querySelectorAll('b').length)), 0, 'shown as text');
    assert.equal(await page.locator(`#bad ${sel('scenario-title')}`).getAttribute('data-scenario'), 'discover');
    assert.equal(await page.locator(`#bad ${sel('speed')}`).inputValue(), '2', 'default speed');
    assert.equal(await page.locator(`#bad ${sel('player')}`).getAttribute('data-state'), 'start', 'not playing');
    await page.waitForTimeout(300);
    const problems = view.problems();
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /^error: mcp-lanes: Invalid figure options: /);
    for (const word of ['nope<b>', 'speed', 'autoplay', 'colour', 'setups']) assert.ok(problems[0].includes(word), word);
  });

  test('options that are not an object, and a missing host element', T, async () => {
    const path = host(
      'not-object',
      '<div id="bad"></div>',
      "McpLanes.mount(document.getElementById('bad'), 'discover');" +
        "window.refused = McpLanes.mount(null, {}).then(() => 'mounted', (e) => e.message);",
    );
    const view = await app.open(path);
    const { page } = view;
    await figure(page, 'bad');
    assert.match(await page.locator(`#bad ${sel('notice')}`).innerText(), /options must be an object/);
    assert.match(await page.evaluate(() => refused), /mcp-lanes: .*element/);
    await page.waitForTimeout(300);
    assert.equal(view.problems().length, 2, view.problems().join('\n'));
  });

  test('in an iframe: one console error, a notice and the defaults', T, async () => {
    const view = await app.open('/?embed=1&scenario=nope&speed=fast&step=x&autoplay=1');
    const { page } = view;
    await page.locator(sel('player')).waitFor({ timeout: 30_000 });
    assert.match(await page.locator(sel('notice')).innerText(), /nope.*speed.*step/s);
    assert.equal(await page.locator(sel('scenario-title')).getAttribute('data-scenario'), 'discover');
    await page.waitForTimeout(300);
    const problems = view.problems();
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /^error: mcp-lanes: Invalid figure options/);
  });
});
