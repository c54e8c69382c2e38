// Every field explained (issue 26, item 3): each key of a message in the
// bundles' inspector is a target that says what it means, its rules and
// its spec section, in the reader's language; the rules' abbreviations are
// spelled out; long values wrap; a link can point at one field of one
// message (`#…/m{lane}.{event}/{path}`), which also opens the bundle.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, launchChromium, openPage } from './harness.mjs';

const T = { timeout: 120_000 };
const sel = (id) => `[data-testid="${id}"]`;
const CJK = /[\u4e00-\u9fff]/;
const path = (p) => `[data-testid="inspector"] .fk[data-path='${p}']`;
let app;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.close();
});

/** Opens `discover` in `lang` on a link to one field of message `m`. */
async function linked(open, lang, m, field) {
  const view = await open(`/?lang=${lang}&scenario=discover#/m0.${m}/${field}`);
  const { page } = view;
  await page.locator(`${path(field)}[data-open]`).waitFor({ timeout: 60_000 });
  // The explanations come with the rules' catalog.
  await page.waitForFunction(() => document.querySelector('[data-open] .fx-text')?.textContent.length > 0, null, { timeout: 30_000 });
  return view;
}

/** Text boxes of the inspector wider than their container. */
async function overflowing(page) {
  return page.evaluate(() => {
    const bad = [];
    for (const pre of document.querySelectorAll('.inspector pre.wire')) {
      if (pre.scrollWidth > pre.clientWidth + 1) bad.push(`pre ${pre.scrollWidth} > ${pre.clientWidth}`);
      const box = pre.getBoundingClientRect();
      for (const s of pre.querySelectorAll('.js')) {
        const r = s.getBoundingClientRect();
        if (r.width > 0 && r.right > box.right + 1) bad.push(`${s.textContent.slice(0, 40)}: ${r.right} > ${box.right}`);
      }
    }
    const aside = document.querySelector('.inspector');
    if (aside && aside.scrollWidth > aside.clientWidth + 1) bad.push(`inspector ${aside.scrollWidth} > ${aside.clientWidth}`);
    return bad;
  });
}

describe('every field explained', () => {
  for (const lang of ['en', 'zh']) {
    test(`a link opens one field; hovering and focusing a key shows what it means, in ${lang}`, T, async () => {
      const view = await linked(app.open, lang, 1, 'id');
      const { page } = view;
      const open = page.locator(path('id')).locator('.fx');
      assert.ok(await open.isVisible(), 'the linked field is shown');
      assert.match(await open.innerText(), /RPC-ID/);
      // The bundle's inspector offers such a link for every field.
      assert.match(await page.locator(`${path('result.cacheScope')} ${sel('field-link')}`).getAttribute('href'), /^#(v3\.[A-Za-z0-9_-]+)?\/m0\.1\/result\.cacheScope$/);
      const ttl = page.locator(path('result.ttlMs'));
      const fx = ttl.locator('.fx');
      assert.equal(await fx.isVisible(), false, 'hidden until asked');
      await ttl.hover();
      assert.ok(await fx.isVisible(), 'hover shows it');
      const text = await fx.innerText();
      assert.match(text, /M-CACHE-HINTS/);
      assert.match(text, lang === 'zh' ? /存活时间/ : /Time to live, in milliseconds/);
      assert.equal(CJK.test(text), lang === 'zh', text);
      assert.equal(await fx.locator('a.fx-spec').getAttribute('href'), 'https://modelcontextprotocol.io/specification/2026-07-28/server/utilities/caching');
      // Keyboard: a key takes focus and shows its explanation.
      await page.mouse.move(0, 0);
      const scope = page.locator(path('result.cacheScope'));
      await scope.focus();
      assert.ok(await scope.locator('.fx').isVisible(), 'focus shows it');
      assert.match(await scope.locator('.fx').innerText(), /public/);
      // A header's name, too (the discover run is over stdio: none here).
      assert.deepEqual(await overflowing(page), [], 'long values wrap');
      await view.screenshot(`fields-${lang}-1280`);
      assert.deepEqual(view.problems(), []);
      await page.close();
    });
  }

  test('a request\'s _meta keys and its rules spell out PV, CAPS and CINFO', T, async () => {
    const view = await linked(app.open, 'en', 0, 'jsonrpc');
    const { page } = view;
    const pv = page.locator(path('params._meta["io.modelcontextprotocol/protocolVersion"]'));
    await pv.focus();
    assert.match(await pv.locator('.fx').innerText(), /^Protocol version \(PV\)/);
    const abbrs = await page.locator(`${sel('inspector-rules')} [data-rule="M-META-REQUIRED"] ${sel('rule-abbrs')}`).innerText();
    assert.match(abbrs, /PV: protocol version/);
    assert.match(abbrs, /CAPS: client capabilities/);
    assert.match(abbrs, /CINFO: client info/);
    assert.ok(await page.locator(`${sel('inspector-rules')} abbr[title^="CINFO: client info"]`).count() > 0);
    await page.close();
  });

  test('on a phone a tapped key\'s explanation and the long values stay inside the screen', T, async () => {
    const phone = await launchChromium({ viewport: { width: 360, height: 740 } });
    try {
      for (const lang of ['en', 'zh']) {
        const view = await linked((p) => openPage(phone.context, app.url, p), lang, 1, 'jsonrpc');
        const { page } = view;
        const target = page.locator(path('result.instructions'));
        await target.scrollIntoViewIfNeeded();
        await target.click();
        assert.ok(await target.locator('.fx').isVisible(), 'a tap shows it');
        const fits = await page.evaluate((s) => {
          const fx = document.querySelector(`${s} .fx`).getBoundingClientRect();
          return fx.left >= 0 && fx.right <= window.innerWidth + 1;
        }, path('result.instructions'));
        assert.ok(fits, 'the explanation fits the screen');
        assert.deepEqual(await overflowing(page), []);
        await view.screenshot(`fields-${lang}-360`);
        await page.close();
      }
    } finally {
      await phone.close();
    }
  });
});
