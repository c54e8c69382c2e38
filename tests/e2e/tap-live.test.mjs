// `mcp-lanes tap --live` in the page (issue 29): the official TypeScript SDK
// client (tests/peers, @modelcontextprotocol/sdk) talks to `mcp-lanes serve`
// through two HTTP taps while the page at ?tap=URL1,URL2 watches. Each
// conversation is drawn as it happens (the page gains messages while the taps
// still run, before any of them ended), graded by the core (verdict marks on
// the messages), the two taps side by side, a run per MCP session; the drawing is sane
// (no overlap, arrows inside their lane, time running down) under the strict
// CSP, and a screenshot is saved. Then a client that leaves mid-call through a
// tap in front of `serve`: the lane draws the client disconnecting after the
// message it left during, inside the lane, narrated and explained in both the
// narration (the view following the end) and the inspector, the call it left
// no failure (screenshot tap-live-left).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, saveScreenshot } from './harness.mjs';
import { binary, strictApp } from './cli-peers.mjs';
import { lanesGeometry, problems } from './geometry.mjs';

const T = { timeout: 180_000 };
const CLIENT = path.join(REPO_ROOT, 'tests/peers/smoke/client-v1.mjs');
const SDK = path.join(REPO_ROOT, 'tests/peers/node_modules/@modelcontextprotocol/sdk');
const children = [];
let app;

before(async () => {
  app = await strictApp();
});
after(async () => {
  for (const child of children) child.kill('SIGTERM');
  await app?.close();
});

/** Runs `mcp-lanes ARGS` until its stderr has matched every pattern; the first group of each. */
function start(args, patterns) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let text = '';
    const timer = setTimeout(() => reject(new Error(`mcp-lanes ${args.join(' ')}: ${text}`)), 20_000);
    child.stderr.on('data', (chunk) => {
      text += chunk;
      const found = patterns.map((p) => text.match(p)?.[1]);
      if (found.every(Boolean)) {
        clearTimeout(timer);
        resolve(found.map(Number));
      }
    });
    child.on('exit', (code) => reject(new Error(`mcp-lanes ${args.join(' ')} exited ${code}: ${text}`)));
  });
}

/** The SDK client's whole session through `url`: its summary. */
function client(url) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLIENT, url, '--tool', 'test_simple_text', '--timeout', '20000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      resolve({ code, summary: last.startsWith('{') ? JSON.parse(last) : null, err });
    });
  });
}

/** Per lane, the messages drawn (their test ids) and the verdict marks. */
async function lanes(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid^="lane-"]')]
      .filter((l) => /^lane-\d+$/.test(l.dataset.testid))
      .map((lane) => {
        const n = lane.dataset.testid.split('-')[1];
        const box = lane.getBoundingClientRect();
        return {
          messages: lane.querySelectorAll(`[data-testid^="message-${n}-"]`).length,
          marks: lane.querySelectorAll(`[data-testid^="verdict-${n}-"]`).length,
          label: lane.querySelector('.lane-label, h3, header')?.textContent ?? '',
          x: box.x,
          y: box.y,
          width: box.width,
        };
      }),
  );
}

/** `lanes(page)` once two reads 400 ms apart agree (a redraw may still be on its way). */
async function settled(page) {
  let before = await lanes(page);
  for (;;) {
    await page.waitForTimeout(400);
    const now = await lanes(page);
    if (JSON.stringify(now) === JSON.stringify(before)) return now;
    before = now;
  }
}

