// Languages (README, "Languages"): every scenario in every catalog's
// language, chosen by `?lang=` (page and iframe figure) and by a course
// page's `<html lang>` (script figures); MCP terms stay as they are; a
// missing language falls back to English; and the layout holds at 360 px
// in the language with the longest text.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, englishRun, openEditor, startApp } from './harness.mjs';

const T = { timeout: 240_000 };
const I18N = path.join(REPO_ROOT, 'www', 'i18n');
const read = (name) => JSON.parse(readFileSync(path.join(I18N, name), 'utf8'));
/** A language's whole catalog: `<tag>.json` and its rules, `<tag>.rules.json`. */
const catalog = (tag) => ({ ...read(`${tag}.json`), ...read(`${tag}.rules.json`) });
/** A language's notes' templates and set-up labels (`<tag>.notes.json`). */
const notes = (tag) => read(`${tag}.notes.json`);
/** A server's own words in the recorded runs (its instructions, an error's
 * message): shown as they are, whatever the page's language. */
const serversWords = (() => {
  const out = new Set();
  const walk = (m) => {
    if (Array.isArray(m)) m.forEach(walk);
    else if (m && typeof m === 'object')
      for (const [name, arg] of Object.entries(m.args ?? {})) {
        if (typeof arg === 'string' && (name === 'instructions' || name === 'message')) out.add(arg);
        else walk(arg);
      }
  };
  const dir = path.join(REPO_ROOT, 'www', 'timelines');
  for (const f of readdirSync(dir)) for (const t of JSON.parse(readFileSync(path.join(dir, f), 'utf8'))) for (const e of t.events) walk(e.note_msg);
  return [...out].sort((a, b) => b.length - a.length);
})();
const LANGS = JSON.parse(readFileSync(path.join(I18N, 'languages.json'), 'utf8')).languages.map((l) => l.tag);
const en = catalog('en');
const SCENARIOS = Object.keys(en)
  .filter((k) => /^scenario\..*\.title$/.test(k))
  .map((k) => k.slice('scenario.'.length, -'.title'.length));
const sel = (id) => `[data-testid="${id}"]`;

let app;
const hosts = new Map();
before(async () => {
  app = await startApp();
  await app.context.route('**/__host/*', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop();
    const body = hosts.get(name);
    return body === undefined
      ? route.fulfill({ status: 404, body: 'no such host page' })
      : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
  });
});
after(async () => {
  await app?.close();
});

/** What the page shows of the chrome, for comparing with a catalog. */
async function chrome(page, root = 'document') {
  return page.evaluate((root) => {
    const scope = root === 'document' ? document : document.getElementById(root).shadowRoot;
    const text = (s) => scope.querySelector(s)?.textContent.trim() ?? null;
    return {
      title: text('[data-testid="scenario-title"]'),
      summary: text('.intro .summary'),
      play: text('[data-testid="play"] .button-text'),
      speed: text('label[for="speed"]'),
      narration: text('[data-testid="narration"]'),
      inspector: text('#inspector-heading'),
    };
  }, root);
}

