// Recorded conversations of every format drawn by the page (issue 25): the
// hand-written fixtures of tests/fixtures/import/ opened by ?transcript=URL,
// by the check panel's file input and by McpLanes.mount({transcript}); a HAR
// that Chromium itself recorded (playwright's recordHar) while the page ran
// its live check against the reference server; a malformed file and a
// malformed entry; hostile strings. Every message is drawn from its
// sender's lifeline (the core decides the sender: the CLI's report says it
// too), an undecided one in the middle with its reason; violations drawn
// as deliberate with their why and graded "expected failure"; the page's
// verdicts agree rule by rule with `mcp-lanes check --transcript FILE`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ARTIFACTS_DIR, CHROMIUM_ARGS, CHROMIUM_PATH, REPO_ROOT, englishRun, saveScreenshot } from './harness.mjs';
import { binary, cliPeers, strictApp } from './cli-peers.mjs';

const T = { timeout: 240_000 };
const sel = (id) => `[data-testid="${id}"]`;
const FIXTURES = path.join(REPO_ROOT, 'tests/fixtures/import');
const NAMES = [
  'legacy-2025-11-25.json',
  'modern-2026-07-28.json',
  'violations.json',
  'undecided.json',
  'chromium-streamable-http.har',
];
let app;
const peers = cliPeers();
const files = new Map();
const hosts = new Map();

before(async () => {
  app = await strictApp();
  await app.context.route('**/__files/*', (route) => {
    const { pathname } = new URL(route.request().url());
    if (!pathname.startsWith('/__files/')) return route.continue();
    const body = files.get(decodeURIComponent(pathname.split('/').pop()));
    if (body === undefined) return route.fulfill({ status: 404, body: 'no such file' });
    return route.fulfill({ status: 200, contentType: 'application/json', body });
  });
  await app.context.route('**/__host/*', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop();
    const body = hosts.get(name);
    const contentType = name.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8';
    return body === undefined
      ? route.fulfill({ status: 404, body: 'no such host page' })
      : route.fulfill({ status: 200, contentType, body });
  });
  for (const name of NAMES) files.set(name, await readFile(path.join(FIXTURES, name), 'utf8'));
});
after(async () => {
  peers.stopAll();
  await app?.close();
});

const serve = (name, text) => (files.set(name, text), `/__files/${encodeURIComponent(name)}`);

/** `mcp-lanes check --transcript FILE --format json`: the report. */
function cliReport(file) {
  const run = spawnSync(binary(), ['check', '--transcript', file, '--format', 'json'], { encoding: 'utf8' });
  assert.ok(run.stdout.startsWith('{'), `check --transcript ${file}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** Per rule as the core's summary says it: fail, else expected failure, else pass, else n/a. */
function outcomes(verdicts) {
  const rank = { fail: 3, 'expected-failure': 2, pass: 1, 'n/a': 0 };
  const by = {};
  for (const v of verdicts) {
    if (!(v.rule in by) || rank[v.verdict] > rank[by[v.rule]]) by[v.rule] = v.verdict;
  }
  return by;
}

/**
 * The page's per-rule outcomes (its check summary), in `scope` (a page or a
 * figure's host), once S-SCHEMA is in: the schema worker adds it after the
 * recording is drawn, as `check --transcript` adds it.
 */
async function pageOutcomes(scope) {
  await scope.locator('.check-rules li.rule-count[data-rule="S-SCHEMA"]').first().waitFor({ state: 'attached', timeout: 60_000 });
  const items = scope.locator('.check-rules li.rule-count');
  const out = {};
  for (const li of await items.all()) {
    out[await li.getAttribute('data-rule')] = await li.getAttribute('data-verdict');
  }
  return out;
}

/** What lane 0 draws, in SVG coordinates: lifelines, and per message where it starts. */
async function drawn(page, hostId = null) {
  return page.evaluate((hostId) => {
    const root = hostId ? document.getElementById(hostId).shadowRoot : document;
    const svg = root.querySelector('[data-testid="lane-0"] svg.lane-svg');
    const [client, server] = [...svg.querySelectorAll('line.lifeline')].map((l) => Number(l.getAttribute('x1')));
    const messages = [...svg.querySelectorAll('[data-testid^="message-0-"]')].map((g) => {
      const shaft = g.querySelector('line.shaft');
      const chip = g.querySelector('.undecided-chip rect');
      return {
        index: Number(g.dataset.testid.split('-').pop()),
        undecided: g.dataset.undecided === 'true',
        violation: g.classList.contains('violation'),
        x1: shaft ? Number(shaft.getAttribute('x1')) : null,
        x2: shaft ? Number(shaft.getAttribute('x2')) : null,
        middle: chip ? Number(chip.getAttribute('x')) + Number(chip.getAttribute('width')) / 2 : null,
        note: g.querySelector('.undecided-note')?.textContent ?? null,
      };
    });
    return { client, server, messages };
  }, hostId);
}

/** Every message of `report` (the CLI's) drawn from its sender, an undecided one in the middle with its note. */
function assertSides(picture, report, name) {
  const { client, server, messages } = picture;
  const expected = report.timeline.events.filter((e) => e.type === 'message');
  assert.equal(messages.length, expected.length, `${name}: every message drawn`);
  for (const e of expected) {
    const m = messages.find((m) => m.index === e.index);
    assert.ok(m, `${name}: message ${e.index} drawn`);
    if (e.undecided) {
      assert.ok(m.undecided, `${name} #${e.index}: undecided`);
      assert.equal(m.x1, null, `${name} #${e.index}: no arrow from either side`);
      assert.ok(Math.abs(m.middle - (client + server) / 2) < 0.5, `${name} #${e.index}: in the middle (${m.middle})`);
      assert.ok(m.note && m.note.length > 10, `${name} #${e.index}: a note says why`);
    } else {
      const [from, to] = e.from === 'client' ? [client, server] : [server, client];
      assert.equal(m.undecided, false, `${name} #${e.index}`);
      assert.equal(m.x1, from, `${name} #${e.index}: starts at the ${e.from}'s lifeline`);
      assert.equal(m.x2, to, `${name} #${e.index}: ends at the other`);
      assert.equal(m.violation, Boolean(e.violation), `${name} #${e.index}: violation drawn as such`);
    }
  }
}

