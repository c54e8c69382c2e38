// Every field explained, second pass (issue 26, deliverable 3): the drawn
// figure (no WebAssembly) explains a key of an inspected message as the
// full bundle does, fetching the explanations on the first hover, focus or
// tap; the print view shows every message of the run with each field's
// explanation beneath it (drawn figure and full bundle); each header of
// the editor's HTTP request table explains itself.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ARTIFACTS_DIR, startApp, launchChromium, openPage } from './harness.mjs';

const T = { timeout: 180_000 };
const sel = (id) => `[data-testid="${id}"]`;
const CJK = /[\u4e00-\u9fff]/;
const WASM = /\.wasm$|mcp-lanes-(web|lite)\.js$/;
let app;
let phone;

before(async () => {
  app = await startApp();
  phone = await launchChromium({ viewport: { width: 360, height: 740 } });
});
after(async () => {
  await phone?.close();
  await app?.close();
});

/** Opens `urlPath` in the wide or narrow browser, counting requests. */
async function opened(width, urlPath) {
  const view = width === 360 ? await openPage(phone.context, app.url, urlPath) : await app.open(urlPath);
  const requests = [];
  view.page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await view.page.locator('.app-root[data-ready]').waitFor({ timeout: 30_000 });
  return { ...view, requests };
}

/** What the full bundle's inspector says of one field: its words, rules, spec link. */
async function bundleSays(lang, message, path) {
  const view = await app.open(`/?lang=${lang}&scenario=discover#/m0.${message}/${path}`);
  const { page } = view;
  const box = page.locator(`${sel('inspector')} .fk[data-path='${path}'][data-open] > .fx`);
  await box.waitFor({ timeout: 60_000 });
  await page.waitForFunction((p) => document.querySelector(`[data-path='${p}'][data-open] .fx-text`)?.textContent.length > 0, path, { timeout: 30_000 });
  const said = await box.evaluate((el) => ({
    text: el.querySelector('.fx-text').textContent,
    rules: el.querySelector('.fx-rules')?.textContent ?? '',
    spec: el.querySelector('.fx-spec')?.getAttribute('href') ?? '',
  }));
  await page.close();
  return said;
}

describe('the drawn figure explains its fields', () => {
  for (const lang of ['en', 'zh']) {
    for (const width of [1280, 360]) {
      test(`hover, focus or tap a key: the full bundle's words, fetched on demand (${lang}, ${width})`, T, async () => {
        const expected = await bundleSays(lang, 1, 'result.ttlMs');
        const view = await opened(width, `/?lang=${lang}`);
        const { page, requests } = view;
        await page.keyboard.press('End');
        await page.locator(sel('message-0-1')).click();
        const ttl = page.locator(`${sel('inspector')} .wire i`).filter({ hasText: /^"ttlMs"/ });
        await ttl.waitFor();
        assert.equal(requests.filter((p) => p.startsWith('/figures/fields/')).length, 0, 'nothing fetched before a reader asks');
        await ttl.scrollIntoViewIfNeeded();
        if (width === 360) await ttl.tap().catch(() => ttl.click());
        else await ttl.hover();
        const box = ttl.locator('.fx');
        await box.waitFor({ state: 'visible', timeout: 10_000 });
        const said = await box.evaluate((el) => ({
          text: el.querySelector('.fx-text').textContent,
          rules: el.querySelector('.fx-rules')?.textContent ?? '',
          spec: el.querySelector('.fx-spec')?.getAttribute('href') ?? '',
        }));
        assert.deepEqual(said, expected);
        assert.equal(CJK.test(said.text), lang === 'zh', said.text);
        assert.deepEqual(requests.filter((p) => p.startsWith('/figures/fields/')), [`/figures/fields/${lang}.html`]);
        // Keyboard: another key takes focus and shows its own.
        await page.mouse.move(0, 0);
        const scope = page.locator(`${sel('inspector')} .wire i`).filter({ hasText: /^"cacheScope"/ });
        await page.locator(`${sel('inspector')} pre.wire`).focus();
        await scope.focus();
        assert.ok(await scope.locator('.fx').isVisible(), 'focus shows it');
        assert.match(await scope.locator('.fx').innerText(), /M-CACHE-HINTS/);
        if (width === 360) {
          const fits = await scope.locator('.fx').evaluate((el) => {
            const r = el.getBoundingClientRect();
            return r.left >= 0 && r.right <= window.innerWidth + 1;
          });
          assert.ok(fits, 'the explanation fits the screen');
        }
        await view.screenshot(`fields-static-${lang}-${width}`);
        assert.deepEqual(requests.filter((p) => WASM.test(p)), [], 'no WebAssembly');
        assert.deepEqual(view.problems(), []);
        await page.close();
      });
    }
  }
});

/** Counts the keys of the print view and those whose explanation shows. */
async function printed(page, scope) {
  await page.emulateMedia({ media: 'print' });
  return page.evaluate((s) => {
    const keys = [...document.querySelectorAll(`${s} .wire .fk`)];
    const shown = keys.filter((k) => {
      const fx = k.querySelector(':scope > .fx');
      return fx && getComputedStyle(fx).display === 'block' && fx.querySelector('.fx-text').textContent.length > 0;
    });
    const messages = document.querySelectorAll(`${s} .step-event .wire`).length;
    return { keys: keys.length, shown: shown.length, messages };
  }, scope);
}