test('two HTTP taps drawn live, side by side, as the SDK client talks through them', T, async (t) => {
  if (!existsSync(SDK)) {
    assert.ok(!process.env.MCP_LANES_REQUIRE_PEERS, 'the TypeScript SDK is not installed (scripts/setup.sh peers)');
    t.skip('the TypeScript SDK is not installed in tests/peers');
    return;
  }
  const origin = new URL(app.url).origin;
  const [upstream] = await start(
    ['serve', '--transport', 'http', '--port', '0', '--preset', 'reference'],
    [/listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/],
  );
  const tap = () =>
    start(
      ['tap', '--upstream', `http://127.0.0.1:${upstream}/mcp`, '--port', '0', '--live', '0', '--allow-origin', origin],
      [/passing http:\/\/127\.0\.0\.1:(\d+)\/mcp/, /live: http:\/\/127\.0\.0\.1:(\d+)\//],
    );
  const [[proxyA, liveA], [proxyB, liveB]] = await Promise.all([tap(), tap()]);
  const view = await app.open(`/?tap=http://127.0.0.1:${liveA}/,http://127.0.0.1:${liveB}/`);
  const { page } = view;
  await page.locator('[data-testid="notice"]').filter({ hasText: `127.0.0.1:${liveA}` }).waitFor({ timeout: 30_000 });
  assert.equal((await lanes(page)).length, 0, 'nothing drawn before the conversation');

  // The first session, through tap A: lane 0 draws it while the taps still run.
  const first = await client(`http://127.0.0.1:${proxyA}/mcp`);
  assert.equal(first.summary?.ok, true, `the SDK client through tap A: ${first.err}`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^="message-0-"]').length >= 6, null, { timeout: 20_000 });
  const once = await settled(page);
  assert.equal(once.length, 1, 'one conversation so far: one run');
  assert.ok(once[0].marks > 0, 'the exchanges carry verdict marks');
  assert.equal(await page.locator('[data-testid="notice"]').count(), 0, 'the waiting notice is gone');
  await saveScreenshot(page, 'tap-live-one');

  // A second session, through tap B: a second run beside the first.
  const second = await client(`http://127.0.0.1:${proxyB}/mcp`);
  assert.equal(second.summary?.ok, true, `the SDK client through tap B: ${second.err}`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^="message-1-"]').length >= 6, null, { timeout: 20_000 });
  const twice = await settled(page);
  assert.equal(twice.length, 2, 'two taps: two runs');
  assert.equal(twice[0].messages, once[0].messages, 'tap A did not move');
  assert.ok(twice[1].x >= twice[0].x + twice[0].width - 1, `side by side: ${JSON.stringify(twice)}`);
  assert.ok(Math.abs(twice[1].y - twice[0].y) < 2, 'on one row');

  // Tap A's conversation goes on with a second session: a run of its own,
  // after tap A's first and before tap B's (ids start over in a session,
  // and no rule fails for it).
  const third = await client(`http://127.0.0.1:${proxyA}/mcp`);
  assert.equal(third.summary?.ok, true, `the SDK client through tap A again: ${third.err}`);
  // (A redraw may come mid-session: wait for the whole of it.)
  await page.waitForFunction(
    () =>
      document.querySelectorAll('[data-testid="lane-2"]').length === 1 &&
      document.querySelectorAll('[data-testid^="message-1-"]').length >= 6,
    null,
    { timeout: 20_000 },
  );
  const grown = await settled(page);
  assert.equal(grown.length, 3, `a run per session: ${JSON.stringify(grown)}`);
  assert.equal(grown[0].messages, once[0].messages, 'the first session as it was');
  assert.ok(grown[1].messages >= 6, 'the second session of tap A drawn');
  assert.equal(grown[2].messages, twice[1].messages, 'tap B as it was');
  assert.equal(await page.locator('li.verdict-item.fail').count(), 0, 'nothing to fix: each session graded on its own');
  // The playhead follows the end: the last message drawn is shown.
  const playhead = await page.locator('[data-playhead]').count();
  assert.ok(playhead > 0, 'a playhead');

  const geometry = problems(await lanesGeometry(page), { maxRun: 0.95 });
  assert.deepEqual(geometry, [], geometry.join('\n'));
  const violations = await page.evaluate(() => window.__violations);
  assert.deepEqual(violations, [], 'no CSP violation');
  await saveScreenshot(page, 'tap-live-two');
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

/** Reads `response`'s body until it holds `needle`; what it read. */
async function readUntil(response, needle) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

test('a client that leaves mid-call: the lane shows it where it happened, explained, and the view follows', T, async () => {
  const origin = new URL(app.url).origin;
  const [upstream] = await start(
    ['serve', '--transport', 'http', '--port', '0', '--preset', 'search-index'],
    [/listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/],
  );
  const [proxy, live] = await start(
    ['tap', '--upstream', `http://127.0.0.1:${upstream}/mcp`, '--port', '0', '--live', '0', '--allow-origin', origin],
    [/passing http:\/\/127\.0\.0\.1:(\d+)\/mcp/, /live: http:\/\/127\.0\.0\.1:(\d+)\//],
  );
  const tapProcess = children[children.length - 1];
  const view = await app.open(`/?tap=http://127.0.0.1:${live}/`);
  const { page } = view;
  await page.locator('[data-testid="notice"]').filter({ hasText: `127.0.0.1:${live}` }).waitFor({ timeout: 30_000 });

  // A legacy session through the tap; the call's SSE stream brings the
  // server's elicitation, and the client leaves then.
  const url = `http://127.0.0.1:${proxy}/mcp`;
  const version = '2025-06-18';
  const base = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const init = await fetch(url, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({
      jsonrpc: '2.0', id: 0, method: 'initialize',
      params: { protocolVersion: version, capabilities: { elicitation: {} }, clientInfo: { name: 'leaving', version: '1' } },
    }),
  });
  assert.equal(init.status, 200);
  const session = init.headers.get('mcp-session-id');
  await init.text();
  const headers = { ...base, 'MCP-Protocol-Version': version, 'Mcp-Session-Id': session };
  const done = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  assert.equal(done.status, 202);
  await done.text();
  const leaving = new AbortController();
  const call = await fetch(url, {
    method: 'POST',
    headers,
    signal: leaving.signal,
    body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'purge_index', arguments: { index: 'docs' } } }),
  });
  assert.ok((await readUntil(call, 'elicitation/create')).includes('elicitation/create'));
  leaving.abort();

  // The lane draws the client disconnecting, after the elicitation.
  const marker = page.locator('[data-testid="lane-0"] [data-testid^="event-0-"][data-kind="disconnected"]');
  await marker.waitFor({ timeout: 20_000 });
  assert.equal(await marker.count(), 1, 'one leaving drawn');
  assert.ok((await marker.locator('text').textContent()).includes('disconnects'), 'its marker says it');
  const title = await marker.locator('title').textContent();
  assert.ok(
    title.includes('the client left') && title.includes('during the answer to POST /mcp'),
    `explained: ${title}`,
  );
  const geometry = await page.evaluate(() => {
    const lane = document.querySelector('[data-testid="lane-0"]').getBoundingClientRect();
    const mark = document.querySelector('[data-testid="lane-0"] [data-kind="disconnected"] path.glyph').getBoundingClientRect();
    const asked = [...document.querySelectorAll('[data-testid^="message-0-"]')].find((m) =>
      (m.getAttribute('data-label') ?? m.textContent).includes('elicitation/create'),
    );
    const last = [...document.querySelectorAll('[data-testid^="message-0-"]')].pop().getBoundingClientRect();
    return {
      lane: { left: lane.left, right: lane.right, top: lane.top, bottom: lane.bottom },
      mark: { left: mark.left, right: mark.right, top: mark.top, bottom: mark.bottom },
      askedBottom: asked?.getBoundingClientRect().bottom ?? null,
      lastTop: last.top,
    };
  });
  const { lane, mark } = geometry;
  assert.ok(
    mark.left >= lane.left && mark.right <= lane.right && mark.top >= lane.top && mark.bottom <= lane.bottom,
    `drawn inside its lane: ${JSON.stringify(geometry)}`,
  );
  assert.ok(geometry.askedBottom !== null, 'the elicitation is drawn');
  assert.ok(mark.top >= geometry.askedBottom - 1, `after the elicitation it left during: ${JSON.stringify(geometry)}`);

  // The view followed the end: the narration says the client left.
  const narration = page.locator('[data-testid="narration"]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="narration"]')?.textContent.includes('the client left'),
    null,
    { timeout: 10_000 },
  );
  assert.ok((await narration.textContent()).includes('dropped its HTTP connection'));
  // Explained in the inspector, as a simulated leaving is.
  await marker.click();
  const note = await page.locator('[data-testid="inspector-note"]').textContent();
  assert.ok(note.includes('Recorded: the client left'), note);
  assert.ok((await page.locator('[data-testid="inspector-title"]').textContent()).includes('disconnects'));
  await saveScreenshot(page, 'tap-live-left');
  // The call it left is explained and linked like a simulated message.
  await page.locator('[data-testid="lane-0"] [data-testid^="message-0-"][data-label*="tools/call"]').first().click();
  assert.ok((await page.locator('[data-testid="inspector-title"]').textContent()).includes('tools/call'));
  assert.ok((await page.locator('[data-testid="inspector"] a.fx-spec').count()) > 0, 'its fields link the spec');
  // The call left waiting is no failure of the server's.
  tapProcess.kill('SIGTERM');
  await page.waitForTimeout(1_500);
  assert.equal(await page.locator('li.verdict-item.fail').count(), 0, 'nothing to fix: the client left first');
  assert.equal(await marker.count(), 1, 'still drawn once the tap has ended');
  const violations = await page.evaluate(() => window.__violations);
  assert.deepEqual(violations, [], 'no CSP violation');
  // At `end` the page closes the stream itself: the browser calls that aborted.
  const problems = view.problems().filter((p) => !p.includes(`127.0.0.1:${live}/ net::ERR_ABORTED`));
  assert.deepEqual(problems, [], problems.join('\n'));
});
