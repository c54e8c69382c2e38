// Recorded checks on the page: runs recorded by `mcp-lanes client --out`
// (tests/e2e/fixtures/client-run.json, against `serve --preset
// deploy-console`) opened with the file picker and by drag and drop, graded
// in the page; a check report opened by ?timeline=URL with its own verdicts
// (hostile strings in it render as text); fetch failures said clearly. The
// geometry: every verdict mark level with its message, in the lane's right
// margin, touching no arrow, label or other mark.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer } from 'node:http';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, englishRun, startApp } from './harness.mjs';
import { binary } from './cli-peers.mjs';

const T = { timeout: 120_000 };
const sel = (id) => `[data-testid="${id}"]`;
const FIXTURE = path.join(REPO_ROOT, 'tests/e2e/fixtures/client-run.json');
let app;
let runs;
const files = new Map();

before(async () => {
  app = await startApp();
  runs = JSON.parse(await readFile(FIXTURE, 'utf8'));
  await app.context.route('**/__files/*', (route) => {
    const { pathname } = new URL(route.request().url());
    // The glob also matches a page whose query names a file: let it through.
    if (!pathname.startsWith('/__files/')) return route.continue();
    const name = pathname.split('/').pop();
    const body = files.get(name);
    if (body === undefined) return route.fulfill({ status: 404, body: 'no such file' });
    return route.fulfill({ status: 200, contentType: 'application/json', body });
  });
});
after(async () => {
  await app?.close();
});


function serve(name, body) {
  files.set(name, typeof body === 'string' ? body : JSON.stringify(body));
  return `/__files/${name}`;
}

/** Opens the "Check a server" panel (the lite page hands over) and waits for the picker. */
async function openPanel(page) {
  await page.locator(sel('check-toggle')).click();
  await page.locator(sel('check-file')).waitFor({ state: 'attached', timeout: 30_000 });
  await page.locator(`${sel('check')}[open]`).waitFor({ timeout: 10_000 });
}

/** Boxes of what a lane draws: verdict marks, arrows, labels. */
async function geometry(page, lane) {
  return page.evaluate((lane) => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height };
    };
    const root = document.querySelector(`[data-testid="lane-${lane}"]`);
    const marks = [...root.querySelectorAll('[data-testid^="verdict-"]')].map((g) => ({
      id: g.getAttribute('data-testid'),
      verdict: g.getAttribute('data-verdict'),
      circle: box(g.querySelector('circle')),
    }));
    const messages = [...root.querySelectorAll('[data-testid^="message-"]')].map((g) => ({
      id: g.getAttribute('data-testid'),
      shaft: box(g.querySelector('line.shaft')),
      y1: Number(g.querySelector('line.shaft').getAttribute('y1')),
    }));
    const chips = [...root.querySelectorAll('.chip rect')].map(box);
    const svg = box(root.querySelector('svg.lane-svg'));
    const cy = Object.fromEntries(
      [...root.querySelectorAll('[data-testid^="verdict-"] circle')].map((c) => [
        c.parentElement.getAttribute('data-testid'),
        Number(c.getAttribute('cy')),
      ]),
    );
    return { marks, messages, chips, svg, cy };
  }, lane);
}

const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

function checkGeometry(g, lane) {
  assert.ok(g.marks.length > 0, `lane ${lane} has verdict marks`);
  for (const m of g.marks) {
    const index = m.id.split('-').pop();
    const message = g.messages.find((x) => x.id === `message-${lane}-${index}`);
    if (message) assert.equal(g.cy[m.id], message.y1, `${m.id} is level with its message`);
    const c = m.circle;
    assert.ok(c.x >= g.svg.x && c.x + c.w <= g.svg.x + g.svg.w + 0.5, `${m.id} inside the lane`);
    for (const other of g.messages) {
      assert.ok(!overlaps(c, other.shaft), `${m.id} clear of ${other.id}`);
    }
    for (const chip of g.chips) assert.ok(!overlaps(c, chip), `${m.id} clear of a label`);
    for (const o of g.marks) {
      if (o !== m) assert.ok(!overlaps(c, o.circle), `${m.id} clear of ${o.id}`);
    }
  }
}

