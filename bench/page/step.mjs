// Benchmark (not a test): one step of the page, the time from a click on
// "Step forward" to the page updated and laid out (the click, whose handler
// draws the step, and a forced layout), and the same after a task turn (in
// which the browser may paint a frame), over 120 steps of three scenarios,
// from one lane to seven: on a first visit (the drawn page, played by figure.js), then in
// the full bundle (the same page after the hand-over: the runtime redraws
// the player, the narration and each lane) (BENCHMARKS.md, "A step of the
// page").
//
// The figures are written to
// tests/e2e/artifacts/step-bench.txt, never asserted: this fails only on
// errors. Run by scripts/bench-page.sh (needs dist/).
//
//   node bench/page/step.mjs
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ARTIFACTS_DIR, startApp } from '../../tests/e2e/harness.mjs';
import { ready } from '../../tests/e2e/lanes.mjs';

/**
 * In the page: `rounds` times from the start to (at most) 40 steps on.
 * Each step is timed twice over: to laid out (the click, whose handler
 * draws the step, then a forced layout: `times`), and to laid out after a
 * task turn (`turned`: a frame the browser paints in that turn counts).
 */
function stepTimes(rounds) {
  return (async () => {
    const times = [];
    const turned = [];
    const button = (id) => document.querySelector(`[data-testid="${id}"]`);
    for (let k = 0; k < rounds; k++) {
      button('restart').click();
      for (let i = 0; i < 40; i++) {
        const forward = button('step-forward');
        if (!forward || forward.disabled) break;
        const t0 = performance.now();
        forward.click();
        void document.body.offsetHeight;
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 0));
        void document.body.offsetHeight;
        turned.push(performance.now() - t0);
      }
    }
    const at = (list, q) => {
      const sorted = [...list].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))].toFixed(1);
    };
    return {
      steps: times.length,
      median: at(times, 0.5),
      p95: at(times, 0.95),
      max: at(times, 1),
      turnedMedian: at(turned, 0.5),
      turnedP95: at(turned, 0.95),
      elements: document.querySelectorAll('*').length,
    };
  })();
}

const app = await startApp();
try {
  const lines = [];
  for (const id of ['discover', 'era-cache-and-upgrade', 'compatibility-matrix']) {
    const view = await app.open(`/?scenario=${id}`, { width: 1280, height: 900 });
    await ready(view.page);
    const r = await view.page.evaluate(stepTimes, 3);
    assert.ok(r.steps > 0, `${id}: steps taken`);
    lines.push(`drawn ${id.padEnd(24)} ${String(r.elements).padStart(5)} elements, ${r.steps} steps: median ${r.median} ms, p95 ${r.p95} ms, max ${r.max} ms; with a task turn: median ${r.turnedMedian} ms, p95 ${r.turnedP95} ms`);
    // The full bundle: "Export a run" hands over; its island is up once the
    // full page runs.
    await view.page.locator('[data-testid="exports"] > summary').click();
    await view.page.locator('[data-island="exports"] [data-testid="export-json-copy"]').waitFor({ timeout: 30_000 });
    await view.page.locator('[data-testid="exports"] > summary').click();
    const f = await view.page.evaluate(stepTimes, 3);
    assert.ok(f.steps > 0, `${id}: steps taken in the full bundle`);
    lines.push(`full  ${id.padEnd(24)} ${String(f.elements).padStart(5)} elements, ${f.steps} steps: median ${f.median} ms, p95 ${f.p95} ms, max ${f.max} ms; with a task turn: median ${f.turnedMedian} ms, p95 ${f.turnedP95} ms`);
    assert.deepEqual(view.problems(), [], view.problems().join('\n'));
    await view.page.close();
  }
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const report = `drawn page (figure.js) and full bundle (runtime), Step forward to laid out, and to laid out after a task turn (headless chromium)\n${lines.join('\n')}\n`;
  await writeFile(path.join(ARTIFACTS_DIR, 'step-bench.txt'), report);
  console.log(report);
} finally {
  await app.close();
}
