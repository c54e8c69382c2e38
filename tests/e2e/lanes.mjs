// Helpers for the playground tests, on top of harness.mjs: expected data
// from the golden transcripts (or the CLI), labels derived the way the core
// derives them, and small page helpers.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './harness.mjs';

export const GOLDEN_DIR = path.join(REPO_ROOT, 'crates', 'core', 'tests', 'golden');

/**
 * The `run --format json` document of a scenario: the checked-in golden
 * transcript when there is one, else the CLI's output.
 */
export function scenarioDocument(id) {
  const golden = path.join(GOLDEN_DIR, `${id}.json`);
  if (existsSync(golden)) return JSON.parse(readFileSync(golden, 'utf8'));
  const out = execFileSync(
    'cargo',
    ['run', '-q', '-p', 'mcp-lanes-cli', '--', 'run', '--scenario', id, '--format', 'json'],
    { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(out);
}

/**
 * The arrow label of a transcript entry, as the core makes it: the method,
 * "input_required", "result (isError)", "result" or the error code; a
 * server's HTTP status goes in front when there is a body.
 */
export function labelOf(entry) {
  const m = entry.message;
  let label;
  if (m === null || m === undefined) label = '(empty)';
  else if (typeof m !== 'object' || Array.isArray(m)) label = '(not JSON-RPC)';
  else if (typeof m.method === 'string') label = m.method;
  else if ('result' in m) {
    const r = m.result ?? {};
    if (r.resultType === 'input_required') label = 'input_required';
    else if (r.isError === true) label = 'result (isError)';
    else label = 'result';
  } else if ('error' in m) label = String(m.error?.code);
  else label = '(not JSON-RPC)';
  const fromServer = entry.direction === 'server->client';
  if (fromServer && entry.http?.status && m !== null && m !== undefined) {
    label = `${entry.http.status} ${label}`;
  }
  return label;
}

/** Expected last arrow label per set-up of a scenario, with the set-up labels. */
export function expectedLastLabels(id) {
  const doc = scenarioDocument(id);
  return doc.setups.map((s) => ({
    label: s.label,
    last: s.transcript.length ? labelOf(s.transcript[s.transcript.length - 1]) : null,
    count: s.transcript.length,
  }));
}

/**
 * Waits until the page is playable: the figure the build drew, once
 * figure.js has set it up (`data-ready`), or a bundle's own page.
 */
export async function ready(page) {
  await page.waitForSelector(
    '.app-root[data-static][data-ready] [data-testid="player"], .app-root:not([data-static]) [data-testid="player"]',
    { timeout: 30_000 },
  );
}

/** Opens a scenario (waiting for the app) and returns the harness view. */
export async function openScenario(app, id, opts) {
  const view = await app.open(id ? `/?scenario=${id}` : '/', opts);
  await ready(view.page);
  return view;
}

/**
 * Opens scenario `id` and steps to its end; returns the view and, per
 * set-up, what its lane must show ([`expectedLastLabels`]).
 */
export async function openAtEnd(app, id) {
  const want = expectedLastLabels(id);
  const view = await openScenario(app, id);
  await view.page.keyboard.press('End');
  await view.page.locator('[data-testid="player"][data-state="end"]').waitFor();
  return { view, want };
}

/**
 * Each lane of `page` has its set-up's label and ends with the message its
 * transcript ends with; with `counts`, it draws every message of it.
 */
export async function assertLaneEnds(page, want, { counts = false } = {}) {
  for (let n = 0; n < want.length; n++) {
    const lane = page.locator(`[data-testid="lane-${n}"]`);
    assert.equal(await lane.locator('h3').innerText(), want[n].label, `lane ${n} label`);
    assert.equal(await lastLabel(page, n), want[n].last, `lane ${n} last message`);
    if (counts) {
      assert.equal(await lane.locator('[data-testid^="message-"]').count(), want[n].count, `lane ${n} draws every message`);
    }
  }
}

/** What the lanes show now: visible event test ids per lane, clock, narration. */
export async function snapshot(page) {
  return page.evaluate(() => {
    const lanes = [...document.querySelectorAll('[data-testid^="lane-"]')].map((lane) =>
      [...lane.querySelectorAll('[data-testid^="message-"], [data-testid^="event-"]')].map(
        (e) => `${e.dataset.testid}:${e.dataset.label ?? e.dataset.kind}`,
      ),
    );
    return {
      lanes,
      clock: document.querySelector('[data-testid="clock"]')?.textContent,
      narration: document.querySelector('[data-testid="narration"]')?.textContent,
      state: document.querySelector('[data-testid="player"]')?.dataset.state,
    };
  });
}

/** The data-label of the last message arrow drawn in lane `n`. */
export async function lastLabel(page, n) {
  return page.evaluate((n) => {
    const lane = document.querySelector(`[data-testid="lane-${n}"]`);
    const msgs = lane ? lane.querySelectorAll('[data-testid^="message-"]') : [];
    return msgs.length ? msgs[msgs.length - 1].dataset.label : null;
  }, n);
}

/** WCAG contrast ratio of two CSS colours (rgb()/rgba() strings, alpha ignored). */
export function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c
      .match(/[\d.]+/g)
      .slice(0, 3)
      .map(Number)
      .map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [l1, l2] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}
