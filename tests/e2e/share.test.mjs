// Permalinks (the whole state in the URL fragment, Copy link, hostile
// links) and exports of a run (transcript JSON, Mermaid, curl).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startApp } from './harness.mjs';
import { expectedLastLabels, lastLabel, openScenario, ready, scenarioDocument, snapshot } from './lanes.mjs';

const T = { timeout: 90_000 };
const sel = (id) => `[data-testid="${id}"]`;
let app;

before(async () => {
  app = await startApp();
  await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
});
after(async () => {
  await app?.close();
});

/** Everything a permalink must bring back. */
async function fullState(page) {
  return {
    ...(await snapshot(page)),
    title: await page.locator(sel('scenario-title')).getAttribute('data-scenario'),
    step: await page.locator(sel('step-count')).innerText(),
    labels: await page.locator('[data-testid^="lane-"] h3').allInnerTexts(),
    changed: await page.locator('[data-testid^="modified-"]').count(),
    removable: await page.locator('[data-testid^="remove-"]').count(),
  };
}

/** Hides navigator.clipboard from the pages opened after this. */
const withoutClipboard = (page) =>
  page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));

describe('permalinks', () => {
  let link;
  let state;

  test('the URL and "Copy link" carry the scenario, changed settings, compared lanes and the step', T, async () => {
    const view = await openScenario(app, 'plain-vs-rich');
    const { page } = view;
    assert.equal(await page.evaluate(() => location.hash), '', 'an untouched scenario has no fragment');
    // lane 0: declare elicitation.form; lane 1: compare it over HTTP
    await page.locator(`${sel('settings-0')} > summary`).click();
    await page.locator(sel('cap-0-elicitation.form')).check();
    await page.locator(`${sel('settings-1')} > summary`).click();
    await page.locator(sel('compare-1')).click();
    await page.selectOption(sel('transport-1'), 'http');
    await page.locator(sel('lane-2')).waitFor();
    await page.locator(sel('restart')).click();
    for (let i = 0; i < 3; i++) await page.locator(sel('step-forward')).click();
    state = await fullState(page);
    assert.equal(state.step.split('/')[0], '3');
    assert.deepEqual(state.labels, ['plain client', 'rich client', 'rich client · over http']);
    assert.equal(state.changed, 1);
    assert.equal(state.removable, 1);
    assert.match(await page.evaluate(() => location.hash), /^#v3\.[A-Za-z0-9_-]+$/, 'the fragment follows the state (compressed, v3)');

    await page.locator(sel('copy-link')).click();
    await page.locator(`${sel('link-status')}:text("Copied.")`).waitFor();
    link = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(link, page.url(), 'the copied link is the address');
    assert.ok(link.startsWith(`${app.url}/?scenario=plain-vs-rich#v3.`), link);
    await view.screenshot('share-before');

    const fresh = await app.context.newPage();
    await fresh.goto(link);
    await ready(fresh);
    assert.deepEqual(await fullState(fresh), state);
    assert.equal(await fresh.locator(sel('cap-0-elicitation.form')).isChecked(), true);
    assert.equal(await fresh.locator(sel('transport-2')).inputValue(), 'http');
    // and the restored lanes run on: the end is the same as the original's
    await fresh.keyboard.press('End');
    await page.keyboard.press('End');
    for (const n of [0, 1, 2]) assert.equal(await lastLabel(fresh, n), await lastLabel(page, n), `lane ${n}`);
    assert.equal(await lastLabel(fresh, 0), 'result', 'elicitation.form on completes');
    await fresh.close();
    assert.deepEqual(view.problems(), []);
  });

  test('reloading keeps the state; reset and remove bring the fragment back to none', T, async () => {
    const view = await app.open(new URL(link).pathname + new URL(link).search + new URL(link).hash);
    const { page } = view;
    await ready(page);
    await page.reload();
    await ready(page);
    assert.deepEqual(await fullState(page), state);
    await page.locator(sel('remove-2')).click();
    await page.locator(`${sel('settings-0')} > summary`).click();
    await page.locator(sel('reset-0')).click();
    await page.locator(sel('restart')).click();
    await page.waitForFunction(() => location.hash === '');
    assert.deepEqual(view.problems(), []);
  });

  test('without a clipboard the link is offered in a field', T, async () => {
    const page = await app.context.newPage();
    await withoutClipboard(page);
    await page.goto(new URL('/?scenario=discover', app.url).href);
    await ready(page);
    await page.locator(sel('step-forward')).click();
    await page.locator(sel('copy-link')).click();
    const field = page.locator(sel('link-field'));
    await field.waitFor();
    const shown = await field.inputValue();
    assert.match(shown, /^http:\/\/127\.0\.0\.1:\d+\/\?scenario=discover#v3\./);
    const fresh = await app.context.newPage();
    await fresh.goto(shown);
    await ready(fresh);
    assert.equal(await fresh.locator(sel('step-count')).innerText(), '1/3');
    await fresh.close();
    await page.close();
  });

  describe('a mangled or hostile link gives the defaults and a notice, and runs nothing', () => {
    const b64 = (text) => Buffer.from(text).toString('base64url');
    const cases = [
      ['script tags', '#<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'],
      ['script tags after the prefix', '#v2.<script>alert(1)</script>'],
      ['600 KB of data', `#v2.${'A'.repeat(600_000)}`],
      ['v3 data that does not unpack', '#v3.AAAAAAAA_____'],
      ['a v3 bomb declaring 4 GB', '#v3._____x8AAAA'],
      ['a truncated link', null],
      ['the wrong shape', `#v2.${b64('{"scenario":"discover","lanes":"<b>x</b>"}')}`],
      ['a scenario that does not exist', `#v2.${b64('["<img src=x onerror=alert(1)>",0,[[0,null]]]')}`],
      ['a bomb of brackets', `#v2.${b64('['.repeat(100_000))}`],
    ];
    for (const [name, fragment] of cases) {
      test(name, T, async () => {
        const page = await app.context.newPage();
        const dialogs = [];
        page.on('dialog', (d) => {
          dialogs.push(d.message());
          d.dismiss().catch(() => {});
        });
        const problems = [];
        page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        page.on('pageerror', (e) => problems.push(e.message));
        const hash = fragment ?? `#${new URL(link).hash.slice(1, 40)}`;
        await page.goto(new URL(`/?scenario=version-retry${hash}`, app.url).href);
        await ready(page);
        const notice = page.locator(sel('notice'));
        await notice.waitFor();
        assert.match(await notice.innerText(), /^This link could not be restored: .+[.?!] Showing the defaults instead\.$/);
        assert.equal(await page.locator(sel('scenario-title')).getAttribute('data-scenario'), 'version-retry');
        assert.equal(
          await page.locator('[data-testid^="lane-"]').count(),
          expectedLastLabels('version-retry').length,
        );
        assert.equal(await page.locator(sel('step-count')).innerText(), '0/' + (await page.locator(sel('scrubber')).getAttribute('max')));
        await page.waitForTimeout(300);
        assert.equal(await page.evaluate(() => window.pwned), undefined, 'nothing ran');
        assert.equal(await page.locator('main img, main b, main script').count(), 0, 'nothing was rendered as HTML');
        assert.deepEqual(dialogs, []);
        assert.deepEqual(problems, []);
        assert.equal(await page.evaluate(() => location.hash), '', 'the bad fragment is dropped from the address');
        await page.close();
      });
    }

    test('a well-formed link with markup in a label shows it as text', T, async () => {
      const page = await app.context.newPage();
      const dialogs = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        d.dismiss().catch(() => {});
      });
      const label = '<img src=x onerror="alert(1)">';
      await page.goto(new URL(`/#v2.${b64(JSON.stringify(['discover', 0, [[0, null], [0, label, [1, 2, true]]]]))}`, app.url).href);
      await ready(page);
      assert.equal(await page.locator(sel('lane-1')).locator('h3').innerText(), label);
      assert.equal(await page.locator('main img').count(), 0);
      await page.waitForTimeout(300);
      assert.deepEqual(dialogs, []);
      assert.equal(await page.locator(sel('notice')).count(), 0);
      await page.close();
    });
  });
});

