// Issue 26 (learners), items 1, 2 and 7:
// 1. the figure first: at 1280x800 and 360x740, every way of opening a
//    scenario (cold `/`, a card clicked, Enter on a card, `?scenario=`,
//    `?scenario-url=`, back and forward; on the drawn page and in the
//    bundles) shows its title, Play and the first lane on the first
//    screen, with the picker folded into its menu;
// 2. one language per figure: a course page with figures in two languages
//    (built-in and scenario-file, valid and invalid), mounted in both
//    orders, each in its own language;
// 7. an iframe figure out of view takes its height; the check panel's
//    S-SCHEMA verdicts and file button in Chinese; a relative scenario URL
//    resolves against the course page and an error names the whole URL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARTIFACTS_DIR, REPO_ROOT, startApp, startStaticServer } from './harness.mjs';

const T = { timeout: 120_000 };
const sel = (id) => `[data-testid="${id}"]`;
const SIZES = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 360, height: 740 }],
];
const catalog = async (tag) => JSON.parse(await readFile(path.join(REPO_ROOT, `www/i18n/${tag}.json`), 'utf8'));
const CJK = /[\u4e00-\u9fff]/;

let apps = {};
let weather;
let en;
let zh;
// Files and pages served on the app's origin under /__files/NAME.
const files = new Map();
function serve(name, body) {
  files.set(name, typeof body === 'string' ? body : JSON.stringify(body));
  return `/__files/${name}`;
}
/** A course page: `body`, embed.js, then `script` (served as a file). */
function course(name, body, script = '', lang = 'en') {
  return serve(
    name,
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${name}</title>` +
      `<link rel="icon" href="data:,"></head><body>${body}` +
      `<script src="/embed.js"></script><script>${script}</script></body></html>`,
  );
}

before(async () => {
  weather = JSON.parse(await readFile(path.join(REPO_ROOT, 'www/scenarios/weather-forecast.json'), 'utf8'));
  [en, zh] = await Promise.all([catalog('en'), catalog('zh')]);
  for (const [name, viewport] of SIZES) {
    const app = await startApp({ viewport });
    await app.context.route('**/__files/**', (route) => {
      const name = new URL(route.request().url()).pathname.split('/').pop();
      const body = files.get(name);
      if (body === undefined) return route.fulfill({ status: 404, body: 'no such file' });
      const contentType = name.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/json';
      return route.fulfill({ status: 200, contentType, body });
    });
    apps[name] = app;
  }
});
after(async () => {
  for (const app of Object.values(apps)) await app.close();
});

/** A screenshot of what the window shows (not the whole page). */
async function firstScreen(page, name) {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
}

/** Waits for the page's scenario `id` (null: any) to be drawn and ready. */
async function ready(page, id) {
  await page.waitForFunction(
    (id) => {
      const root = document.querySelector('.app-root');
      const title = root?.querySelector('[data-testid="scenario-title"]');
      const drawn = root && (root.hasAttribute('data-ready') || !root.hasAttribute('data-static'));
      return drawn && title && (id === null || title.dataset.scenario === id) && root.querySelector('[data-testid="lane-0"]');
    },
    id,
    { timeout: 30_000 },
  );
  await page.waitForTimeout(150);
}

/** The title, Play and the first lane are on the screen; the picker is folded. */
async function figureFirst(page, viewport, what) {
  const boxes = {};
  for (const id of ['scenario-title', 'play', 'lane-0']) boxes[id] = await page.locator(sel(id)).first().boundingBox();
  for (const id of ['scenario-title', 'play']) {
    const b = boxes[id];
    assert.ok(b, `${what}: ${id} is drawn`);
    assert.ok(b.y >= 0 && b.y + b.height <= viewport.height && b.x >= 0 && b.x + b.width <= viewport.width, `${what}: ${id} on the first screen (${JSON.stringify(b)})`);
  }
  const lane = boxes['lane-0'];
  assert.ok(lane && lane.y >= 0 && lane.y + 40 <= viewport.height, `${what}: the first lane starts on the first screen (${JSON.stringify(lane)})`);
  assert.equal(await page.locator(sel('scenario-picker')).evaluate((d) => d.open), false, `${what}: the picker is folded`);
  // The menu keeps its title: what is open.
  const title = await page.locator(sel('scenario-title')).innerText();
  assert.ok((await page.locator(`${sel('scenario-picker')} > summary`).innerText()).includes(title.replace(/^\d+\. /, '')), `${what}: the menu names what is open`);
}

/** Opens the picker's menu, finds `words` with its search and opens the first card with Enter. */
async function search(page, words, id) {
  await page.locator(`${sel('scenario-picker')} > summary`).click();
  const box = page.locator(sel('picker-search'));
  await box.fill(words);
  const shown = await page.locator(`${sel('scenario-picker')} li:not([hidden])`).count();
  assert.ok(shown >= 1 && shown < 20, `the search "${words}" shows ${shown} cards`);
  assert.equal(await page.locator(`${sel('scenario-picker')} li:not([hidden]) a`).first().getAttribute('data-arg'), id);
  await box.press('Enter');
}

/** Opens the picker's menu and picks `id` with a click or with Enter. */
async function pick(page, id, how) {
  await page.locator(`${sel('scenario-picker')} > summary`).click();
  const card = page.locator(sel(`scenario-${id}`));
  await card.waitFor({ state: 'visible' });
  if (how === 'click') await card.click();
  else {
    await card.focus();
    await page.keyboard.press('Enter');
  }
}

describe('1. the figure first', () => {
  for (const [size, viewport] of SIZES) {
    test(`${size}: every way of opening a scenario shows its title, Play and lanes first`, T, async () => {
      const app = apps[size];
      const problems = [];
      const check = async (view, what) => {
        await figureFirst(view.page, viewport, what);
        problems.push(...view.problems());
      };
      // Cold `/` (the drawn page).
      const cold = await app.open('/');
      await ready(cold.page, 'discover');
      await check(cold, 'cold /');
      await firstScreen(cold.page, `figure-first-cold-${size}`);
      // A card clicked, then Enter on another (the drawn page).
      await cold.page.evaluate(() => scrollTo(0, document.body.scrollHeight));
      await pick(cold.page, 'plain-vs-rich', 'click');
      await ready(cold.page, 'plain-vs-rich');
      await check(cold, 'card clicked');
      await firstScreen(cold.page, `figure-first-card-${size}`);
      await pick(cold.page, 'version-retry', 'enter');
      await ready(cold.page, 'version-retry');
      await check(cold, 'Enter on a card');
      assert.equal(await cold.page.evaluate(() => document.activeElement?.matches('[data-testid="scenario-picker"] > summary')), true, 'the menu keeps focus');
      // The menu works from the keyboard: Enter unfolds it.
      await cold.page.keyboard.press('Enter');
      assert.equal(await cold.page.locator(sel('scenario-picker')).evaluate((d) => d.open), true, 'Enter unfolds the menu');
      await cold.page.keyboard.press('Enter');
      // Back and forward.
      await cold.page.goBack();
      await ready(cold.page, 'plain-vs-rich');
      await check(cold, 'back');
      await cold.page.goForward();
      await ready(cold.page, 'version-retry');
      await check(cold, 'forward');
      // The menu's search: words that find nothing say so; Enter opens the first found.
      await cold.page.locator(`${sel('scenario-picker')} > summary`).click();
      await cold.page.locator(sel('picker-search')).fill('no such words here');
      assert.equal(await cold.page.locator(sel('picker-none')).isVisible(), true, 'nothing found: said');
      await cold.page.locator(`${sel('scenario-picker')} > summary`).click();
      await search(cold.page, 'legacy handshake', 'legacy-handshake');
      await ready(cold.page, 'legacy-handshake');
      await check(cold, 'the search, Enter');
      // ?scenario= (the drawn page).
      const linked = await app.open('/?scenario=legacy-handshake');
      await ready(linked.page, 'legacy-handshake');
      await check(linked, '?scenario=');
      // ?scenario-url= (the full bundle), then a card and back in it.
      const url = serve(`weather-${size}.json`, weather);
      const file = await app.open(`/?scenario-url=${encodeURIComponent(url)}`);
      await ready(file.page, null);
      await check(file, '?scenario-url=');
      await firstScreen(file.page, `figure-first-scenario-url-${size}`);
      await file.page.evaluate(() => scrollTo(0, document.body.scrollHeight));
      await pick(file.page, 'discover', 'click');
      await ready(file.page, 'discover');
      await check(file, 'card clicked in the full bundle');
      await pick(file.page, 'plain-vs-rich', 'enter');
      await ready(file.page, 'plain-vs-rich');
      await check(file, 'Enter on a card in the full bundle');
      await file.page.goBack();
      await ready(file.page, 'discover');
      await check(file, 'back in the full bundle');
      await search(file.page, 'version retry', 'version-retry');
      await ready(file.page, 'version-retry');
      await check(file, 'the search in the full bundle');
      await file.page.locator(`${sel('scenario-picker')} > summary`).click();
      await firstScreen(file.page, `figure-first-menu-open-${size}`);
      await file.page.locator(`${sel('scenario-picker')} > summary`).click();
      // The lite bundle (a figure option figure.js does not read).
      const lite = await app.open('/?scenario=discover&lang=zh');
      await ready(lite.page, 'discover');
      await check(lite, '?lang=zh');
      await firstScreen(lite.page, `figure-first-zh-${size}`);
      await pick(lite.page, 'plain-vs-rich', 'click');
      await ready(lite.page, 'plain-vs-rich');
      await check(lite, 'card clicked in Chinese');
      await firstScreen(lite.page, `figure-first-card-zh-${size}`);
      await lite.page.locator(`${sel('scenario-picker')} > summary`).click();
      await lite.page.locator(sel('picker-search')).fill('版本');
      await firstScreen(lite.page, `figure-first-search-zh-${size}`);
      await lite.page.locator(sel('picker-search')).press('Enter');
      await lite.page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker"]')?.open === false);
      await ready(lite.page, null);
      await check(lite, 'the search in Chinese');
      assert.deepEqual(problems, [], problems.join('\n'));
    });
  }
});

describe('2. one language per figure', () => {
  const bad = () => {
    const b = structuredClone(weather);
    b.setups[0].transport = 'pigeon';
    return b;
  };
  const figures = {
    'file-en': { scenarioUrl: 'weather-a.json' },
    'file-zh': { scenarioUrl: 'weather-a.json', lang: 'zh' },
    'bad-en': { scenarioUrl: 'bad-a.json' },
    'bad-zh': { scenarioUrl: 'bad-a.json', lang: 'zh' },
    'lite-en': { scenario: 'discover', editor: true },
    'lite-zh': { scenario: 'discover', editor: true, lang: 'zh' },
    'drawn-en': { scenario: 'discover' },
    'drawn-zh': { scenario: 'discover', lang: 'zh' },
  };
  for (const order of ['Chinese last', 'Chinese first']) {
    test(`figures in two languages, mounted with ${order}, each keep their own`, T, async () => {
      serve('weather-a.json', weather);
      serve('bad-a.json', bad());
      let ids = Object.keys(figures);
      if (order === 'Chinese first') ids = [...ids.filter((i) => i.endsWith('zh')), ...ids.filter((i) => i.endsWith('en'))];
      const body = Object.keys(figures).map((id) => `<h2>${id}</h2><div id="${id}"></div>`).join('');
      // Mounted at once, in this order (their loads overlap).
      const script = `window.mounted = Promise.all(${JSON.stringify(ids)}.map((id) => McpLanes.mount(document.getElementById(id), ${JSON.stringify(figures)}[id])));`;
      const page = course(`two-languages-${order.split(' ')[1]}.html`, body, script);
      const view = await apps.desktop.open(page);
      const p = view.page;
      await p.waitForFunction(() => window.mounted, null, { timeout: 30_000 });
      await p.evaluate(() => window.mounted);
      for (const id of Object.keys(figures)) {
        await p.locator(`#${id} ${id.startsWith('bad') ? sel('file-problems') : sel('player')}`).waitFor({ timeout: 30_000 });
      }
      await p.waitForTimeout(500);
      for (const id of Object.keys(figures)) {
        const lang = id.endsWith('zh') ? 'zh' : 'en';
        const words = lang === 'zh' ? zh : en;
        const fig = (s) => p.locator(`#${id} ${s}`);
        if (id.startsWith('bad')) {
          assert.equal(await fig(sel('scenario-title')).innerText(), words['file.cannot_show'], `${id}: the title`);
          const text = await fig(sel('file-problems')).innerText();
          if (lang === 'zh') assert.ok(CJK.test(text) && !/expected|problem/.test(text), `${id}: ${text}`);
          else assert.ok(!CJK.test(text), `${id}: ${text}`);
          continue;
        }
        assert.ok((await fig(sel('play')).getAttribute('aria-label')).startsWith(words['player.play']), `${id}: Play`);
        if (id.startsWith('file')) {
          const title = lang === 'zh' ? weather.translations.zh.title : weather.title;
          assert.equal(await fig(sel('scenario-title')).innerText(), title, `${id}: the title`);
        }
        // The lane's settings (an island in the full bundle, a stand-in before).
        assert.equal((await fig(`${sel('settings-0')} > summary`).innerText()).trim(), words['settings.title'], `${id}: the settings`);
        // A step's narration.
        await fig(sel('step-forward')).click();
        await p.waitForTimeout(100);
        const said = await fig(sel('narration')).innerText();
        assert.equal(CJK.test(said), lang === 'zh', `${id}: the narration in ${lang}: ${said}`);
        // The inspector of the first message.
        await fig('[data-testid^="message-0-"]').first().click();
        const inspector = await fig(sel('inspector')).innerText();
        assert.equal(CJK.test(inspector.replace(/"[^"]*"/g, '')), lang === 'zh', `${id}: the inspector in ${lang}: ${inspector.slice(0, 200)}`);
      }
      // A figure handed over to the full bundle (a lane's settings) keeps its language too.
      for (const id of ['drawn-zh', 'drawn-en']) {
        await p.locator(`#${id} ${sel('settings-0')} > summary`).click();
        await p.locator(`#${id} ${sel('settings-0')} select, #${id} ${sel('settings-0')} input`).first().waitFor({ timeout: 30_000 });
        const text = await p.locator(`#${id} ${sel('settings-0')}`).innerText();
        assert.equal(CJK.test(text), id.endsWith('zh'), `${id} after the hand-over: ${text.slice(0, 200)}`);
      }
      // The editor (the full bundle's island and its own components), opened
      // in both figures at once: each in its figure's language.
      await Promise.all(['lite-zh', 'lite-en'].map((id) => p.locator(`#${id} ${sel('tab-editor')}`).click()));
      for (const id of ['lite-zh', 'lite-en']) {
        await p.locator(`#${id} ${sel('editor-text')}`).waitFor({ state: 'visible', timeout: 30_000 });
        await p.waitForTimeout(300);
        const text = (await p.locator(`#${id} #panel-editor`).innerText()).replace(/"[^"]*"/g, '');
        assert.equal(CJK.test(text), id.endsWith('zh'), `${id}'s editor: ${text.slice(0, 300)}`);
        if (id.endsWith('en')) assert.ok(!CJK.test(text), text.slice(0, 300));
      }
      await view.screenshot(`two-languages-${order.split(' ')[1]}`);
      for (const id of ['file-en', 'file-zh', 'bad-en', 'bad-zh']) {
        await p.locator(`#${id}`).screenshot({ path: path.join(ARTIFACTS_DIR, `two-languages-${order.split(' ')[1]}-${id}.png`) });
      }
    });
  }
});

