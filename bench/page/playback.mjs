// Benchmark (not a test): playback of three side-by-side lanes of 200
// messages each (`?scenario=stress`, built by the core's
// `scenarios::stress(3, 200)`), played at 4x; frame times are sampled with
// requestAnimationFrame while envelopes travel. The budget (60 fps,
// DESIGN.md) is measured and written to
// tests/e2e/artifacts/playback-bench.txt (and a screenshot,
// playback-bench.png), never asserted: this fails only on errors. That the
// load opens and plays is tested in tests/e2e/playground.test.mjs. Run by
// scripts/bench-page.sh (needs dist/).
//
//   node bench/page/playback.mjs        PLAYBACK_BENCH_SECONDS=12 for longer
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ARTIFACTS_DIR, startApp } from '../../tests/e2e/harness.mjs';
import { ready } from '../../tests/e2e/lanes.mjs';

const sel = (id) => `[data-testid="${id}"]`;
const SECONDS = Number(process.env.PLAYBACK_BENCH_SECONDS ?? 6);

const app = await startApp();
try {
  const view = await app.open('/?scenario=stress', { width: 1280, height: 900 });
  const { page } = view;
  await ready(page);
  const lanes = await page.locator('[data-testid^="lane-"] h3').count();
  assert.equal(lanes, 3, 'three lanes');
  await page.selectOption(sel('speed'), { label: '4×' });
  await page.locator(sel('play')).click();
  const frames = await page.evaluate(
    (seconds) =>
      new Promise((resolve) => {
        const times = [];
        const end = performance.now() + seconds * 1000;
        const tick = (t) => {
          times.push(t);
          if (t < end) requestAnimationFrame(tick);
          else resolve(times);
        };
        requestAnimationFrame(tick);
      }),
    SECONDS,
  );
  const step = await page.locator(sel('step-count')).innerText();
  const deltas = frames.slice(1).map((t, i) => t - frames[i]).sort((a, b) => a - b);
  const pick = (q) => deltas[Math.min(deltas.length - 1, Math.round((deltas.length - 1) * q))];
  const fps = (deltas.length / (frames[frames.length - 1] - frames[0])) * 1000;
  const long = deltas.filter((d) => d > 1000 / 60 * 1.5).length;
  const lines = [
    'Playback: 3 lanes x 200 messages (?scenario=stress), 4x, requestAnimationFrame sampling',
    'budget: 60 fps (DESIGN.md); measured, not asserted',
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), headless Debian Chromium (no GPU), ${new Date().toISOString()}`,
    `${SECONDS} s, ${deltas.length} frames: ${fps.toFixed(1)} fps; frame time p50 ${pick(0.5).toFixed(1)} ms, p95 ${pick(0.95).toFixed(1)} ms, p99 ${pick(0.99).toFixed(1)} ms; ${long} frames over 25 ms; playhead reached ${step}`,
  ];
  console.log(lines.join('\n'));
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await writeFile(path.join(ARTIFACTS_DIR, 'playback-bench.txt'), lines.join('\n') + '\n');
  await view.screenshot('playback-bench');
  assert.ok(deltas.length > 10, 'frames were rendered');
  assert.deepEqual(view.problems(), []);
} finally {
  await app.close();
}