/** The WebAssembly bundles a page fetched so far (`lite`, `web`), from its resource timings. */
async function bundlesOf(page) {
  const names = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
  return [...new Set(names.map((n) => /mcp-lanes-(lite|web)(_bg\.wasm|\.js)$/.exec(new URL(n).pathname)?.[1]).filter(Boolean))].sort();
}

async function openRecording(url) {
  const view = await app.open(url);
  await view.page.locator(sel('check-summary')).waitFor({ timeout: 60_000 });
  await view.page.locator(sel('jump-end')).click();
  return view;
}

test('every fixture by ?transcript=: each message from its sender, verdicts as the CLI gives them', T, async () => {
  for (const name of NAMES) {
    const report = cliReport(path.join(FIXTURES, name));
    const view = await openRecording(`/?transcript=${encodeURIComponent(serve(name, files.get(name)))}`);
    const { page } = view;
    assertSides(await drawn(page), report, name);
    assert.deepEqual(await pageOutcomes(page), outcomes(report.verdicts), `${name}: the page and the CLI disagree`);
    assert.equal(await page.locator(sel('notice')).count(), 0, `${name}: no error`);
    assert.deepEqual(view.problems(), [], view.problems().join('\n'));
    // Drawn and graded in the first-visit tier: no simulator fetched.
    assert.deepEqual(await bundlesOf(page), ['lite'], `${name}: the lite bundle only`);
    await page.close();
  }
});