describe('print: every message with its explanations', () => {
  for (const lang of ['en', 'zh']) {
    test(`from the drawn figure (${lang})`, T, async () => {
      const view = await opened(1280, `/?lang=${lang}`);
      const { page, requests } = view;
      await page.evaluate(() => {
        window.print = () => {
          window.dispatchEvent(new Event('beforeprint'));
          window.printed = true;
        };
      });
      await page.locator(sel('print-button')).click();
      await page.waitForFunction(() => window.printed === true, null, { timeout: 10_000 });
      const n = await printed(page, sel('transcript'));
      assert.ok(n.messages >= 2, JSON.stringify(n));
      assert.ok(n.keys > 20, JSON.stringify(n));
      assert.equal(n.shown, n.keys, 'every key explained beneath it');
      await view.screenshot(`print-static-${lang}`);
      await page.pdf({ path: path.join(ARTIFACTS_DIR, `print-static-${lang}.pdf`) }).catch(() => {});
      assert.deepEqual(requests.filter((p) => WASM.test(p)), [], 'no WebAssembly');
      assert.deepEqual(view.problems(), []);
      await page.close();
    });

    test(`from the full bundle (${lang})`, T, async () => {
      const view = await app.open(`/?lang=${lang}&scenario=discover#/m0.1/id`);
      const { page } = view;
      await page.locator(`${sel('inspector')} .fk[data-open]`).waitFor({ timeout: 60_000 });
      await page.evaluate(() => {
        window.print = () => {
          window.dispatchEvent(new Event('beforeprint'));
          window.printed = true;
        };
      });
      assert.equal(await page.locator(sel('print-run')).count(), 0, 'drawn only while printing');
      await page.locator(sel('print-button')).click();
      await page.waitForFunction(() => window.printed === true, null, { timeout: 10_000 });
      await page.locator(sel('print-run')).waitFor({ state: 'attached' });
      const n = await printed(page, sel('print-run'));
      assert.ok(n.messages >= 2, JSON.stringify(n));
      assert.equal(n.shown, n.keys, 'every key explained beneath it');
      const text = await page.locator(sel('print-run')).innerText();
      assert.equal(CJK.test(text), lang === 'zh');
      await view.screenshot(`print-full-${lang}`);
      await page.emulateMedia({ media: 'screen' });
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      assert.equal(await page.locator(sel('print-run')).count(), 0, 'gone after print');
      assert.deepEqual(view.problems(), []);
      await page.close();
    });
  }
});

describe("the editor's request headers explain themselves", () => {
  for (const lang of ['en', 'zh']) {
    for (const width of [1280, 360]) {
      test(`each header is a target (${lang}, ${width})`, T, async () => {
        const view = width === 360 ? await openPage(phone.context, app.url, `/?lang=${lang}&scenario=discover`) : await app.open(`/?lang=${lang}&scenario=discover`);
        const { page } = view;
        await page.locator(sel('tab-editor')).waitFor();
        await page.locator(sel('tab-editor')).click();
        await page.locator(sel('editor-text')).waitFor({ state: 'visible', timeout: 60_000 });
        await page.selectOption(sel('editor-target'), 'deploy-console');
        await page.selectOption(sel('editor-transport'), 'http');
        await page.selectOption(sel('editor-method'), 'tools/call');
        await page.locator(sel('insert-template')).click();
        await page.locator(`${sel('editor-headers')} ${sel('header-help')}`).first().waitFor();
        // Add an Authorization header: it explains itself too.
        const count = await page.locator('[data-testid^="header-name-"]').count();
        await page.locator(sel('header-add')).click();
        await page.locator(sel(`header-name-${count}`)).fill('Authorization');
        await page.locator(sel(`header-value-${count}`)).fill('Bearer abc');
        const rows = await page.locator(`${sel('editor-headers')} tbody tr`).evaluateAll((trs) =>
          trs.map((tr) => [tr.querySelector('input').value, Boolean(tr.querySelector('[data-testid="header-help"]'))]));
        for (const [name, helped] of rows) assert.ok(helped, `${name} explains itself`);
        assert.ok(rows.some(([n]) => n === 'MCP-Protocol-Version'), JSON.stringify(rows));
        await page.waitForFunction(() => document.querySelector('[data-testid="editor-headers"] .fx-text')?.textContent.length > 0, null, { timeout: 30_000 });
        const auth = page.locator(`${sel('editor-headers')} tbody tr:last-child ${sel('header-help')}`);
        if (width === 360) await auth.click();
        else await auth.hover();
        const box = auth.locator('.fx');
        assert.ok(await box.isVisible());
        const said = await box.innerText();
        assert.match(said, /A-BEARER/);
        assert.equal(CJK.test(said), lang === 'zh', said);
        assert.equal(await box.locator('a.fx-spec').getAttribute('href'), 'https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#access-token-usage');
        const fits = await box.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.left >= 0 && r.right <= window.innerWidth + 1;
        });
        assert.ok(fits, 'the explanation fits the window');
        await auth.scrollIntoViewIfNeeded();
        await view.screenshot(`editor-headers-${lang}-${width}`);
        // Keyboard: the first header's target takes focus.
        await page.mouse.move(0, 0);
        const first = page.locator(`${sel('editor-headers')} ${sel('header-help')}`).first();
        await first.focus();
        assert.ok(await first.locator('.fx').isVisible());
        assert.deepEqual(view.problems(), []);
        await page.close();
      });
    }
  }
});