for (const tag of LANGS) {
  describe(`?lang=${tag}`, () => {
    const c = catalog(tag);
    test(`the page shows every scenario in ${tag}`, T, async () => {
      const view = await app.open(`/?lang=${tag}&scenario=${SCENARIOS[0]}`);
      const { page } = view;
      for (const [i, id] of SCENARIOS.entries()) {
        if (i > 0) {
          const picker = page.locator(sel('scenario-picker'));
          if (!(await picker.evaluate((d) => d.open))) await picker.locator('> summary').click();
          await page.click(sel(`scenario-${id}`));
        }
        await page.waitForSelector(`${sel('scenario-title')}[data-scenario="${id}"]`, { timeout: 30_000 });
        const shown = await chrome(page);
        assert.equal(shown.title, `${i + 1}. ${c[`scenario.${id}.title`]}`, id);
        assert.equal(shown.summary, c[`scenario.${id}.summary`], id);
        assert.equal(shown.play, c['player.play']);
        assert.equal(shown.speed, c['player.speed']);
        assert.equal(shown.inspector, c['inspector.title']);
        assert.equal(shown.narration, c['narration.ready']);
      }
      assert.equal(await page.evaluate(() => document.documentElement.lang), tag);
      // The inspector's rules in the language (fetched when first shown),
      // their ids as they are.
      await page.keyboard.press('End');
      await page.locator(`${sel('lane-0')} .msg`).first().click();
      await page.waitForFunction(
        () => document.querySelector('[data-testid="inspector-rules"] .rule-summary')?.textContent.length > 0,
        null,
        { timeout: 30_000 },
      );
      const rule = await page.locator(`${sel('inspector-rules')} li`).first();
      const id = await rule.getAttribute('data-rule');
      assert.equal(await rule.locator('.rule-id').innerText(), id);
      const summary = await rule.locator('.rule-summary').innerText();
      assert.equal(summary, c[`rule.${id}`].replace(/`/g, ''), id);
      await view.screenshot(`i18n-page-${tag}`);
      assert.deepEqual(view.problems(), []);
    });

    if (tag !== 'en') test(`every scenario's narration, notes and set-up labels are in ${tag}`, T, async () => {
      const n = notes(tag);
      const view = await app.open(`/?lang=${tag}&scenario=${SCENARIOS[0]}`);
      const { page } = view;
      const problems = [];
      for (const [i, id] of SCENARIOS.entries()) {
        if (i > 0) {
          const picker = page.locator(sel('scenario-picker'));
          if (!(await picker.evaluate((d) => d.open))) await picker.locator('> summary').click();
          await page.click(sel(`scenario-${id}`));
        }
        await page.waitForSelector(`${sel('scenario-title')}[data-scenario="${id}"]`, { timeout: 30_000 });
        await page.keyboard.press('End');
        await page.waitForFunction(() => document.querySelectorAll('.lane .msg').length > 0, null, { timeout: 30_000 });
        // Every event's note (each message's and marker's tooltip), the
        // narration at the end and the lane titles.
        const shown = await page.evaluate(() => ({
          notes: [...document.querySelectorAll('.lane g[data-testid] > title')].map((t) => t.textContent),
          narration: document.querySelector('[data-testid="narration"]')?.textContent ?? '',
          lanes: [...document.querySelectorAll('.lane-title')].map((h) => h.textContent),
          peers: [...document.querySelectorAll('.lane .peer')].map((p) => p.textContent),
        }));
        if (shown.notes.length === 0) problems.push(`${id}: no notes shown`);
        for (const text of [...shown.notes, shown.narration]) {
          let t = text;
          for (const w of serversWords) t = t.split(w).join('');
          const run = englishRun(t);
          if (run) problems.push(`${id}: English "${run}" in ${JSON.stringify(text)}`);
        }
        for (const lane of shown.lanes) {
          if (!Object.values(n).includes(lane)) problems.push(`${id}: lane title ${JSON.stringify(lane)} is not a ${tag} set-up label`);
        }
        for (const peer of shown.peers) {
          if (/\((modern-only|legacy-only|dual-era)\)/.test(peer)) problems.push(`${id}: era label left in English: ${peer}`);
        }
        // MCP terms stay as they are.
        if (id === 'discover' && !shown.notes.some((t) => t.includes('server/discover'))) problems.push('discover: server/discover is gone from its notes');
      }
      // The inspector's note of a message, in the language.
      await page.locator(`${sel('lane-0')} .msg`).first().click();
      const note = await page.locator(sel('inspector-note')).innerText();
      if (englishRun(note)) problems.push(`inspector: ${note}`);
      await view.screenshot(`i18n-notes-${tag}`);
      assert.deepEqual(problems, []);
      assert.deepEqual(view.problems(), []);
    });

    if (tag !== 'en') test(`the request editor's own text is in ${tag}`, T, async () => {
      const view = await openEditor(app, `/?lang=${tag}&scenario=discover`);
      const { page } = view;
      await page.locator(sel('send')).click();
      await page.locator(`${sel('reply')}[data-index="0"]`).waitFor({ timeout: 10_000 });
      // The editor's labels, buttons, hints and reply pane, without what is
      // protocol text (the request, the reply's JSON, method and preset
      // names) or a server's own words.
      const shown = await page.evaluate(() => {
        const root = document.querySelector('[data-testid="editor"]').cloneNode(true);
        for (const el of root.querySelectorAll('textarea, pre, code, option, .mono, .wire, .rule-id, .rule-summary, .lane')) el.remove();
        const labels = [...document.querySelectorAll('[data-testid="editor"] [aria-label]')].map((el) => el.getAttribute('aria-label'));
        return [root.textContent, ...labels];
      });
      const problems = [];
      for (const text of shown) {
        let t = text;
        for (const w of serversWords) t = t.split(w).join('');
        const run = englishRun(t);
        if (run) problems.push(`English "${run}"`);
      }
      await view.screenshot(`i18n-editor-${tag}`);
      assert.deepEqual(problems, []);
      assert.deepEqual(view.problems(), []);
    });

    if (tag !== 'en') test(`the request editor's lint messages are in ${tag}`, T, async () => {
      const view = await openEditor(app, `/?lang=${tag}&scenario=discover`);
      const { page } = view;
      const text = page.locator(sel('editor-text'));
      // What the core says of a text, beside the path (code) and rule id:
      // schema warnings, a parse problem, a refusal.
      const said = async (selector) =>
        page.evaluate((selector) => {
          const el = document.querySelector(selector)?.cloneNode(true);
          if (!el) return null;
          for (const c of el.querySelectorAll('code, .rule-id')) c.remove();
          return el.textContent;
        }, selector);
      const cases = [
        [JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 3 } }), sel('editor-warnings')],
        [JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'initialize', params: {} }), sel('editor-warnings')],
        [JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } }), sel('editor-warnings')],
        ['{"jsonrpc": "2.0", "id": 1,', sel('parse-problem')],
        ['['.repeat(200), sel('editor-refusal')],
      ];
      const problems = [];
      let before = null;
      for (const [request, where] of cases) {
        await text.fill(request);
        // The lint follows the text: wait for this text's words.
        await page.waitForFunction(
          ([where, before]) => {
            const el = document.querySelector(where);
            return el && el.textContent !== before;
          },
          [where, before],
          { timeout: 10_000 },
        );
        const shown = await said(where);
        before = await page.evaluate((where) => document.querySelector(where).textContent, where);
        const run = englishRun(shown ?? '');
        if (run) problems.push(`${request.slice(0, 40)}: English "${run}" in ${JSON.stringify(shown)}`);
      }
      await view.screenshot(`i18n-editor-lint-${tag}`);
      assert.deepEqual(problems, []);
      assert.deepEqual(view.problems(), []);
    });

    if (tag !== 'en') test(`a lane's settings and a compared lane's label are in ${tag}`, T, async () => {
      const labels = notes(tag);
      const view = await app.open(`/?lang=${tag}&scenario=plain-vs-rich`);
      const { page } = view;
      await page.locator(`${sel('settings-0')} > summary`).waitFor({ timeout: 30_000 });
      await page.locator(`${sel('settings-0')} > summary`).click();
      await page.locator(sel('compare-0')).waitFor({ timeout: 30_000 });
      // The eras' and policies' names in the selects (their values stay the
      // core's words).
      const options = await page.evaluate(() =>
        ['client-era-0', 'undeclared-0', 'server-era-0'].flatMap((id) =>
          [...document.querySelectorAll(`[data-testid="${id}"] option`)].map((o) => [o.value, o.textContent]),
        ),
      );
      assert.equal(options.length, 9);
      for (const [value, text] of options) assert.equal(text, labels[`label.${value}`], value);
      await page.locator(sel('compare-0')).click();
      await page.locator(sel('cap-0-elicitation.form')).click();
      await page.locator(sel('lane-2')).waitFor({ timeout: 30_000 });
      const said = c['settings.change.on'].replace('{capability}', 'elicitation.form');
      assert.equal(await page.locator(sel('lane-1')).locator('h3').innerText(), `${labels['label.plain client']} · ${said}`);
      await view.screenshot(`i18n-compare-${tag}`);
      assert.deepEqual(view.problems(), []);
    });

    if (tag !== 'en') test(`a graded run's verdicts are in ${tag}`, T, async () => {
      // A client run recorded against `serve --preset deploy-console`,
      // graded in the page: what each rule expected, and the rules nothing
      // exercised, in the language (a server's own words stay as they are).
      const runs = readFileSync(path.join(REPO_ROOT, 'tests/e2e/fixtures/client-run.json'));
      const view = await app.open(`/?lang=${tag}&scenario=discover`);
      const { page } = view;
      await page.locator(sel('check-toggle')).waitFor({ timeout: 30_000 });
      await page.locator(sel('check-toggle')).click();
      await page.locator(sel('check-file')).waitFor({ state: 'attached', timeout: 30_000 });
      await page.locator(sel('check-file')).setInputFiles({ name: 'client-run.json', mimeType: 'application/json', buffer: runs });
      await page.locator(sel('check-summary')).waitFor({ timeout: 10_000 });
      await page.locator(sel('jump-end')).click();
      const problems = [];
      const english = (where, text) => {
        const run = englishRun(text);
        if (run) problems.push(`${where}: English "${run}" in ${JSON.stringify(text)}`);
      };
      const marks = await page.locator('[data-testid^="verdict-0-"]').evaluateAll((gs) => gs.map((g) => g.dataset.testid.split('-').pop()));
      assert.ok(marks.length > 0, 'judged messages');
      for (const index of marks) {
        await page.locator(sel(`message-0-${index}`)).click();
        await page.locator(`${sel('inspector-verdicts')} li`).first().waitFor();
        const expected = await page.locator(`${sel('inspector-verdicts')} dd:nth-of-type(1)`).allInnerTexts();
        for (const text of expected) english(`message ${index}`, text);
      }
      await page.locator(`${sel('check-rules')} summary`).click();
      for (const text of await page.locator(`${sel('check-rules')} .whole-run li`).allInnerTexts()) english('whole run', text);
      await view.screenshot(`i18n-check-${tag}`);
      assert.deepEqual(problems, []);
      assert.deepEqual(view.problems(), []);
    });

    test(`an iframe figure in ${tag}`, T, async () => {
      const view = await app.open(`/?embed=1&lang=${tag}&scenario=plain-vs-rich`);
      await view.page.waitForSelector(sel('player'), { timeout: 30_000 });
      const shown = await chrome(view.page);
      assert.equal(shown.title, c['scenario.plain-vs-rich.title']);
      assert.equal(await view.page.evaluate(() => document.documentElement.lang), tag);
      assert.deepEqual(view.problems(), []);
    });
  });
}