test('a real tap --out recording (tap in front of serve, the client leaving) opens, draws and grades as the CLI does', T, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'mcp-lanes-tap-out-'));
  try {
    const out = path.join(dir, 'tapped.json');
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'test_simple_text', arguments: {} } },
    ].map((m) => JSON.stringify(m)).join('\n') + '\n';
    // stdin ends after the last line: tap records the client leaving.
    const run = spawnSync(binary(), ['tap', '--out', out, '--', binary(), 'serve', '--preset', 'reference'], { input: lines, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    const text = await readFile(out, 'utf8');
    assert.ok(text.includes('"disconnected"'), 'the recording holds the client leaving');
    const report = cliReport(out);
    const view = await openRecording(`/?transcript=${encodeURIComponent(serve('tapped.json', text))}`);
    const { page } = view;
    assertSides(await drawn(page), report, 'tapped.json');
    assert.deepEqual(await pageOutcomes(page), outcomes(report.verdicts), 'tapped.json: the page and the CLI disagree');
    assert.ok(!Object.values(outcomes(report.verdicts)).includes('fail'), 'a conversation with the reference server fails nothing');
    assert.equal(await page.locator(sel('notice')).count(), 0, 'no error');
    assert.deepEqual(view.problems(), [], view.problems().join('\n'));
    await page.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('violations are drawn as deliberate, with their why, and graded as expected failures', T, async () => {
  const report = cliReport(path.join(FIXTURES, 'violations.json'));
  const view = await openRecording(`/?transcript=${encodeURIComponent(serve('violations.json', files.get('violations.json')))}`);
  const { page } = view;
  const marked = report.timeline.events.find((e) => e.type === 'message' && e.violation);
  const arrow = page.locator(sel(`message-0-${marked.index}`));
  assert.match(await arrow.getAttribute('class'), /violation/);
  await arrow.click();
  const why = page.locator(sel('inspector-violation'));
  await why.waitFor();
  assert.ok((await why.innerText()).includes('no ttlMs or cacheScope'), await why.innerText());
  assert.ok((await page.locator(sel('inspector-json')).innerText()).includes('"tools"'));
  const xfail = page.locator(`${sel('inspector-verdicts')} li.xfail`);
  assert.ok((await xfail.count()) > 0, 'an expected failure in the inspector');
  assert.equal(await xfail.first().getAttribute('data-verdict'), 'expected-failure');
  assert.match(await xfail.first().innerText(), /expected failure/);
  assert.equal(await page.locator(`${sel(`verdict-0-${marked.index}`)}`).getAttribute('data-verdict'), 'expected-failure');
  // Distinct from a failure: not the failure's colour.
  const colour = (s) => page.$eval(s, (el) => getComputedStyle(el).color);
  assert.notEqual(await colour(`${sel('inspector-verdicts')} li.xfail .verdict-word`), await colour('.check-line.has-fail'));
  assert.match(await page.locator(sel('check-summary-line')).innerText(), /1 expected to fail \(marked violations\)/);
  // The unmarked one is a real failure, in "What to fix".
  assert.equal(await page.locator(`${sel('check-to-fix')} li[data-rule="M-VERSION"]`).count() > 0, true);
  await view.screenshot('import-violations');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('the undecided message sits in the middle, says why, and the inspector says so too', T, async () => {
  const view = await openRecording(`/?transcript=${encodeURIComponent(serve('undecided.json', files.get('undecided.json')))}`);
  const { page } = view;
  const notices = page.locator(sel('import-notices'));
  await notices.waitFor();
  assert.match(await notices.innerText(), /between the two sides/);
  const picture = await drawn(page);
  const undecided = picture.messages.filter((m) => m.undecided);
  assert.ok(undecided.length >= 1, JSON.stringify(picture.messages));
  await page.locator(sel(`message-0-${undecided[0].index}`)).click();
  const direction = await page.locator(sel('inspector-direction')).innerText();
  assert.match(direction, /^not known: /);
  assert.ok((await page.locator(sel('inspector-json')).innerText()).includes('jsonrpc'));
  await view.screenshot('import-undecided');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('every fixture through the check panel\'s file input, and in Chinese', T, async () => {
  for (const lang of ['en', 'zh']) {
    const view = await app.open(`/?scenario=discover${lang === 'zh' ? '&lang=zh' : ''}`);
    const { page } = view;
    await page.locator(sel('player')).waitFor({ timeout: 30_000 });
    await page.locator(sel('check-toggle')).click();
    await page.locator(sel('check-file')).waitFor({ state: 'attached', timeout: 30_000 });
    for (const name of NAMES) {
      const report = cliReport(path.join(FIXTURES, name));
      await page.locator(sel('check-file')).setInputFiles(path.join(FIXTURES, name));
      await page.locator(`${sel('check-summary')} ${sel('scenario-title')}`).waitFor();
      await page.waitForFunction((n) => document.querySelector('[data-testid="check-summary"] .summary')?.textContent.includes(n), name);
      await page.locator(sel('jump-end')).click();
      assertSides(await drawn(page), report, `${name} (file, ${lang})`);
      assert.deepEqual(await pageOutcomes(page), outcomes(report.verdicts), `${name} (file): the page and the CLI disagree`);
    }
    if (lang === 'zh') {
      // The notices and the undecided note in the reader's language.
      const notices = await page.locator(sel('import-notices')).innerText();
      assert.equal(englishRun(notices), null, notices);
    }
    assert.deepEqual(view.problems(), [], view.problems().join('\n'));
    await page.close();
  }
});

/** A host page on the app's origin mounting one figure in #fig with `options` (JS source); its script is a file (the strict CSP). */
function mountHost(name, options) {
  hosts.set(
    `${name}.html`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title><link rel="icon" href="data:,"></head>` +
      `<body><div id="fig"></div><script src="/embed.js"></script><script src="/__host/${name}.js"></script></body></html>`,
  );
  hosts.set(`${name}.js`, `McpLanes.mount(document.getElementById('fig'), ${options});`);
  return `/__host/${name}.html`;
}

test('McpLanes.mount({transcript}) and {transcriptUrl} draw the recording; ill-typed options are said', T, async () => {
  files.set('undecided-url.json', files.get('undecided.json'));
  const cases = [
    ['inline', `{transcript: ${files.get('violations.json')}}`, 'violations.json'],
    ['url', "{transcriptUrl: '/__files/undecided-url.json'}", 'undecided.json'],
  ];
  for (const [name, options, fixture] of cases) {
    const view = await app.open(mountHost(name, options));
    const { page } = view;
    await page.locator(`#fig ${sel('check-summary')}`).waitFor({ timeout: 60_000 });
    await page.locator(`#fig ${sel('jump-end')}`).click();
    await page.locator(`#fig ${sel('player')}[data-state="end"]`).waitFor({ timeout: 10_000 });
    const report = cliReport(path.join(FIXTURES, fixture));
    assertSides(await drawn(page, 'fig'), report, `${fixture} (mount ${name})`);
    assert.deepEqual(await pageOutcomes(page.locator('#fig')), outcomes(report.verdicts), `${fixture} (mount ${name})`);
    assert.deepEqual(await bundlesOf(page), ['lite'], `${fixture} (mount ${name}): the lite bundle only`);
    await view.screenshot(`import-mount-${name}`);
    assert.deepEqual(view.problems(), [], view.problems().join('\n'));
    await page.close();
  }
  const view = await app.open(mountHost('bad', "{transcript: 'x.json'}"));
  const notice = view.page.locator(`#fig ${sel('notice')}`);
  await notice.waitFor({ timeout: 60_000 });
  assert.match(await notice.innerText(), /“transcript” must be a recorded conversation/);
});

test('two recording figures on one page both live on (their handles dropped by the page)', T, async () => {
  const two = "{transcript: [{jsonrpc: '2.0', id: 1, method: 'tools/list'}, {jsonrpc: '2.0', id: 1, result: {tools: []}}]}";
  hosts.set(
    'two.html',
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>two</title><link rel="icon" href="data:,"></head>' +
      '<body><div id="a"></div><div id="b"></div><script src="/embed.js"></script><script src="/__host/two.js"></script></body></html>',
  );
  // The page keeps neither promise: embed.js must keep the figures.
  hosts.set('two.js', `McpLanes.mount(document.getElementById('a'), ${two}); McpLanes.mount(document.getElementById('b'), ${two});`);
  const view = await app.open('/__host/two.html');
  const { page } = view;
  for (const id of ['a', 'b']) await page.locator(`#${id} ${sel('check-summary')}`).waitFor({ timeout: 60_000 });
  // Garbage made, and collected when the browser likes: the figures stay.
  await page.evaluate(() => { for (let i = 0; i < 50; i++) new Array(1e6).fill(i); });
  await page.waitForTimeout(500);
  for (const id of ['b', 'a']) {
    await page.locator(`#${id} ${sel('jump-end')}`).click();
    await page.locator(`#${id} ${sel('player')}[data-state="end"]`).waitFor({ timeout: 10_000 });
  }
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('an iframe figure: ?embed=1&transcript=URL', T, async () => {
  const view = await openRecording(`/?embed=1&transcript=${encodeURIComponent(serve('modern.json', files.get('modern-2026-07-28.json')))}`);
  const report = cliReport(path.join(FIXTURES, 'modern-2026-07-28.json'));
  assertSides(await drawn(view.page), report, 'modern (iframe)');
  assert.deepEqual(await pageOutcomes(view.page), outcomes(report.verdicts), 'modern (iframe)');
  assert.deepEqual(await bundlesOf(view.page), ['lite'], 'iframe: the lite bundle only');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('a malformed file is refused whole, naming the entry; a malformed entry ends the lane with a notice', T, async () => {
  let view = await app.open(`/?transcript=${encodeURIComponent(serve('bad.json', '[42, {"jsonrpc": "2.0", "method": "x"}]'))}`);
  const notice = view.page.locator(sel('notice'));
  await notice.waitFor({ timeout: 60_000 });
  assert.match(await notice.innerText(), /bad\.json is not a recording mcp-lanes reads: .*entry 0/);
  await view.page.close();
  const cut = [
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    { jsonrpc: '2.0', id: 1, result: { tools: [] } },
    { not: 'a message' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  ];
  view = await openRecording(`/?transcript=${encodeURIComponent(serve('cut.json', JSON.stringify(cut)))}`);
  const { page } = view;
  const said = page.locator(`${sel('import-notices')} li[data-entry="2"]`);
  await said.waitFor();
  assert.match(await said.innerText(), /2/);
  assert.equal((await drawn(page)).messages.length, 2, 'drawn up to the bad entry');
  await view.screenshot('import-malformed-entry');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('hostile strings in a transcript render as text, at 1280 and 360, in English and Chinese', T, async () => {
  const long = 'A'.repeat(100 * 1024);
  const hostile = [
    { jsonrpc: '2.0', id: '<script>window.pwned=1</script>', method: '<img src=x onerror="window.pwned=2">', params: { s: '\u202Eevil\u202C', long } },
    { jsonrpc: '2.0', id: '<script>window.pwned=1</script>', error: { code: -32601, message: '<img src=x onerror="window.pwned=3"> \u202Egnp.exe' } },
    { message: { jsonrpc: '2.0', id: 3, method: 'tools/list' }, violation: '<b onmouseover="window.pwned=4">why</b>' },
  ];
  const url = serve('hostile.json', JSON.stringify(hostile));
  for (const lang of ['en', 'zh']) {
    for (const width of [1280, 360]) {
      const view = await app.open(`/?lang=${lang}&transcript=${encodeURIComponent(url)}`);
      const { page } = view;
      await page.setViewportSize({ width, height: 900 });
      await page.locator(sel('check-summary')).waitFor({ timeout: 60_000 });
      await page.locator(sel('jump-end')).click();
      await page.locator(sel('message-0-0')).click();
      await page.locator(sel('inspector-json')).waitFor();
      assert.ok((await page.locator(sel('inspector-json')).innerText()).includes('<script>'), 'the wire as text');
      assert.equal(await page.locator('img[src="x"]').count(), 0);
      assert.equal(await page.locator('script:not([src])').count(), 0);
      assert.equal(await page.evaluate(() => window.pwned), undefined);
      await saveScreenshot(page, `import-hostile-${lang}-${width}`);
      assert.deepEqual(view.problems(), [], view.problems().join('\n'));
      await page.close();
    }
  }
});

test('a HAR that Chromium recorded during a live check imports, and grades as the CLI grades it', T, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'mcp-lanes-har-'));
  const har = path.join(dir, 'live.har');
  const origin = new URL(app.url).origin;
  const port = await peers.start(['bridge', '--cmd', `${binary()} serve --preset reference`, '--port', '0', '--allow-origin', origin]);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // Filtered to the endpoint, as a reader filtering the network panel to
    // /mcp exports it: unfiltered, the page's own bundles (embedded as
    // base64) take the capture over the importer's 4 MiB limit.
    const context = await browser.newContext({ recordHar: { path: har, content: 'embed', urlFilter: /\/mcp$/ } });
    const page = await context.newPage();
    await page.goto(new URL('/?scenario=discover', app.url).href);
    await page.locator(sel('player')).waitFor({ timeout: 30_000 });
    await page.locator(sel('check-toggle')).click();
    await page.locator(sel('check-url')).waitFor({ timeout: 30_000 });
    await page.locator(sel('check-url')).fill(`http://127.0.0.1:${port}/mcp`);
    await page.locator(sel('check-run')).click();
    await page.locator(`${sel('check-status')}:has-text("Done.")`).waitFor({ timeout: 120_000 });
    await context.close();
  } finally {
    await browser.close();
  }
  const text = await readFile(har, 'utf8');
  // Kept beside the screenshots: the material this test graded.
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await writeFile(path.join(ARTIFACTS_DIR, 'import-live-check.har'), text);
  const report = cliReport(har);
  assert.equal(report.format, 'har');
  const messages = report.timeline.events.filter((e) => e.type === 'message');
  assert.ok(messages.some((e) => e.from === 'client' && e.http?.method === 'POST'), 'the POSTs');
  assert.ok(messages.some((e) => e.from === 'server' && e.http?.status === 200), 'the answers');
  const view = await openRecording(`/?transcript=${encodeURIComponent(serve('live.har', text))}`);
  const { page } = view;
  assertSides(await drawn(page), report, 'live.har');
  assert.deepEqual(await pageOutcomes(page), outcomes(report.verdicts), 'live.har: the page and the CLI disagree');
  const post = messages.find((e) => e.from === 'client' && e.http?.method === 'POST');
  await page.locator(sel(`message-0-${post.index}`)).click();
  assert.match(await page.locator(sel('inspector-http')).innerText(), /POST/);
  await view.screenshot('import-chromium-har');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
  await rm(dir, { recursive: true, force: true });
});