test('a client run opened with the file picker is graded in the page and drawn with its verdicts', T, async () => {
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('player')).waitFor({ timeout: 30_000 });
  await openPanel(page);
  await page.locator(sel('check-file')).setInputFiles({
    name: 'client-run.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(runs)),
  });
  const summary = page.locator(sel('check-summary'));
  await summary.waitFor({ timeout: 10_000 });
  const line = await page.locator(sel('check-summary-line')).innerText();
  assert.match(line, /^\d+ rules? passed, \d+ failed/);
  assert.equal(await summary.getAttribute('data-failed'), '0', `a correct server: ${line}`);
  assert.equal(await page.locator('[data-testid^="lane-"][aria-labelledby]').count(), runs.length);
  // A recorded run has no settings to change.
  assert.equal(await page.locator(sel('settings-0')).count(), 0);
  await page.locator(sel('jump-end')).click();
  await page.locator(`${sel('player')}[data-state="end"]`).waitFor();
  for (let lane = 0; lane < runs.length; lane++) checkGeometry(await geometry(page, lane), lane);
  // The rules link to their spec sections.
  await page.locator(`${sel('check-rules')} summary`).click();
  const links = await page.locator(`${sel('check-rules')} a`).evaluateAll((as) => as.map((a) => a.href));
  assert.ok(links.length > 0 && links.every((h) => h.startsWith('https://')), links.join(' '));
  // A judged message shows its verdicts in the inspector.
  const mark = page.locator('[data-testid^="verdict-0-"]').first();
  const index = (await mark.getAttribute('data-testid')).split('-').pop();
  await page.locator(sel(`message-0-${index}`)).click();
  await page.locator(sel('inspector-verdicts')).waitFor();
  assert.ok((await page.locator(`${sel('inspector-verdicts')} li`).count()) > 0);
  await view.screenshot('check-recorded-client-run');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('a check report from ?timeline=URL keeps its verdicts; its strings are text', T, async () => {
  const timeline = runs[1];
  const hostile = '<img src=x onerror="window.pwned=1">';
  const index = timeline.events.findLast((e) => e.type === 'message' && e.from === 'server').index;
  const report = {
    target: `http://127.0.0.1:8931/mcp ${hostile}`,
    era: 'modern',
    verdicts: [
      { rule: 'S-ANSWER', verdict: 'pass', expected: 'an answer', got: 'result', exchange: index },
      { rule: 'M-UNKNOWN-TOOL', verdict: 'fail', expected: '-32602 for an unknown tool', got: hostile, exchange: index },
      { rule: 'NOT-A-RULE', verdict: 'n/a', expected: hostile, got: hostile, exchange: null },
    ],
    timeline,
  };
  const url = serve('check.json', report);
  const view = await app.open(`/?timeline=${encodeURIComponent(url)}`);
  const { page } = view;
  const summary = page.locator(sel('check-summary'));
  await summary.waitFor({ timeout: 30_000 });
  assert.equal(await page.locator(sel('check-summary-line')).innerText(), '1 rule passed, 1 failed, 1 not exercised');
  assert.ok((await page.locator(sel('scenario-title')).innerText()).includes('<img'), 'the target is text');
  await page.locator(sel('jump-end')).click();
  const mark = page.locator(sel(`verdict-0-${index}`));
  await mark.waitFor();
  assert.equal(await mark.getAttribute('data-verdict'), 'fail');
  checkGeometry(await geometry(page, 0), 0);
  await page.locator(sel(`message-0-${index}`)).click();
  const items = page.locator(`${sel('inspector-verdicts')} li`);
  await items.first().waitFor();
  assert.equal(await items.count(), 2);
  assert.ok((await page.locator(sel('inspector-verdicts')).innerText()).includes('<img src=x'));
  assert.equal(await page.locator('img[src="x"]').count(), 0, 'no element from the file');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  // A rule of the catalog links to its spec; one that is not stays plain text.
  await page.locator(`${sel('check-rules')} summary`).click();
  assert.equal(await page.locator(`${sel('check-rules')} li[data-rule="NOT-A-RULE"] a`).count(), 0);
  assert.equal(await page.locator(`${sel('check-rules')} li[data-rule="M-UNKNOWN-TOOL"] a`).count(), 1);
  await view.screenshot('check-report-timeline-url');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test("?lang=zh: a check report's flows are named in Chinese", T, async () => {
  // A real report: `mcp-lanes check --format json` against the core's own
  // server on stdio.
  const bin = binary();
  const checked = spawnSync(bin, ['check', '--cmd', `${bin} serve --preset deploy-console`, '--format', 'json'], {
    encoding: 'utf8',
    timeout: 90_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.ok(checked.stdout.startsWith('{'), checked.stderr);
  const report = JSON.parse(checked.stdout);
  const flows = report.timeline.events.filter((e) => e.note_msg?.key === 'check.flow');
  assert.ok(flows.length >= 4, JSON.stringify(flows.map((e) => e.note)));
  assert.ok(flows.every((e) => typeof e.note_msg.args.label === 'object'), 'each flow name is keyed');
  const view = await app.open(`/?lang=zh&timeline=${encodeURIComponent(serve('check-zh.json', report))}`);
  const { page } = view;
  await page.locator(sel('check-summary')).waitFor({ timeout: 30_000 });
  await page.locator(sel('jump-end')).click();
  const said = [];
  for (const e of flows) {
    const title = page.locator(`${sel(`event-0-${e.index}`)} title`);
    said.push(await title.textContent());
  }
  for (const text of said) {
    assert.match(text, /^第 \d+ 个流程（共 \d+ 个）：[a-z-]+：/, said.join('\n'));
    assert.equal(englishRun(text), null, text);
  }
  assert.ok(said.some((t) => t.includes('discover：时代探测')), said.join('\n'));
  // The flows' outcomes too, one after the other.
  const outcome = await page.locator(`${sel('outcome-0')} .outcome`).innerText();
  assert.match(outcome, /最后一条消息/);
  assert.equal(englishRun(outcome), null, outcome);
  await page.locator(sel(`event-0-${flows[1].index}`)).click();
  await view.screenshot('check-flows-zh');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('a file dropped on the panel opens; a bad one says why', T, async () => {
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('player')).waitFor({ timeout: 30_000 });
  await openPanel(page);
  const drop = (name, text) =>
    page.locator(sel('check-drop')).evaluate(
      (zone, [name, text]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], name, { type: 'application/json' }));
        zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
        zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      },
      [name, text],
    );
  await drop('nonsense.json', '{"hello": "world"}');
  const notice = page.locator(sel('notice'));
  await notice.waitFor();
  assert.match(await notice.innerText(), /nonsense\.json is not a recording mcp-lanes reads: it is an object without `log`/);
  await drop('one-run.json', JSON.stringify(runs[0]));
  await page.locator(sel('check-summary')).waitFor();
  assert.equal(await page.locator('[data-testid^="lane-"][aria-labelledby]').count(), 1);
  assert.equal(await page.locator(sel('notice')).count(), 0);
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

test('?timeline= that cannot be fetched says why, and names CORS for another origin', T, async () => {
  let view = await app.open(`/?timeline=${encodeURIComponent('/__files/missing.json')}`);
  let notice = view.page.locator(sel('notice'));
  await notice.waitFor({ timeout: 30_000 });
  assert.match(await notice.innerText(), /could not be loaded \(HTTP 404/);
  // Another origin (another port) that sends no CORS headers.
  const other = createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(runs));
  });
  await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${other.address().port}/client-run.json`;
  try {
    view = await app.open(`/?timeline=${encodeURIComponent(url)}`);
    notice = view.page.locator(sel('notice'));
    await notice.waitFor({ timeout: 30_000 });
    const text = await notice.innerText();
    assert.match(text, /another origin/);
    assert.match(text, /CORS/);
  } finally {
    await new Promise((resolve) => other.close(resolve));
  }
});