describe('exports', () => {
  /** Opens the export panel of a scenario; returns the view. */
  async function exportsOf(id, page) {
    const view = page ? { page } : await openScenario(app, id);
    if (page) {
      await page.goto(new URL(`/?scenario=${id}`, app.url).href);
      await ready(page);
    }
    await view.page.locator(`${sel('exports')} > summary`).click();
    // Opening the panel on a first visit loads the full bundle (the
    // exporters); the lane picker appears with it.
    await view.page.locator(sel('export-lane')).waitFor();
    return view;
  }
  async function downloaded(page, testid) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(sel(testid)).click()]);
    return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
  }

  test("a lane's transcript JSON is the CLI's document for that set-up", T, async () => {
    for (const [id, lane] of [
      ['http-header-mismatch', 0],
      ['plain-vs-rich', 1],
      ['elicitation-unchecked', 1],
    ]) {
      const { page } = await exportsOf(id);
      await page.selectOption(sel('export-lane'), String(lane));
      const { name, text } = await downloaded(page, 'export-json-download');
      assert.equal(name, `${id}-lane${lane}.json`);
      const doc = scenarioDocument(id);
      assert.deepEqual(JSON.parse(text), { scenario: id, setups: [doc.setups[lane]] }, `${id} lane ${lane}`);
      await page.close();
    }
  });

  test('Mermaid: a sequenceDiagram with an arrow per message', T, async () => {
    const { page } = await exportsOf('version-retry');
    await page.locator(sel('export-mermaid-copy')).click();
    await page.locator(`${sel('export-status')}:text("Copied.")`).waitFor();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(text.startsWith('sequenceDiagram\n'), text.slice(0, 60));
    assert.match(text, /participant C as /);
    const arrows = text.split('\n').filter((l) => /^\s+[CS](-->>|->>|-x)[CS]: /.test(l));
    assert.equal(arrows.length, scenarioDocument('version-retry').setups[0].transcript.length);
    const { name, text: file } = await downloaded(page, 'export-mermaid-download');
    assert.equal(name, 'version-retry-lane0.mmd');
    assert.equal(file, text);
    await page.close();
  });

  test('curl commands for an HTTP lane, with how to start the server', T, async () => {
    const { page } = await exportsOf('http-header-mismatch');
    const { name, text } = await downloaded(page, 'export-curl-download');
    assert.equal(name, 'http-header-mismatch-lane0.sh');
    const lines = text.split('\n');
    assert.equal(lines[0], '#!/bin/sh');
    const serve = await page.locator(sel('serve-command')).innerText();
    assert.match(serve, /^mcp-lanes serve --transport http --port 8931 --preset [a-z-]+$/);
    assert.equal(lines[1], `# Start the simulated server first: ${serve}`);
    const posts = scenarioDocument('http-header-mismatch').setups[0].transcript.filter(
      (e) => e.direction === 'client->server' && e.http,
    );
    assert.equal(text.match(/^curl /gm).length, posts.length, 'one command per client request');
    assert.match(text, /-X POST 'http:\/\/127\.0\.0\.1:8931\/mcp'/);
    assert.match(text, /-H 'MCP-Protocol-Version: 2025-11-25'/);
    assert.match(text, /--data-raw '\{"jsonrpc":"2\.0"/);
    await page.close();
  });

  test('a stdio lane offers no curl; without a clipboard the text is shown to copy', T, async () => {
    const page = await app.context.newPage();
    await withoutClipboard(page);
    await exportsOf('discover', page);
    assert.equal(await page.locator(sel('export-curl-copy')).count(), 0);
    assert.match(await page.locator(`${sel('exports')} .export-note`).innerText(), /stdio/);
    await page.locator(sel('export-mermaid-copy')).click();
    const field = page.locator(sel('export-text'));
    await field.waitFor();
    assert.ok((await field.inputValue()).startsWith('sequenceDiagram\n'));
    await page.close();
  });
});