describe('a course page with <html lang="zh">', () => {
  const zh = catalog('zh');
  test('its script figures show every scenario in Chinese, MCP terms untouched', T, async () => {
    const figures = SCENARIOS.map((id) => `<div id="fig-${id}"></div>`).join('');
    const script = SCENARIOS.map((id) => `McpLanes.mount(document.getElementById('fig-${id}'), {scenario: '${id}'});`).join('');
    hosts.set(
      'course-zh',
      `<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>课程</title><link rel="icon" href="data:,"></head>` +
        `<body><main>${figures}</main><script src="/embed.js"></script><script>${script}</script></body></html>`,
    );
    const view = await app.open('/__host/course-zh');
    const { page } = view;
    for (const id of SCENARIOS) {
      await page.locator(`#fig-${id} ${sel('player')}`).waitFor({ timeout: 60_000 });
      const shown = await chrome(page, `fig-${id}`);
      assert.equal(shown.title, zh[`scenario.${id}.title`], id);
      assert.equal(shown.play, zh['player.play'], id);
      const lang = await page.evaluate((id) => document.getElementById(`fig-${id}`).shadowRoot.querySelector('[lang]')?.lang, id);
      assert.equal(lang, 'zh', id);
    }
    // MCP terms stay as they are: method names in lanes, rule ids.
    await page.locator(`#fig-discover ${sel('jump-end')}`).click();
    await page.waitForFunction(() => document.getElementById('fig-discover').shadowRoot.querySelectorAll('.msg').length > 0);
    const labels = await page.evaluate(() =>
      [...document.getElementById('fig-discover').shadowRoot.querySelectorAll('.msg')].map((m) => m.getAttribute('aria-label')),
    );
    assert.ok(labels.some((l) => l.includes('server/discover')), labels.join('\n'));
    await view.screenshot('i18n-course-zh');
    assert.deepEqual(view.problems(), []);
  });

  test('an explicit lang option wins over the page, and an unknown language falls back to English', T, async () => {
    hosts.set(
      'course-mixed',
      `<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>x</title><link rel="icon" href="data:,"></head>` +
        `<body><div id="a"></div><script src="/embed.js"></script>` +
        `<script>McpLanes.mount(document.getElementById('a'), {scenario: 'discover', lang: 'en'});</script></body></html>`,
    );
    const view = await app.open('/__host/course-mixed');
    await view.page.locator(`#a ${sel('player')}`).waitFor({ timeout: 60_000 });
    assert.equal((await chrome(view.page, 'a')).play, en['player.play']);
    const fr = await app.open('/?lang=fr&scenario=discover');
    await fr.page.waitForSelector(sel('player'), { timeout: 30_000 });
    assert.equal((await chrome(fr.page)).play, en['player.play']);
    assert.equal(await fr.page.evaluate(() => document.documentElement.lang), 'en');
    assert.deepEqual([...view.problems(), ...fr.problems()], []);
  });
});

