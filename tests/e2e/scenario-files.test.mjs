// Scenario files in the browser: a course page mounting one from a URL,
// the page's ?scenario-url= with a valid and an invalid file (problems
// shown as text instead of lanes), a file on another origin without CORS,
// a file passed to McpLanes.mount as an object, the editor's targets and
// the permalink of a file's page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT, englishRun, startApp, startStaticServer } from './harness.mjs';

const T = { timeout: 90_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;
// Files and pages served on the app's origin under /__files/NAME.
const files = new Map();
let weather;

before(async () => {
  app = await startApp();
  weather = JSON.parse(await readFile(path.join(REPO_ROOT, 'www/scenarios/weather-forecast.json'), 'utf8'));
  await app.context.route('**/__files/*', (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop();
    const body = files.get(name);
    if (body === undefined) return route.fulfill({ status: 404, body: 'no such file' });
    const contentType = name.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/json';
    return route.fulfill({ status: 200, contentType, body });
  });
});
after(async () => {
  await app?.close();
});


function serve(name, body) {
  files.set(name, typeof body === 'string' ? body : JSON.stringify(body));
  return `/__files/${name}`;
}

test('a course page mounts a scenario file from a URL', T, async () => {
  const view = await app.open('/course-demo.html');
  const { page } = view;
  await page.locator(`#fig-weather ${sel('player')}`).waitFor({ timeout: 30_000 });
  const title = page.locator(`#fig-weather ${sel('scenario-title')}`);
  assert.equal(await title.getAttribute('data-scenario'), 'weather-forecast');
  assert.equal(await title.innerText(), 'A forecast needs sampling');
  assert.equal(await page.locator(`#fig-weather ${sel('lane-1')}`).count(), 1, 'both set-ups');
  // The author's narration shows with the first event of its step.
  await page.locator(`#fig-weather ${sel('step-forward')}`).click();
  const narration = page.locator(`#fig-weather ${sel('narration')}`);
  await narration.getByText('forecast is there, and needs sampling', { exact: false }).waitFor();
  await page.locator(`#fig-weather ${sel('jump-end')}`).click();
  await page.locator(`#fig-weather ${sel('player')}[data-state="end"]`).waitFor();
  assert.ok(
    (await page.locator(`#fig-weather [data-testid^="message-0-"]`).evaluateAll((els) => els.map((e) => e.textContent))).some((t) => t.includes('-32021')),
    'the dashboard is refused',
  );
  await view.screenshot('scenario-file-course-figure');
  await page.waitForTimeout(300);
  assert.deepEqual(view.problems(), [], view.problems().join('\n'));
});

describe('?scenario-url=', () => {
  test('opens a valid file, offers its servers to the editor, and its permalink reopens it by URL', T, async () => {
    const hostile = structuredClone(weather);
    hostile.setups[0].label = '<img src=x onerror="window.pwned=1">dashboard';
    // (Its translations name the label it had.)
    delete hostile.translations;
    const url = serve('weather.json', hostile);
    const view = await app.open(`/?scenario-url=${encodeURIComponent(url)}`);
    const { page } = view;
    const title = page.locator(sel('scenario-title'));
    await title.waitFor({ timeout: 30_000 });
    assert.equal(await title.getAttribute('data-scenario'), 'weather-forecast');
    assert.equal(await page.locator(sel('lane-1')).count(), 1);
    assert.equal(await page.locator('img[src="x"]').count(), 0, 'a label is text');
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    // Changing something writes the permalink: the file's URL stays in the query.
    await page.locator(sel('step-forward')).click();
    await page.locator(sel('step-forward')).click();
    await page.waitForFunction(() => location.hash.startsWith('#v3.'));
    const link = await page.evaluate(() => location.href);
    assert.ok(link.includes('scenario-url='), link);
    assert.ok(!link.includes('forecast%22') && link.length < 600, `no inlined file: ${link}`);
    const again = await app.open(new URL(link).pathname + new URL(link).search + new URL(link).hash);
    await again.page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
    assert.equal(await again.page.locator(sel('step-count')).innerText(), await page.locator(sel('step-count')).innerText());
    // The editor can talk to the file's server.
    await page.locator(sel('tab-editor')).click();
    const options = await page.locator(`${sel('editor-target')} option`).allInnerTexts();
    assert.ok(options.includes('weather (scenario file)'), options.join(', '));
    await page.waitForTimeout(300);
    assert.deepEqual(view.problems(), [], view.problems().join('\n'));
    assert.deepEqual(again.problems(), [], again.problems().join('\n'));
  });

  test("shows the author's text in the reader's language when the file translates it", T, async () => {
    const zh = weather.translations.zh;
    const view = await app.open(`/?lang=zh&scenario-url=${encodeURIComponent(serve('weather-zh.json', weather))}`);
    const { page } = view;
    const title = page.locator(sel('scenario-title'));
    await title.waitFor({ timeout: 30_000 });
    assert.equal(await title.innerText(), zh.title);
    assert.equal(await page.locator('.intro .summary').innerText(), zh.summary);
    assert.equal(await page.locator(sel('lane-0')).locator('h3').innerText(), zh.labels['dashboard (no model)']);
    assert.equal(await page.locator(sel('lane-1')).locator('h3').innerText(), zh.labels['assistant (declares sampling)']);
    await page.locator(sel('step-forward')).click();
    const first = zh.say['The dashboard lists the tools: forecast is there, and needs sampling.'];
    await page.locator(sel('narration')).getByText(first, { exact: false }).waitFor({ timeout: 10_000 });
    await view.screenshot('scenario-file-zh');
    // A language the file does not translate: the author's own text.
    const fr = await app.open(`/?lang=fr&scenario-url=${encodeURIComponent(serve('weather-fr.json', weather))}`);
    await fr.page.locator(sel('scenario-title')).waitFor({ timeout: 30_000 });
    assert.equal(await fr.page.locator(sel('scenario-title')).innerText(), weather.title);
    assert.deepEqual(view.problems(), [], view.problems().join('\n'));
    assert.deepEqual(fr.problems(), [], fr.problems().join('\n'));
  });

  test('shows every problem of an invalid file, as text, instead of lanes', T, async () => {
    const bad = structuredClone(weather);
    bad.id = '<script>window.pwned=1</script>';
    bad.servers[0].tools[1].requires = ['sampling'];
    bad.setups[1].steps = Array.from({ length: 10_000 }, () => ({ do: 'discover' }));
    const view = await app.open(`/?scenario-url=${encodeURIComponent(serve('bad.json', bad))}`);
    const { page } = view;
    const list = page.locator(sel('file-problems'));
    await list.waitFor({ timeout: 30_000 });
    const text = await list.innerText();
    assert.match(text, /3 problems/);
    assert.ok(text.includes('servers[0].tools[1].requires: expected an object of capabilities such as {"elicitation": {}}, got ["sampling"]'), text);
    assert.ok(text.includes('setups[1].steps: 10000 steps, more than the limit of 500'), text);
    assert.ok(text.includes('id: expected an id'), text);
    assert.equal(await page.locator(`${sel('lanes')}`).isVisible(), false, 'no lanes');
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    await view.screenshot('scenario-file-invalid');
    await page.waitForTimeout(300);
    const problems = view.problems();
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /^error: mcp-lanes: the scenario file cannot be shown/);
  });

  test("?lang=zh: an invalid file's problems are in Chinese, paths and the author's values as they are", T, async () => {
    const bad = structuredClone(weather);
    bad.id = 'Not An Id';
    bad.titel = 'typo';
    bad.servers[0].tools[1].requires = ['sampling'];
    bad.setups[0].transport = 'pigeon';
    bad.setups[1].steps = [{ do: 'dance' }, { do: 'wait', ms: -1 }, 7];
    const view = await app.open(`/?lang=zh&scenario-url=${encodeURIComponent(serve('bad-zh.json', bad))}`);
    const { page } = view;
    const list = page.locator(sel('file-problems'));
    await list.waitFor({ timeout: 30_000 });
    assert.equal(await page.locator(sel('scenario-title')).innerText(), '无法显示此场景文件');
    const text = await list.innerText();
    assert.match(text, /场景文件中有 7 个问题/);
    assert.ok(text.includes('servers[0].tools[1].requires：应为能力对象，例如 {"elicitation": {}}，实际为 ["sampling"]'), text);
    assert.ok(text.includes('titel：场景文件里有未知的键（是否想写 "title"？）'), text);
    assert.ok(text.includes('setups[1].steps[1].ms：应为 0 到 86400000 之间的整数，实际为 -1'), text);
    // No English sentence is left: outside the path (before the first
    // "："), the keys a place allows (field names) and quoted values.
    const items = await list.locator('li').allInnerTexts();
    assert.equal(items.length, 7, items.join('\n'));
    const left = items
      .map((line) => line.slice(line.indexOf('：') + 1).split('应为以下之一：')[0].split('"').filter((_, i) => i % 2 === 0).join(' '))
      .map(englishRun)
      .filter(Boolean);
    assert.deepEqual(left, [], items.join('\n'));
    assert.equal(await page.locator(sel('lanes')).isVisible(), false, 'no lanes');
    await view.screenshot('scenario-file-invalid-zh');
    // A file that cannot be fetched says so in Chinese too.
    const gone = await app.open(`/?lang=zh&scenario-url=${encodeURIComponent('/__files/no-such-file.json')}`);
    const missing = gone.page.locator(sel('file-problems'));
    await missing.waitFor({ timeout: 30_000 });
    // It names the whole URL it tried.
    const whole = new URL('/__files/no-such-file.json', app.url).href;
    assert.ok((await missing.innerText()).includes(`（文件）：无法加载场景文件 ${whole}（HTTP 404`), await missing.innerText());
  });

  test('a file on another origin that does not allow CORS: the error says so', T, async () => {
    const other = await startStaticServer();
    try {
      const url = `${other.url}/scenarios/weather-forecast.json`;
      const view = await app.open(`/?embed=1&scenario-url=${encodeURIComponent(url)}`);
      const list = view.page.locator(sel('file-problems'));
      await list.waitFor({ timeout: 30_000 });
      assert.match(await list.innerText(), /another origin.*CORS/s);
    } finally {
      await other.close();
    }
  });
});

