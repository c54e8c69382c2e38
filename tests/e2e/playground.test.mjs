// The playground page: scenario picker, lanes, playback, inspector,
// settings, keyboard, reduced motion, narrow screens and themes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './harness.mjs';
import { contrast, expectedLastLabels, lastLabel, openScenario, ready, snapshot } from './lanes.mjs';

export const SCENARIOS = [
  'discover',
  'capability-per-request',
  'plain-vs-rich',
  'unknown-tool-vs-unknown-method',
  'version-retry',
  'missing-meta',
  'era-probe-stdio',
  'era-probe-http',
  'era-cache-and-upgrade',
  'compatibility-matrix',
  'legacy-handshake',
  'list-changed-debounce',
  'elicitation-unchecked',
  'elicitation-checked',
  'legacy-client-vs-modern-server',
  'http-header-mismatch',
];

const T = { timeout: 90_000 };
let app;
const expected = new Map();

before(async () => {
  for (const id of SCENARIOS) expected.set(id, expectedLastLabels(id));
  app = await startApp();
});
after(async () => {
  await app?.close();
});

const sel = (id) => `[data-testid="${id}"]`;

test('the page loads quietly and the picker lists the 20 scenarios with summaries', T, async () => {
  const view = await openScenario(app, null);
  const { page } = view;
  // Folded at first (the figure first): its menu unfolds it.
  assert.equal(await page.locator(sel('scenario-picker')).evaluate((d) => d.open), false);
  await page.locator(`${sel('scenario-picker')} > summary`).click();
  const items = page.locator(`${sel('scenario-picker')} li`);
  assert.equal(await items.count(), 31);
  for (let i = 0; i < 20; i++) {
    const text = await items.nth(i).innerText();
    assert.match(text, new RegExp(`^${i + 1}\\. `), `item ${i + 1} is numbered`);
    assert.ok(text.split('\n').length >= 2 && text.length > 30, `item ${i + 1} has a summary: ${text}`);
  }
  assert.equal(await page.locator(sel('scenario-title')).getAttribute('data-scenario'), 'discover');
  await page.waitForTimeout(500);
  assert.deepEqual(view.problems(), [], `console problems:\n${view.problems().join('\n')}`);
});

test('an unknown ?scenario= shows a notice and opens the default scenario', T, async () => {
  const view = await openScenario(app, 'no-such-thing<b>');
  const { page } = view;
  const notice = page.locator(sel('notice'));
  await notice.waitFor();
  assert.match(await notice.innerText(), /no-such-thing<b>/, 'the id is shown as text');
  assert.equal(await page.locator('b', { hasText: 'no-such-thing' }).count(), 0, 'never as markup');
  assert.equal(await page.locator(sel('scenario-title')).getAttribute('data-scenario'), 'discover');
  assert.ok((await page.locator(sel('lane-0')).count()) === 1);
  assert.deepEqual(view.problems(), []);
});

test('picking a scenario in the picker opens it and updates the URL', T, async () => {
  const view = await openScenario(app, null);
  const { page } = view;
  await page.locator(`${sel('scenario-picker')} > summary`).click();
  await page.locator(sel('scenario-plain-vs-rich')).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="scenario-title"]')?.dataset.scenario === 'plain-vs-rich');
  assert.match(page.url(), /\?scenario=plain-vs-rich$/);
  assert.equal(await page.locator(sel('scenario-picker')).evaluate((d) => d.open), false, 'choosing folds the picker');
  assert.equal(await page.locator('[data-testid^="lane-"]').count(), 2);
  await page.goBack();
  await page.waitForFunction(() => document.querySelector('[data-testid="scenario-title"]')?.dataset.scenario === 'discover');
  assert.deepEqual(view.problems(), []);
});

describe('every scenario ends with the transcript\'s last message in each lane', () => {
  for (const id of SCENARIOS) {
    test(id, T, async () => {
      const view = await openScenario(app, id);
      const { page } = view;
      const want = expected.get(id);
      assert.equal(await page.locator('[data-testid^="lane-"]').count(), want.length, 'one lane per set-up');
      await page.keyboard.press('End');
      await page.locator(`${sel('player')}[data-state="end"]`).waitFor();
      for (let n = 0; n < want.length; n++) {
        const lane = page.locator(sel(`lane-${n}`));
        assert.equal(await lane.locator('h3').innerText(), want[n].label, `lane ${n} label`);
        assert.equal(await lastLabel(page, n), want[n].last, `lane ${n} (${want[n].label}) last message`);
        assert.equal(
          await lane.locator('[data-testid^="message-"]').count(),
          want[n].count,
          `lane ${n} draws every message`,
        );
        await lane.locator(sel(`leaked-locks-${n}`)).waitFor();
      }
      await view.screenshot(`scenario-${id}`);
      assert.deepEqual(view.problems(), []);
    });
  }
});