describe('layout at 360 px', () => {
  // The language whose chrome is widest: by characters, counting a CJK
  // character as two columns.
  const width = (s) => [...s].reduce((n, ch) => n + (ch.codePointAt(0) > 0x2e80 ? 2 : 1), 0);
  const total = (tag) => Object.entries(catalog(tag)).filter(([k]) => !k.startsWith('rule.')).reduce((n, [, v]) => n + width(v), 0);
  const longest = LANGS.reduce((a, b) => (total(b) > total(a) ? b : a));

  // Every language, the longest (by columns) named.
  for (const tag of LANGS) test(`the page holds at 360 px in ${tag}${tag === longest ? ', the longest language' : ''}`, T, async () => {
    const page = await app.context.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${app.url}/?lang=${tag}&scenario=compatibility-matrix`);
    await page.waitForSelector(sel('player'), { timeout: 30_000 });
    const geometry = await page.evaluate(() => {
      const over = [];
      for (const el of document.querySelectorAll('.app-header *, .intro *, .player *, .narration, .inspector *')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5)) over.push(`${el.tagName}.${el.className} ${r.left}..${r.right}`);
      }
      return { scroll: document.documentElement.scrollWidth, width: innerWidth, over };
    });
    assert.ok(geometry.scroll <= geometry.width, `the page scrolls sideways: ${geometry.scroll} > ${geometry.width}`);
    assert.deepEqual(geometry.over, [], 'nothing sticks out of the viewport');
    await page.screenshot({ path: path.join(REPO_ROOT, 'tests', 'e2e', 'artifacts', `i18n-360-${tag}.png`), fullPage: true });
    await page.close();
  });
});
