// Benchmark (not a test): a 5 MB paste into the request editor, then the
// time from a keystroke to the next frame (budget of issue 14: p99 under
// 50 ms), next to the same keystrokes in a bare <textarea> holding the same
// text in the same browser (the part of the time that is the browser's own
// editing), and the time Format takes to answer (it refuses 5 MB with a
// notice). Measured, never asserted; what the page says about such a paste
// is tested in tests/e2e/editor.test.mjs. Writes
// tests/e2e/artifacts/paste-bench.txt. Run by scripts/bench-page.sh (needs
// dist/).
//
//   node bench/page/paste.mjs        PASTE_BENCH_RUNS=200 for more keystrokes
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ARTIFACTS_DIR, startApp } from '../../tests/e2e/harness.mjs';

const RUNS = Number(process.env.PASTE_BENCH_RUNS ?? 80);
const WARMUP = 10;
const BUDGET_MS = 50;
const sel = (id) => `[data-testid="${id}"]`;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const app = await startApp();
try {
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('tab-editor')).click();
  await page.locator(sel('editor-text')).waitFor({ state: 'visible', timeout: 30_000 });
  // 5 MB of JSON-looking lines, arriving as one paste (one input event).
  const bytes = await page.evaluate(() => {
    const line = '  {"id": 12345, "title": "incident with a long enough title", "open": true},\n';
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"items":[\n' + line.repeat(Math.ceil(5e6 / line.length)) + ']}}';
    const area = document.querySelector('[data-testid="editor-text"]');
    area.focus();
    area.value = text;
    area.setSelectionRange(text.length / 2, text.length / 2);
    area.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    return text.length;
  });
  // The page has taken the paste in when it says the text is too large to keep.
  await page.locator(sel('editor-too-large')).waitFor({ timeout: 30_000 });

  // Keystrokes in the middle of the text: ms from the keystroke to the next frame.
  const times = await page.evaluate(
    async ({ runs, warmup }) => {
      const area = document.querySelector('[data-testid="editor-text"]');
      area.focus();
      const out = [];
      for (let n = 0; n < runs + warmup; n++) {
        const t0 = performance.now();
        document.execCommand('insertText', false, n % 2 ? 'x' : 'y');
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        if (n >= warmup) out.push(performance.now() - t0);
      }
      return out;
    },
    { runs: RUNS, warmup: WARMUP },
  );
  times.sort((a, b) => a - b);
  const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(times, p));
  const max = times[times.length - 1];

  // Format answers at once (it says why it does not format 5 MB).
  const formatMs = await page.evaluate(async () => {
    const t0 = performance.now();
    document.querySelector('[data-testid="format"]').click();
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return performance.now() - t0;
  });
  // What was timed is Format's refusal, as the report says.
  assert.match(await page.locator(sel('editor-notice')).innerText(), /Format skipped/);

  // The same keystrokes in a bare textarea with the same text (no app code).
  const bare = await page.evaluate(
    async ({ runs, warmup }) => {
      const text = document.querySelector('[data-testid="editor-text"]').value;
      const ta = document.createElement('textarea');
      ta.setAttribute('wrap', 'off');
      document.body.append(ta);
      ta.value = text;
      ta.focus();
      ta.setSelectionRange(text.length / 2, text.length / 2);
      const out = [];
      for (let n = 0; n < runs + warmup; n++) {
        const t0 = performance.now();
        document.execCommand('insertText', false, 'x');
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        if (n >= warmup) out.push(performance.now() - t0);
      }
      ta.remove();
      return out.sort((a, b) => a - b);
    },
    { runs: Math.min(RUNS, 40), warmup: 5 },
  );
  const [b50, b99] = [50, 99].map((p) => percentile(bare, p));
  const report = [
    'Request editor with a 5 MB paste: keystroke -> next frame (execCommand insertText, rAF + setTimeout 0)',
    `budget: p99 < ${BUDGET_MS} ms (issue 14)`,
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), headless Debian Chromium, ${new Date().toISOString()}`,
    `${bytes} bytes, ${times.length} keystrokes after ${WARMUP} warm-up: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
    `bare <textarea> with the same text, ${bare.length} keystrokes: p50 ${b50.toFixed(1)} ms, p99 ${b99.toFixed(1)} ms (the browser's own editing)`,
    `Format: ${formatMs.toFixed(1)} ms (refused with a notice: over 1 MiB)`,
    '',
  ].join('\n');
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await writeFile(path.join(ARTIFACTS_DIR, 'paste-bench.txt'), report);
  console.log(report);
  if (p99 >= BUDGET_MS) console.log(`over budget: p99 ${p99.toFixed(1)} ms >= ${BUDGET_MS} ms (bare textarea p99 ${b99.toFixed(1)} ms)`);
  assert.deepEqual(view.problems(), []);
} finally {
  await app.close();
}