test('elicitation-unchecked shows the held lock and one leaked lock for the silent drop', T, async () => {
  const view = await openScenario(app, 'elicitation-unchecked');
  const { page } = view;
  await page.keyboard.press('End');
  const lane = 1; // "client drops it silently"
  assert.match(await page.locator(sel(`lane-${lane}`)).locator('h3').innerText(), /drops/);
  assert.equal(await page.locator(sel(`leaked-locks-${lane}`)).getAttribute('data-count'), '1');
  assert.equal(await page.locator(sel('leaked-locks-0')).getAttribute('data-count'), '0');
  assert.equal(await page.locator(sel('leaked-locks-2')).getAttribute('data-count'), '0');
  assert.match(await page.locator(sel(`held-lock-${lane}`)).innerText(), /lock held/);
  assert.equal(await page.locator(sel('held-lock-0')).count(), 0, 'lane 0 released its lock');
  assert.equal(await page.locator(`${sel(`lane-${lane}`)} .mark.host-kill`).count(), 1, 'host kill marker');
  assert.equal(await page.locator(`${sel(`lane-${lane}`)} .mark.dropped`).count(), 1, 'silent drop marker');
  assert.match(await page.locator(sel('clock')).innerText(), /^600\.000 s$/);
});

test('step back then forward reaches the same state', T, async () => {
  const { page } = await openScenario(app, 'era-probe-stdio');
  for (let i = 0; i < 5; i++) await page.locator(sel('step-forward')).click();
  const before = await snapshot(page);
  assert.ok(before.lanes.flat().length > 0);
  await page.locator(sel('step-back')).click();
  const middle = await snapshot(page);
  assert.notDeepEqual(middle, before);
  await page.locator(sel('step-forward')).click();
  assert.deepEqual(await snapshot(page), before);
  // and with the keyboard
  await page.locator('h1').click();
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await snapshot(page), middle);
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await snapshot(page), before);
});