describe('the editor in a permalink', () => {
  test('the editor content (target, transport, text, edited headers) round-trips through the fragment', T, async () => {
    const first = await app.open('/?scenario=discover');
    const page = first.page;
    await page.locator(sel('tab-editor')).click();
    await page.locator(sel('editor-text')).waitFor({ state: 'visible' });
    await page.selectOption(sel('editor-target'), 'order-desk');
    await page.selectOption(sel('editor-transport'), 'http');
    const body = '{"jsonrpc":"2.0","id":41,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"note":"<script>alert(1)</script>"}}';
    await page.locator(sel('editor-text')).fill(body);
    await page.waitForFunction(() => /^#v3\./.test(location.hash), null, { timeout: 5000 });
    const hash = await page.evaluate(() => location.hash);
    const second = await app.open(`/?scenario=discover${hash}`);
    const p2 = second.page;
    let dialogs = 0;
    p2.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
    await p2.locator(sel('tab-editor')).click();
    await p2.locator(sel('editor-text')).waitFor({ state: 'visible' });
    assert.equal(await p2.locator(sel('editor-text')).inputValue(), body);
    assert.equal(await p2.locator(sel('editor-target')).inputValue(), 'order-desk');
    assert.equal(await p2.locator(sel('editor-transport')).inputValue(), 'http');
    assert.equal(dialogs, 0, 'nothing from the link runs');
    assert.deepEqual(first.problems(), []);
    assert.deepEqual(second.problems(), []);
  });
});
