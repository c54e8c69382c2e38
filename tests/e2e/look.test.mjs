// Tests that look at the page the way a person does: where arrows are drawn
// (their y follows their send and delivery times, in every lane), whether
// labels overlap, whether anything is still in flight at the end of a run,
// whether long lines in the editor draw over the line numbers, and
// screenshots of every scenario at its end, of the editor after lesson 07's
// practice lab and of the course page (tests/e2e/artifacts/look-*.png).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { openEditor, startApp } from './harness.mjs';
import { GOLDEN_DIR } from './lanes.mjs';

const T = { timeout: 240_000 };
const sel = (id) => `[data-testid="${id}"]`;
const SCENARIOS = readdirSync(GOLDEN_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();
let app;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

/**
 * Geometry of every lane diagram under `root` (a document or shadow root):
 * per lane, each message's times and its shaft's end points, each label
 * chip's box, and whether it is drawn in flight. Runs in the page.
 */
function geometryIn(rootSelector) {
  const roots = rootSelector
    ? [...document.querySelectorAll(rootSelector)].map((h) => h.shadowRoot ?? h)
    : [document];
  const lanes = [];
  for (const root of roots) {
    for (const svg of root.querySelectorAll('svg.lane-svg')) {
      const messages = [...svg.querySelectorAll('g.msg')].map((g) => {
        const shaft = g.querySelector('line.shaft');
        return {
          id: g.dataset.testid,
          label: g.dataset.label,
          sent: Number(g.dataset.sentMs),
          delivered: g.dataset.deliveredMs === undefined ? null : Number(g.dataset.deliveredMs),
          inFlight: g.classList.contains('in-flight'),
          y1: Number(shaft.getAttribute('y1')),
          y2: Number(shaft.getAttribute('y2')),
        };
      });
      const chips = [...svg.querySelectorAll('.labels .chip')].map((c) => {
        const b = c.querySelector('rect').getBBox();
        return { text: c.textContent, x: b.x, y: b.y, w: b.width, h: b.height };
      });
      lanes.push({ label: svg.getAttribute('aria-label'), messages, chips });
    }
  }
  return lanes;
}

/** What is wrong with one lane's geometry (empty: nothing). */
function problemsOf(lane, { atEnd = false } = {}) {
  const out = [];
  const ms = lane.messages;
  for (const m of ms) {
    if (m.delivered !== null && m.delivered > m.sent && !(m.y2 > m.y1)) {
      out.push(`${m.id} ${m.label}: delivered later (${m.delivered} > ${m.sent} ms) but drawn ending at y ${m.y2} <= ${m.y1}`);
    }
    if (atEnd && m.inFlight) out.push(`${m.id} ${m.label}: still in flight at the end of the run`);
  }
  for (const a of ms) {
    for (const b of ms) {
      if (a.sent < b.sent && !(a.y1 < b.y1)) {
        out.push(`${a.id} sent at ${a.sent} starts at y ${a.y1}, not above ${b.id} sent at ${b.sent} (y ${b.y1})`);
      }
      if (a.delivered !== null && b.delivered !== null && a.delivered < b.delivered && !(a.y2 < b.y2)) {
        out.push(`${a.id} delivered at ${a.delivered} ends at y ${a.y2}, not above ${b.id} delivered at ${b.delivered} (y ${b.y2})`);
      }
    }
  }
  const c = lane.chips;
  for (let i = 0; i < c.length; i++) {
    for (let j = i + 1; j < c.length; j++) {
      const [p, q] = [c[i], c[j]];
      const overlapX = Math.min(p.x + p.w, q.x + q.w) - Math.max(p.x, q.x);
      const overlapY = Math.min(p.y + p.h, q.y + q.h) - Math.max(p.y, q.y);
      if (overlapX > 0.5 && overlapY > 0.5) out.push(`labels overlap: "${p.text}" and "${q.text}" (${overlapX.toFixed(1)} x ${overlapY.toFixed(1)})`);
    }
  }
  return out;
}

async function atEnd(page) {
  await page.locator(sel('jump-end')).click();
  await page.locator(`${sel('player')}[data-state="end"]`).waitFor({ timeout: 20_000 });
  // the last step's envelopes finish travelling
  await page.waitForTimeout(900);
}

test('every scenario at its end: arrows follow their times, no label overlaps another, nothing in flight', T, async () => {
  const failures = [];
  for (const id of SCENARIOS) {
    const view = await app.open(`/?scenario=${id}`);
    const { page } = view;
    await page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
    await atEnd(page);
    const lanes = await page.evaluate(geometryIn, null);
    assert.ok(lanes.length > 0, `${id}: no lane drawn`);
    for (const lane of lanes) {
      assert.ok(lane.messages.length > 0, `${id} ${lane.label}: no message`);
      for (const p of problemsOf(lane, { atEnd: true })) failures.push(`${id} / ${lane.label}: ${p}`);
    }
    // The narration is never cut off: every line is visible in its box.
    const cut = await page.evaluate(() => {
      const n = document.querySelector('[data-testid="narration"]');
      return n.scrollHeight - n.clientHeight;
    });
    if (cut > 1) failures.push(`${id}: the narration hides ${cut}px`);
    await view.screenshot(`look-end-${id}`);
    assert.deepEqual(view.problems(), [], `${id}: console problems`);
    await page.close();
  }
  assert.deepEqual(failures, []);
});

test('compatibility-matrix: all seven lane narrations are visible at a step where every lane speaks', T, async () => {
  const view = await app.open('/?scenario=compatibility-matrix');
  const { page } = view;
  await page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
  await page.locator(sel('step-forward')).click();
  const lines = page.locator(`${sel('narration')} p`);
  assert.equal(await lines.count(), 7);
  for (let i = 0; i < 7; i++) assert.ok(await lines.nth(i).isVisible(), `line ${i} visible`);
  const box = await page.locator(sel('narration')).boundingBox();
  const last = await lines.nth(6).boundingBox();
  assert.ok(last.y + last.height <= box.y + box.height + 1, 'the last line is inside the narration box');
  await page.close();
});

test('keyboard focus stays on the message a person picked while playback goes on', T, async () => {
  const view = await app.open('/?scenario=elicitation-checked');
  const { page } = view;
  await page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
  await page.locator(sel('step-forward')).click();
  await page.locator(sel('step-forward')).click();
  const first = page.locator('[data-testid="message-0-0"]');
  await first.focus();
  const name = await first.getAttribute('aria-label');
  for (let i = 0; i < 4; i++) {
    await page.evaluate(() => document.querySelector('[data-testid="step-forward"]').click());
    await page.waitForTimeout(50);
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    assert.equal(focused, name, `after ${i + 1} more steps the focused message is still the one picked`);
  }
  await page.close();
});

/** The lesson 07 practice lab, step by step, as a learner types it. */
const LAB = [
  { what: 'a plain server/discover', method: 'server/discover', expect: /result/ },
  { what: 'notify_oncall declaring nothing', method: 'tools/call', tool: 'notify_oncall', caps: {}, expect: /-32021/ },
  { what: 'notify_oncall declaring elicitation', method: 'tools/call', tool: 'notify_oncall', args: { incident: 'INC-1' }, caps: { elicitation: { form: {} } }, expect: /result|input/ },
  { what: 'a tool the server does not have', method: 'tools/call', tool: 'close_all_incidents', caps: {}, expect: /-32602/ },
  { what: 'server/discover asking for 2025-11-25', method: 'server/discover', version: '2025-11-25', expect: /-32022/ },
  { what: 'server/discover retried with 2026-07-28 and a new id', method: 'server/discover', version: '2026-07-28', expect: /result/ },
  { what: 'notify_oncall dropping elicitation again', method: 'tools/call', tool: 'notify_oncall', caps: {}, expect: /-32021/ },
];

async function runLab(page) {
  await page.selectOption(sel('editor-target'), 'deploy-console');
  await page.selectOption(sel('editor-transport'), 'stdio');
  for (const [n, step] of LAB.entries()) {
    await page.selectOption(sel('editor-revision'), '2026-07-28');
    await page.selectOption(sel('editor-method'), step.method);
    await page.locator(sel('insert-template')).click();
    await page.waitForFunction(
      (m) => document.querySelector('[data-testid="editor-text"]').value.includes(`"method": "${m}"`),
      step.method,
    );
    const request = JSON.parse(await page.locator(sel('editor-text')).inputValue());
    if (step.tool) request.params.name = step.tool;
    if (step.args) request.params.arguments = step.args;
    if (step.caps) request.params._meta["io.modelcontextprotocol/clientCapabilities"] = step.caps;
    if (step.version) request.params._meta["io.modelcontextprotocol/protocolVersion"] = step.version;
    await page.locator(sel('editor-text')).fill(JSON.stringify(request, null, 2));
    await page.locator(sel('send')).click();
    await page.locator(`${sel('reply')}[data-index="${n}"]`).waitFor({ timeout: 10_000 });
    const badge = await page.locator(sel('reply-badge')).innerText();
    assert.match(badge, step.expect, `lab step ${n + 1} (${step.what}): ${badge}`);
  }
  // the lane catches up with the last reply
  await page.waitForTimeout(1200);
}

test('the editor after lesson 07 practice lab: a readable lane on its own clock, every request clickable', T, async () => {
  const view = await openEditor(app);
  const { page } = view;
  await runLab(page);
  const [lane] = await page.evaluate(() => {
    const svg = document.querySelector('.editor-lane svg.lane-svg');
    return [{ ok: !!svg }];
  });
  assert.ok(lane.ok);
  const lanes = (await page.evaluate(geometryIn, null)).filter((l) => /editor/.test(l.label));
  assert.equal(lanes.length, 1);
  const editorLane = lanes[0];
  assert.equal(editorLane.messages.filter((m) => /^message-90-/.test(m.id)).length, LAB.length * 2);
  assert.deepEqual(problemsOf(editorLane, { atEnd: true }), []);
  const starts = new Set(editorLane.messages.map((m) => m.y1));
  assert.equal(starts.size, editorLane.messages.length, 'every arrow starts at its own height');

  // Every request arrow takes a click in the middle of its shaft.
  const picked = await page.evaluate(() => {
    const out = [];
    for (const g of document.querySelectorAll('.editor-lane g.msg.request')) {
      const line = g.querySelector('line.shaft');
      const m = line.getScreenCTM();
      const x = (Number(line.getAttribute('x1')) + Number(line.getAttribute('x2'))) / 2;
      const y = (Number(line.getAttribute('y1')) + Number(line.getAttribute('y2'))) / 2;
      const pt = new DOMPoint(x, y).matrixTransform(m);
      g.scrollIntoView({ block: 'center' });
      const pt2 = new DOMPoint(x, y).matrixTransform(line.getScreenCTM());
      const hit = document.elementFromPoint(pt2.x, pt2.y)?.closest('g.ev');
      out.push({ id: g.dataset.testid, hit: hit?.dataset.testid ?? null, pt: [pt.x, pt.y] });
    }
    return out;
  });
  assert.equal(picked.length, LAB.length);
  for (const p of picked) assert.equal(p.hit, p.id, `a click on ${p.id} reaches it`);
  // Clicking a request shows its exchange.
  const third = page.locator('.editor-lane g.msg.request').nth(2);
  await third.click();
  assert.equal(await page.locator(sel('reply')).getAttribute('data-index'), '2');

  // The reply's header keeps the version asked for apart from the one spoken.
  await page.locator('.editor-lane g.msg.request').nth(4).click();
  const versions = await page.locator(sel('reply-versions')).innerText();
  assert.match(versions, /asked for 2025-11-25/);
  assert.match(versions, /server supports 2026-07-28/);
  await page.locator(sel('editor-lint')).scrollIntoViewIfNeeded();
  await view.screenshot('look-editor-lesson-07-lab');
  assert.deepEqual(view.problems(), []);
  await page.close();
});

test('a reused id: the lint warns before sending, a legacy session refuses it, the lane marks it with RPC-ID', T, async () => {
  const view = await openEditor(app);
  const { page } = view;
  await page.selectOption(sel('editor-target'), 'notes');
  await page.selectOption(sel('editor-revision'), '2025-11-25');
  await page.selectOption(sel('editor-method'), 'initialize');
  await page.locator(sel('insert-template')).click();
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="0"]`).waitFor();
  const list = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';
  await page.locator(sel('editor-text')).fill(list);
  assert.doesNotMatch(await page.locator(sel('editor-lint')).innerText(), /RPC-ID/);
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="1"]`).waitFor();
  assert.match(await page.locator(sel('reply-badge')).innerText(), /result/);
  assert.match(await page.locator(sel('editor-lint')).innerText(), /RPC-ID/, 'the lint warns before the same id goes again');
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="2"]`).waitFor();
  assert.match(await page.locator(sel('reply-badge')).innerText(), /-32600/);
  await page.waitForTimeout(1200);
  const marked = page.locator('.editor-lane g.msg.violation');
  assert.equal(await marked.count(), 1);
  assert.match(await marked.getAttribute("aria-label"), /breaking a rule/);
  await page.close();
});

test('Replace text with template is one edit: Ctrl+Z brings the text back', T, async () => {
  const view = await openEditor(app);
  const { page } = view;
  const mine = '{"jsonrpc":"2.0","id":41,"method":"tools/list","params":{"mine":true}}';
  const area = page.locator(sel('editor-text'));
  await area.fill(mine);
  await page.selectOption(sel('editor-method'), 'server/discover');
  await page.locator(sel('insert-template')).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-text"]').value.includes('server/discover'));
  assert.match(await page.locator(sel('editor-notice')).innerText(), /Ctrl\+Z/);
  await area.focus();
  await page.keyboard.press('Control+z');
  await page.waitForFunction((t) => document.querySelector('[data-testid="editor-text"]').value === t, mine);
  await page.close();
});

test('the tools/call template calls a tool of the chosen server', T, async () => {
  const view = await openEditor(app);
  const { page } = view;
  await page.selectOption(sel('editor-target'), 'order-desk');
  await page.selectOption(sel('editor-revision'), '2026-07-28');
  await page.selectOption(sel('editor-method'), 'tools/call');
  await page.locator(sel('insert-template')).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-text"]').value.includes('tools/call'));
  await page.locator(sel('send')).click();
  await page.locator(`${sel('reply')}[data-index="0"]`).waitFor();
  assert.doesNotMatch(await page.locator(sel('reply-note')).innerText(), /not one of this server's tools/);
  await page.close();
});

for (const width of [360, 1280]) {
  test(`at ${width} px a long line never draws over the line numbers, nor they over the code`, T, async () => {
    const view = await openEditor(app);
    const { page } = view;
    await page.setViewportSize({ width, height: 800 });
    const long = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"${'a_very_long_tool_name_'.repeat(12)}","arguments":{}}}`;
    const area = page.locator(sel('editor-text'));
    await area.fill(JSON.stringify(JSON.parse(long), null, 2));
    await area.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.waitForTimeout(100);
    for (const scroll of ['end', 'start']) {
      const report = await page.evaluate((scroll) => {
        const box = document.querySelector('.code');
        if (scroll === 'end') box.scrollLeft = box.scrollWidth;
        else box.scrollLeft = 0;
        const gutter = document.querySelector('.gutter').getBoundingClientRect();
        const out = { scrollLeft: box.scrollLeft, coveredNumbers: 0, coveredCode: 0 };
        // In the gutter, the gutter is what is on top.
        for (let y = gutter.top + 12; y < Math.min(gutter.bottom, box.getBoundingClientRect().bottom) - 4; y += 19) {
          const top = document.elementFromPoint(gutter.left + gutter.width / 2, y);
          if (top && !top.closest('.gutter')) out.coveredNumbers++;
        }
        // At the start, the first character of every line is right of the gutter.
        if (scroll === 'start') {
          const code = document.querySelector('.code-view code');
          const range = document.createRange();
          range.setStart(code.firstChild?.firstChild ?? code.firstChild, 0);
          range.setEnd(code.firstChild?.firstChild ?? code.firstChild, 1);
          const first = range.getBoundingClientRect();
          if (first.left < gutter.right - 0.5) out.coveredCode++;
        }
        return out;
      }, scroll);
      assert.equal(report.coveredNumbers, 0, `${scroll}: code drawn over the line numbers (${JSON.stringify(report)})`);
      assert.equal(report.coveredCode, 0, `${scroll}: the line numbers cover code (${JSON.stringify(report)})`);
    }
    await view.screenshot(`look-editor-long-line-${width}`);
    await page.close();
  });
}