describe('7. smaller items', () => {
  for (const [size, viewport] of SIZES) {
    for (const tag of ['en', 'zh']) test(`${size}, ${tag}: an iframe figure out of view takes its real height before it is scrolled to`, T, async () => {
      const app = apps[size];
      const url = new URL(serve(`weather-frame-${size}.json`, weather), app.url).href;
      // The course page on another origin (another port), as a course's
      // is: a browser does not render such a frame while it is out of view.
      const dir = await mkdtemp(path.join(tmpdir(), 'mcp-lanes-course-'));
      await writeFile(path.join(dir, 'index.html'), '');
      await writeFile(
        path.join(dir, 'course.html'),
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>` +
          `<div style="height: 3000px">Reading before the figure.</div>` +
          `<iframe id="far" title="figure" style="width: 100%; border: 0" src="${app.url}/?embed=1&lang=${tag}&scenario-url=${encodeURIComponent(url)}"></iframe>` +
          `<script src="course.js"></script></body></html>`,
      );
      await writeFile(
        path.join(dir, 'course.js'),
        `const frame = document.getElementById('far');
         window.heights = [];
         addEventListener('message', (e) => {
           if (e.source === frame.contentWindow && e.data.type === 'mcp-lanes:height') {
             window.heights.push(e.data.height);
             frame.style.height = e.data.height + 'px';
           }
         });`,
      );
      const other = await startStaticServer(dir);
      try {
        const view = await app.open(`${other.url}/course.html`);
        const p = view.page;
        await p.waitForFunction(() => window.heights.length > 0 && Math.max(...window.heights) > 400, null, { timeout: 30_000 });
        await p.waitForTimeout(500);
        const before = await p.evaluate(() => document.getElementById('far').getBoundingClientRect().height);
        assert.ok(before > 400, `the frame took its height out of view: ${before}`);
        assert.equal(await p.evaluate(() => scrollY), 0, 'never scrolled');
        await p.locator('#far').scrollIntoViewIfNeeded();
        await p.waitForTimeout(800);
        const after = await p.evaluate(() => document.getElementById('far').getBoundingClientRect().height);
        assert.ok(Math.abs(after - before) < 60, `no jump once in view: ${before} then ${after}`);
        await firstScreen(p, `frame-out-of-view-${tag}-${size}`);
      } finally {
        await other.close();
      }
    });

    for (const tag of ['en', 'zh']) {
      test(`${size}, ${tag}: the check panel's file button is the page's own, and a schema verdict is in the language`, T, async () => {
        const view = await apps[size].open(`/?lang=${tag}&scenario=discover`);
        const p = view.page;
        await ready(p, 'discover');
        await p.locator(sel('check-toggle')).click();
        const input = p.locator(sel('check-file'));
        await input.waitFor({ state: 'attached', timeout: 30_000 });
        const words = tag === 'zh' ? zh : en;
        // The browser's own button is not shown: the input is visually hidden,
        // its label is the button, and it still takes focus from the keyboard.
        const box = await input.boundingBox();
        assert.ok(!box || (box.width <= 1 && box.height <= 1), `the input is visually hidden: ${JSON.stringify(box)}`);
        const label = p.locator('.file-pick');
        assert.equal((await label.innerText()).trim(), words['check.pick']);
        await input.focus();
        assert.equal(await input.evaluate((i) => i === document.activeElement), true, 'keyboard-focusable');
        const [chooser] = await Promise.all([p.waitForEvent('filechooser'), p.locator('.file-pick-button').click()]);
        assert.ok(chooser, 'the label opens the file chooser');
        await p.locator(sel('check')).scrollIntoViewIfNeeded();
        await firstScreen(p, `check-file-button-${tag}-${size}`);
        // The S-SCHEMA verdicts the schema worker gives (the core's validator)
        // are keyed notes, and the language has a template for each.
        const verdicts = await p.evaluate(async () => {
          const timeline = (await (await fetch('/timelines/discover.json')).json())[0];
          const worker = new Worker('/schema-worker.js', { type: 'module' });
          const answer = await new Promise((done) => {
            worker.onmessage = (e) => done(e.data);
            worker.postMessage(JSON.stringify(timeline));
          });
          worker.terminate();
          return JSON.parse(answer.verdicts);
        });
        assert.ok(verdicts.length > 0 && verdicts.every((v) => v.rule === 'S-SCHEMA'), JSON.stringify(verdicts).slice(0, 300));
        const notes = JSON.parse(await readFile(path.join(REPO_ROOT, `www/i18n/${tag}.notes.json`), 'utf8'));
        for (const v of verdicts) {
          for (const msg of [v.expected_msg, v.got_msg]) {
            const key = JSON.stringify(msg).match(/"(check\.schema_[a-z_]+)"/)?.[1];
            assert.ok(key && notes[`note.${key}`], `a keyed note with a ${tag} template: ${JSON.stringify(msg)}`);
            if (tag === 'zh') assert.ok(CJK.test(notes[`note.${key}`]), key);
          }
        }
      });
    }
  }

  for (const [size] of SIZES) test(`${size}: a relative scenarioUrl resolves against the course page, in a script and in an iframe; an error names the whole URL`, T, async () => {
    const app = apps[size];
    serve('weather-rel.json', weather);
    const page = course(
      'relative.html',
      `<div id="fig"></div><div id="gone"></div>` +
        `<iframe id="frame" title="figure" style="width: 100%; border: 0; height: 900px" src="/?embed=1&scenario-url=weather-rel.json"></iframe>`,
      `McpLanes.mount(document.getElementById('fig'), {scenarioUrl: 'weather-rel.json'});
       McpLanes.mount(document.getElementById('gone'), {scenarioUrl: 'no-such.json'});`,
    );
    const view = await app.open(page);
    const p = view.page;
    const title = p.locator(`#fig ${sel('scenario-title')}`);
    await title.waitFor({ timeout: 30_000 });
    assert.equal(await title.innerText(), weather.title, 'the script figure found the course page\'s file');
    const frame = p.frameLocator('#frame');
    await frame.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator(sel('scenario-title')).innerText(), weather.title, 'the iframe figure found the course page\'s file');
    const problems = p.locator(`#gone ${sel('file-problems')}`);
    await problems.waitFor({ timeout: 30_000 });
    const whole = new URL('/__files/no-such.json', app.url).href;
    assert.ok((await problems.innerText()).includes(whole), `the error names ${whole}: ${await problems.innerText()}`);
    await view.screenshot(`relative-scenario-url-${size}`);
    // In Chinese too.
    const zhPage = course('relative-zh.html', '<div id="gone"></div>', `McpLanes.mount(document.getElementById('gone'), {scenarioUrl: 'no-such.json', lang: 'zh'});`);
    const zhView = await app.open(zhPage);
    const zhProblems = zhView.page.locator(`#gone ${sel('file-problems')}`);
    await zhProblems.waitFor({ timeout: 30_000 });
    assert.ok((await zhProblems.innerText()).includes(`无法加载场景文件 ${whole}`), await zhProblems.innerText());
    await zhView.screenshot(`relative-scenario-url-zh-${size}`);
  });
});