describe('McpLanes.mount with a scenario object', () => {
  test('runs a valid object and lists the problems of an invalid one', T, async () => {
    const broken = { format: 'mcp-lanes-scenario/1', id: 'broken', setups: [{ client: 'plain', server: 'nowhere', steps: [{ do: 'wait' }] }] };
    const page = serve(
      'mount.html',
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mount</title><link rel="icon" href="data:,"></head><body>' +
        '<div id="good"></div><div id="bad"></div><script src="/embed.js"></script><script>' +
        `McpLanes.mount(document.getElementById('good'), {scenario: ${JSON.stringify(weather)}, step: 2});` +
        `McpLanes.mount(document.getElementById('bad'), {scenario: ${JSON.stringify(broken)}});` +
        '</script></body></html>',
    );
    const view = await app.open(page);
    const good = view.page.locator(`#good ${sel('scenario-title')}`);
    await good.waitFor({ timeout: 30_000 });
    assert.equal(await good.getAttribute('data-scenario'), 'weather-forecast');
    assert.equal(await view.page.locator(`#good ${sel('step-count')}`).innerText(), '2/' + (await view.page.locator(`#good ${sel('step-count')}`).innerText()).split('/')[1]);
    const bad = view.page.locator(`#bad ${sel('file-problems')}`);
    await bad.waitFor({ timeout: 30_000 });
    assert.ok((await bad.innerText()).includes('setups[0].steps[0].ms: required'), await bad.innerText());
    await view.page.waitForTimeout(300);
    assert.equal(view.problems().length, 1, view.problems().join('\n'));
  });

  test('a figure in Chinese says why its file is broken or missing, in Chinese', T, async () => {
    const broken = { format: 'mcp-lanes-scenario/1', id: 'broken', setups: [{ client: 'plain', server: 'nowhere', steps: [{ do: 'wait' }] }] };
    const page = serve(
      'mount-zh.html',
      '<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>mount</title><link rel="icon" href="data:,"></head><body>' +
        '<div id="bad"></div><div id="gone"></div><script src="/embed.js"></script><script>' +
        `McpLanes.mount(document.getElementById('bad'), {scenario: ${JSON.stringify(broken)}});` +
        `McpLanes.mount(document.getElementById('gone'), {scenarioUrl: '/__files/gone.json'});` +
        '</script></body></html>',
    );
    const view = await app.open(page);
    const bad = view.page.locator(`#bad ${sel('file-problems')}`);
    await bad.waitFor({ timeout: 30_000 });
    assert.ok((await bad.innerText()).includes('setups[0].steps[0].ms：必需：要等待多久（以虚拟毫秒计）'), await bad.innerText());
    const gone = view.page.locator(`#gone ${sel('file-problems')}`);
    await gone.waitFor({ timeout: 30_000 });
    // The whole URL it tried (relative to the course page).
    const whole = new URL('/__files/gone.json', app.url).href;
    assert.ok((await gone.innerText()).includes(`无法加载场景文件 ${whole}`), await gone.innerText());
    await view.screenshot('scenario-file-mount-zh');
  });
});