test('the course page: one main, figures are regions named by their titles, screenshots', T, async () => {
  const view = await app.open('/course-demo.html');
  const { page } = view;
  for (const id of ['fig-discover', 'fig-plain-vs-rich', 'fig-unchecked', 'fig-weather']) {
    await page.waitForFunction((id) => !!document.getElementById(id).shadowRoot?.querySelector('[data-testid="player"]'), id, { timeout: 30_000 });
  }
  await page.frameLocator('#fig-frame').locator(sel('player')).waitFor({ timeout: 30_000 });
  await page.locator(`#fig-plain-vs-rich ${sel('player')}[data-state="end"]`).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(900);
  const landmarks = await page.evaluate(() => {
    const all = [document, ...[...document.querySelectorAll('*')].map((e) => e.shadowRoot).filter(Boolean)];
    const mains = all.flatMap((r) => [...r.querySelectorAll('main, [role="main"]')]).length;
    const regions = all.flatMap((r) => [...r.querySelectorAll('[role="region"][data-testid="figure"]')]).map((e) => e.getAttribute('aria-label'));
    const headings = all.flatMap((r) => [...r.querySelectorAll('[data-testid="scenario-title"]')]).map((e) => e.textContent);
    return { mains, regions, headings };
  });
  assert.equal(landmarks.mains, 1, 'one main landmark: the course page\'s own');
  assert.deepEqual(landmarks.regions, [
    'Figure 1: one server/discover round trip',
    'Figure 2: plain and rich clients side by side',
    'Figure 3: a lock held while asking a client that cannot answer',
    'A forecast needs sampling',
  ]);
  for (const h of landmarks.headings) assert.doesNotMatch(h, /^\d+\. /, 'no catalogue number in a figure heading');
  // Figure 2 at its end: nothing in flight.
  for (const lane of await page.evaluate(geometryIn, '#fig-plain-vs-rich')) {
    assert.deepEqual(problemsOf(lane, { atEnd: true }), [], lane.label);
  }
  await view.screenshot('look-course-page');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await view.screenshot('look-course-page-dark');
  assert.deepEqual(view.problems(), []);
  await page.close();
});

test('the page: one main, a skip link to Play, no duplicated names in a lane', T, async () => {
  const view = await app.open('/?scenario=plain-vs-rich');
  const { page } = view;
  await page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('main, [role="main"]').count(), 1);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'skip-link');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'play');
  await atEnd(page);
  const names = await page.evaluate(() =>
    [...document.querySelectorAll('svg.lane-svg')].map((svg) => [...svg.querySelectorAll('.ev')].map((e) => e.getAttribute('aria-label'))),
  );
  for (const lane of names) {
    assert.equal(new Set(lane).size, lane.length, `names in a lane are distinct: ${lane.join(' | ')}`);
    for (const n of lane) assert.doesNotMatch(n, /^(\w+) \1\b/, `no doubled word: ${n}`);
  }
  await page.close();
});
