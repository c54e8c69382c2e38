// Benchmark (not a test): request editor latency, from the Send click to the
// reply text being in the DOM, for a 1 KB and a 64 KB request. Budget
// (DESIGN.md): 16 ms at p99 for 64 KB. Measured, never asserted: this fails
// only on errors. Writes tests/e2e/artifacts/editor-bench.txt and .json and
// prints the figures. Run by scripts/bench-page.sh (needs dist/).
//
//   node bench/page/editor.mjs        EDITOR_BENCH_RUNS=100 for more runs
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ARTIFACTS_DIR, startApp } from '../../tests/e2e/harness.mjs';

const WARMUP = 10;
const RUNS = Number(process.env.EDITOR_BENCH_RUNS ?? 60);

/** A tools/call of list_incidents whose arguments pad it to about `bytes`
 * (its id is new on the connection, so the lint has nothing to say). */
function request(bytes) {
  const base = {
    jsonrpc: '2.0',
    id: bytes,
    method: 'tools/call',
    params: {
      name: 'list_incidents',
      arguments: { items: [] },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      },
    },
  };
  const item = (i) => ({ id: i, title: `incident ${i}`, severity: i % 4, tags: ['payments', 'latency'], open: i % 2 === 0 });
  let i = 0;
  while (JSON.stringify(base, null, 2).length < bytes - 120) base.params.arguments.items.push(item(i++));
  return JSON.stringify(base, null, 2);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Clicks Send `runs` times; each time, ms from the click to the reply in the DOM. */
async function measure(page, runs) {
  return page.evaluate(async (runs) => {
    const out = [];
    const send = document.querySelector('[data-testid="send"]');
    const root = document.querySelector('[data-testid="editor"]');
    for (let n = 0; n < runs; n++) {
      const index = String(Number(document.querySelector('[data-testid="reply"]').dataset.index ?? -1) + 1);
      const shown = () => {
        const reply = document.querySelector('[data-testid="reply"]');
        return reply?.dataset.index === index && reply.querySelector('[data-testid="reply-json"]')?.textContent.length > 0;
      };
      const ms = await new Promise((resolve) => {
        let t0 = 0;
        const observer = new MutationObserver(() => {
          if (shown()) {
            const t1 = performance.now();
            observer.disconnect();
            resolve(t1 - t0);
          }
        });
        observer.observe(root, { childList: true, subtree: true, characterData: true, attributes: true });
        t0 = performance.now();
        send.click();
        if (shown()) {
          observer.disconnect();
          resolve(performance.now() - t0);
        }
      });
      out.push(ms);
      // let the frame (and the lane's animation step) happen between sends
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return out;
  }, runs);
}

const app = await startApp();
try {
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator('[data-testid="tab-editor"]').click();
  await page.selectOption('[data-testid="editor-target"]', 'deploy-console');
  const lines = [];
  const results = {};
  for (const [label, bytes] of [
    ['1 KB', 1024],
    ['64 KB', 64 * 1024],
  ]) {
    const text = request(bytes);
    // Set the text the way a paste arrives (one input event); Playwright's
    // fill types it through the browser's editing code, which takes seconds
    // for a thousand lines in any textarea here.
    await page.evaluate((text) => {
      const area = document.querySelector('[data-testid="editor-text"]');
      area.value = text;
      area.dispatchEvent(new InputEvent('input', { bubbles: true }));
    }, text);
    await page.locator('[data-testid="editor-clean"]').waitFor();
    await measure(page, WARMUP);
    const times = (await measure(page, RUNS)).sort((a, b) => a - b);
    const badge = await page.locator('[data-testid="reply-badge"] .reply-badge').innerText();
    // What is timed must be a successful exchange (the editor's tests check
    // the answer itself).
    assert.equal(badge, 'result', `${label}: the request succeeds`);
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(times, p));
    results[label] = { bytes: text.length, runs: times.length, p50, p95, p99, max: times[times.length - 1] };
    lines.push(
      `${label.padEnd(6)} (${text.length} bytes, ${times.length} runs after ${WARMUP} warm-up): ` +
        `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`,
    );
  }
  const report = [
    'Editor latency: Send click -> reply text in the DOM (performance.now + MutationObserver)',
    `budget: p99 < 16 ms for a 64 KB request (DESIGN.md); measured, not asserted`,
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), headless Debian Chromium, ${new Date().toISOString()}`,
    ...lines,
    '',
  ].join('\n');
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await writeFile(path.join(ARTIFACTS_DIR, 'editor-bench.txt'), report);
  await writeFile(path.join(ARTIFACTS_DIR, 'editor-bench.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(report);
  assert.deepEqual(view.problems(), []);
} finally {
  await app.close();
}