test('the scrubber and the clock follow the playback positions', T, async () => {
  const { page } = await openScenario(app, 'elicitation-unchecked');
  const scrubber = page.locator(sel('scrubber'));
  const max = Number(await scrubber.getAttribute('max'));
  assert.ok(max > 3);
  const scrub = (v) =>
    scrubber.evaluate((el, v) => {
      el.value = v;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, String(v));
  await scrub(max);
  await page.locator(`${sel('player')}[data-state="end"]`).waitFor();
  await scrub(0);
  assert.equal(await page.locator(sel('clock')).innerText(), '0.000 s');
  assert.equal(await page.locator('[data-testid^="message-"]').count(), 0);
});

test('playback runs event by event and the 600 s host kill is reached in seconds', T, async () => {
  const { page } = await openScenario(app, 'elicitation-unchecked');
  await page.selectOption(sel('speed'), { label: '4×' });
  await page.locator(sel('play')).click();
  // Playback follows events, not the virtual clock: 600 s of it end within
  // the wait's bound (a bound against hanging, not a measure of speed).
  await page.locator(`${sel('player')}[data-state="end"]`).waitFor({ timeout: 20_000 });
  assert.match(await page.locator(sel('clock')).innerText(), /^600\.000 s$/);
});

test('the playback load (?scenario=stress): three lanes of 200 messages open and play at 4×', T, async () => {
  // Its frame rate is bench/page/playback.mjs's, never asserted here.
  const view = await openScenario(app, 'stress', { width: 1280, height: 900 });
  const { page } = view;
  assert.equal(await page.locator('[data-testid^="lane-"] h3').count(), 3, 'three lanes');
  await page.selectOption(sel('speed'), { label: '4×' });
  const before = await page.locator(sel('step-count')).innerText();
  await page.locator(sel('play')).click();
  await page.waitForFunction(
    (before) => document.querySelector('[data-testid="step-count"]')?.innerText !== before,
    before,
    { timeout: 10_000 },
  );
  assert.deepEqual(view.problems(), []);
});

test('the inspector shows the exact JSON and the rules of a clicked message', T, async () => {
  const view = await openScenario(app, 'version-retry');
  const { page } = view;
  await page.keyboard.press('End');
  const error = page.locator('[data-testid^="message-"][data-label="-32022"]').first();
  await error.click();
  const inspector = page.locator(sel('inspector'));
  const json = JSON.parse(await inspector.locator(sel('inspector-json')).innerText());
  assert.equal(json.error.code, -32022);
  assert.ok(Array.isArray(json.error.data.supported) && json.error.data.supported.length > 0);
  assert.equal(typeof json.error.data.requested, 'string');
  const rule = inspector.locator('[data-rule="M-VERSION"]');
  assert.equal(await rule.count(), 1, 'M-VERSION is listed');
  assert.match(await rule.innerText(), /-32022/);
  const link = rule.locator('a');
  assert.match(await link.getAttribute('href'), /^https:\/\//);
  assert.equal(await link.getAttribute('target'), '_blank');
  assert.match(await link.getAttribute('rel'), /noopener/);
  assert.match(await inspector.locator(sel('inspector-revision')).innerText(), /2026-07-28/);
  assert.deepEqual(view.problems(), []);
});

test('the inspector shows HTTP status and headers on Streamable HTTP', T, async () => {
  const { page } = await openScenario(app, 'http-header-mismatch');
  await page.keyboard.press('End');
  await page.locator('[data-testid^="message-0-"][data-kind="request"]').first().click();
  const http = page.locator(sel('inspector-http'));
  assert.match(await http.innerText(), /POST/);
  assert.match(await http.innerText(), /MCP-Protocol-Version/i);
  await page.locator('[data-testid^="message-0-"][data-kind="error"]').first().click();
  assert.match(await page.locator(sel('inspector-status')).innerText(), /400/);
});

test('markers are inspectable too, with their note and rules', T, async () => {
  const { page } = await openScenario(app, 'elicitation-unchecked');
  await page.keyboard.press('End');
  await page.locator(`${sel('lane-1')} .mark.host-kill`).click();
  const inspector = page.locator(sel('inspector'));
  assert.match(await inspector.locator(sel('inspector-note')).innerText(), /600 s/);
  assert.ok((await inspector.locator(`${sel('inspector-rules')} li`).count()) >= 1);
  await page.keyboard.press('Escape');
  assert.equal(await inspector.locator(sel('inspector-note')).count(), 0, 'Esc closes the inspector');
});

test('changing a setting re-runs that set-up (plain-vs-rich: elicitation.form on)', T, async () => {
  const view = await openScenario(app, 'plain-vs-rich');
  const { page } = view;
  await page.keyboard.press('End');
  assert.equal(await lastLabel(page, 0), '-32021');
  await page.locator(`${sel('settings-0')} > summary`).click();
  await page.locator(sel('cap-0-elicitation.form')).check();
  await page.waitForFunction(() => {
    const msgs = document.querySelectorAll('[data-testid="lane-0"] [data-testid^="message-"]');
    return msgs.length > 2;
  });
  assert.equal(await lastLabel(page, 0), 'result');
  assert.equal(await page.locator(`${sel('player')}`).getAttribute('data-state'), 'end', 'still at the end');
  assert.equal(await page.locator(sel('modified-0')).count(), 1);
  await page.locator(sel('reset-0')).click();
  assert.equal(await lastLabel(page, 0), '-32021');
  assert.deepEqual(view.problems(), []);
});

test('compare adds a copy of the set-up with one setting changed, side by side', T, async () => {
  const view = await openScenario(app, 'plain-vs-rich');
  const { page } = view;
  await page.keyboard.press('End');
  await page.locator(`${sel('settings-0')} > summary`).click();
  await page.locator(sel('compare-0')).click();
  assert.equal(await page.locator(sel('compare-0')).getAttribute('aria-pressed'), 'true');
  // click, not check(): the original's checkbox rightly stays unticked
  await page.locator(sel('cap-0-elicitation.form')).click();
  await page.locator(sel('lane-2')).waitFor();
  assert.equal(await page.locator(sel('lane-1')).locator('h3').innerText(), 'plain client · elicitation.form on');
  assert.equal(await lastLabel(page, 0), '-32021', 'the original is unchanged');
  assert.equal(await page.locator(sel('cap-0-elicitation.form')).isChecked(), false);
  assert.equal(await lastLabel(page, 1), 'result');
  assert.equal(await page.locator(sel('lane-2')).locator('h3').innerText(), 'rich client');
  await view.screenshot('compare-plain-vs-rich');
  await page.locator(sel('remove-1')).click();
  assert.equal(await page.locator('[data-testid^="lane-"]').count(), 2);
});

test('keyboard only: Tab to play, Space, arrows, ? opens help, Esc closes it', T, async () => {
  const { page } = await openScenario(app, 'capability-per-request');
  let focused = null;
  for (let i = 0; i < 60 && focused !== 'play'; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement?.dataset?.testid ?? null);
  }
  assert.equal(focused, 'play', 'Tab reaches the play button');
  await page.keyboard.press('Space');
  await page.locator(`${sel('player')}[data-state="playing"]`).waitFor();
  await page.keyboard.press('Space');
  await page.locator(`${sel('player')}:not([data-state="playing"])`).waitFor();
  await page.keyboard.press('Home');
  assert.equal(await page.locator(sel('clock')).innerText(), '0.000 s');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator(sel('step-count')).innerText(), '2/' + (await page.locator(sel('scrubber')).getAttribute('max')));
  await page.keyboard.press('ArrowLeft');
  assert.match(await page.locator(sel('step-count')).innerText(), /^1\//);
  await page.keyboard.press('+');
  assert.equal(await page.locator(sel('speed')).inputValue(), '3');
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  assert.equal(await page.locator(sel('speed')).inputValue(), '1');
  await page.keyboard.press('?');
  const dialog = page.locator(`${sel('help-dialog')}[open]`);
  await dialog.waitFor();
  assert.ok(await page.evaluate(() => document.activeElement?.closest('dialog') !== null), 'focus moves into the help');
  assert.match(await dialog.innerText(), /Space/);
  await page.keyboard.press('ArrowRight'); // shortcuts are off while the help is open
  assert.match(await page.locator(sel('step-count')).innerText(), /^1\//);
  await page.keyboard.press('Escape');
  await page.locator(`${sel('help-dialog')}:not([open])`).waitFor({ state: 'attached' });
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'play', 'focus returns');
  // a message is reachable and inspectable from the keyboard
  await page.keyboard.press('End');
  await page.locator('[data-testid="message-0-0"]').focus();
  await page.keyboard.press('Enter');
  assert.match(await page.locator(sel('inspector-json')).innerText(), /"method": "tools\/call"/);
});

test('shortcuts do not fire while typing in a field', T, async () => {
  const { page } = await openScenario(app, 'plain-vs-rich');
  await page.locator(`${sel('settings-0')} > summary`).click();
  await page.locator(sel('client-era-0')).focus();
  await page.keyboard.press('End');
  await page.keyboard.press(' ');
  assert.notEqual(await page.locator(sel('player')).getAttribute('data-state'), 'end');
  assert.notEqual(await page.locator(sel('player')).getAttribute('data-state'), 'playing');
});

test('envelopes animate along arrows, and not at all with reduced motion', T, async () => {
  const moving = await openScenario(app, 'discover');
  await moving.page.locator(sel('step-forward')).click();
  const running = await moving.page.evaluate(
    () => document.getAnimations().filter((a) => a.effect?.target?.closest?.('.envelope')).length,
  );
  assert.ok(running > 0, 'an envelope travels');

  await moving.page.emulateMedia({ reducedMotion: 'reduce' });
  await moving.page.locator(sel('step-forward')).click();
  const still = await moving.page.evaluate(() => ({
    animations: document.getAnimations().filter((a) => a.effect?.target?.closest?.('.envelope')).length,
    envelopes: document.querySelectorAll('.envelope').length,
    name: [...document.querySelectorAll('.envelope')].map((e) => getComputedStyle(e).animationName),
    transitions: [...document.querySelectorAll('.envelope')].map((e) => getComputedStyle(e).transitionDuration),
  }));
  assert.ok(still.envelopes > 0, 'the envelope is still drawn, at its destination');
  assert.equal(still.animations, 0);
  assert.ok(still.name.every((n) => n === 'none'));
  assert.ok(still.transitions.every((d) => d === '0s'));
});

for (const theme of ['light', 'dark']) {
  test(`${theme} theme: text contrast meets WCAG AA`, T, async () => {
    const view = await openScenario(app, 'elicitation-unchecked', {});
    const { page } = view;
    await page.emulateMedia({ colorScheme: theme });
    await page.keyboard.press('End');
    await page.locator('[data-testid^="message-"]').first().click();
    const pairs = await page.evaluate(() => {
      const surface = getComputedStyle(document.querySelector('.lane')).backgroundColor;
      const pageBg = getComputedStyle(document.body).backgroundColor;
      const out = [];
      const add = (selector, bg, prop = 'color') => {
        for (const el of [...document.querySelectorAll(selector)].slice(0, 3)) {
          out.push({ selector, fg: getComputedStyle(el)[prop], bg });
        }
      };
      add('body', pageBg);
      add('.summary', pageBg);
      add('.tagline', pageBg);
      add('.picker-summary', surface);
      add('.peers', surface);
      add('.lane-svg .chip.request text', surface, 'fill');
      add('.lane-svg .chip.result text', surface, 'fill');
      add('.lane-svg .chip.error text', surface, 'fill');
      add('.lane-svg .chip.notification text', surface, 'fill');
      add('.lane-svg .mark text', surface, 'fill');
      add('.lane-svg .gap text', surface, 'fill');
      add('.lane-svg .transport-text', surface, 'fill');
      add('.held-lock', surface);
      add('.leaked.has-leak', surface);
      add('.outcome', surface);
      add('.rule-id', surface);
      add('.facts dt', surface);
      add('button.primary', getComputedStyle(document.querySelector('button.primary')).backgroundColor);
      add('.settings > summary', surface);
      return out;
    });
    assert.ok(pairs.length > 15);
    for (const { selector, fg, bg } of pairs) {
      const ratio = contrast(fg, bg);
      assert.ok(ratio >= 4.5, `${theme}: ${selector} ${fg} on ${bg} is ${ratio.toFixed(2)}:1`);
    }
    await view.screenshot(`theme-${theme}-1280`);
  });
}

test('the theme toggle switches and remembers the theme', T, async () => {
  const { page } = await openScenario(app, 'discover');
  await page.emulateMedia({ colorScheme: 'light' });
  const toggle = page.locator(sel('theme-toggle'));
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  await page.reload();
  await ready(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.locator(sel('theme-toggle')).click();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  await page.evaluate(() => localStorage.clear());
});

describe('a 360 px wide screen', () => {
  let narrow;
  before(async () => {
    narrow = await startApp({ viewport: { width: 360, height: 740 } });
  });
  after(async () => {
    await narrow?.close();
  });

  for (const [id, theme] of [
    ['era-probe-stdio', 'light'],
    ['elicitation-unchecked', 'dark'],
    ['version-retry', 'dark'],
    ['discover', 'light'],
  ]) {
    test(`${id} (${theme}): no page overflow except inside the lanes scroller`, T, async () => {
      const view = await openScenario(narrow, id);
      const { page } = view;
      await page.emulateMedia({ colorScheme: theme });
      await page.keyboard.press('End');
      await page.locator('[data-testid^="message-"]').first().click();
      const m = await page.evaluate(() => {
        const scroller = document.querySelector('[data-testid="lanes"]');
        return {
          page: document.documentElement.scrollWidth,
          body: document.body.scrollWidth,
          viewport: window.innerWidth,
          scroller: scroller.clientWidth,
          lanes: scroller.scrollWidth,
          count: document.querySelectorAll('[data-testid^="lane-"]').length,
        };
      });
      assert.ok(m.page <= m.viewport, `page is ${m.page}px wide in a ${m.viewport}px viewport`);
      assert.ok(m.body <= m.viewport);
      assert.ok(m.scroller <= m.viewport);
      if (m.count > 1) {
        assert.ok(m.lanes > m.scroller, 'the other lanes are reachable by scrolling');
        assert.equal(await page.locator(sel('scroll-hint')).isVisible(), true, 'the scroller says so');
      }
      await view.screenshot(`narrow-360-${theme}-${id}`);
      assert.deepEqual(view.problems(), []);
    });
  }
});

test('?embed=1 drops the page chrome and keeps the figure', T, async () => {
  const view = await openScenario(app, 'plain-vs-rich&embed=1');
  const { page } = view;
  assert.equal(await page.locator('.app-header').isVisible(), false);
  assert.equal(await page.locator(sel('scenario-picker')).isVisible(), false);
  assert.equal(await page.locator(sel('lane-1')).isVisible(), true);
  assert.equal(await page.locator(sel('player')).isVisible(), true);
  assert.deepEqual(view.problems(), []);
});

test('focused messages and controls show a visible focus ring', T, async () => {
  const view = await openScenario(app, 'capability-per-request');
  const { page } = view;
  await page.keyboard.press('End');
  await page.locator(sel('message-0-0')).focus();
  await page.keyboard.press('Tab');
  const ring = await page.evaluate(() => {
    const hit = document.activeElement?.querySelector('.hit');
    return hit ? { stroke: getComputedStyle(hit).stroke, width: getComputedStyle(hit).strokeWidth } : null;
  });
  assert.ok(ring && ring.stroke !== 'none' && parseFloat(ring.width) >= 2, `focus ring on the arrow: ${JSON.stringify(ring)}`);
  await view.screenshot('focus-ring-message');
  await page.locator(sel('play')).focus();
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(outline, 'solid');
});
