// One grader: the page's live check and `mcp-lanes check` run the same plan
// (the core's) and must give the same verdict on every rule, on the correct
// faulty-server implementations and on every fault of FAULTS.md, and on a
// process that is not MCP at all (`cat`). Both check the server through the
// same kind of `mcp-lanes bridge` (a fresh bridge, so a fresh server
// process, for each), with the tool page_oncall named in both. Every rule
// is compared, S-SCHEMA included (the page runs the core's validator in a
// worker of its own when the check ends). After a faulty check the page leads with "What to fix", and
// its first entry shows the failing message in the inspector, failing
// verdict first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './harness.mjs';
import { binary, cliPeers, strictApp } from './cli-peers.mjs';

const T = { timeout: 1_200_000 };
const sel = (id) => `[data-testid="${id}"]`;
const FAULTY = path.join(REPO_ROOT, 'tests/peers/faulty');
const TOOL = 'page_oncall';
const ARGS = '{"service":"api"}';
const FAULTS = [
  'no-answer-unknown-method', 'declared-unanswered', 'bad-schema', 'init-no-server-info',
  'echo-any-version', 'elicit-undeclared', 'discover-no-capabilities', 'no-result-type',
  'no-cache-hints', 'version-wrong-data', 'meta-lenient', 'unknown-method-32602',
  'unknown-tool-32601', 'cap-wrong-code', 'stateful-caps', 'elicit-without-cap',
  'init-unnamed', 'status-200', 'no-header-check',
];

let app;
const peers = cliPeers();

before(async () => {
  app = await strictApp();
});
after(async () => {
  peers.stopAll();
  await app?.close();
});

/** A fresh bridge to `command` (a stdio server), allowing the page's origin. */
async function bridge(command) {
  const origin = new URL(app.url).origin;
  const port = await peers.start(['bridge', '--cmd', command, '--port', '0', '--allow-origin', origin, '--timeout', '5000']);
  return `http://127.0.0.1:${port}/mcp`;
}

/** Per rule: fail if any exchange failed it, else pass if any passed, else n/a. */
function outcomes(verdicts) {
  const by = {};
  for (const v of verdicts) {
    const was = by[v.rule];
    if (v.verdict === 'fail' || was === 'fail') by[v.rule] = 'fail';
    else if (v.verdict === 'pass' || was === 'pass') by[v.rule] = 'pass';
    else by[v.rule] = 'n/a';
  }
  return by;
}

/**
 * `mcp-lanes check --url URL` with the tool named: per-rule outcomes and the
 * exit code. Asynchronous: the bridges' logs are read by this event loop,
 * which a synchronous child would block (their pipes would fill and stall
 * them).
 */
function cliCheck(url) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary(), ['check', '--url', url, '--tool', TOOL, '--args', ARGS, '--format', 'json', '--timeout', '5000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      try {
        resolve({ rules: outcomes(JSON.parse(out).verdicts), status });
      } catch (e) {
        reject(new Error(`check ${url}: ${e.message}\n${err}`));
      }
    });
  });
}

/** The page's live check of URL with the tool named: per-rule outcomes from the summary. */
async function pageCheck(page, url) {
  const opened = await page.locator(sel('check-url')).isVisible();
  if (!opened) await page.locator(sel('check-toggle')).click();
  await page.locator(sel('check-url')).fill(url);
  await page.locator(sel('check-tool')).fill(TOOL);
  await page.locator(sel('check-args')).fill(ARGS);
  await page.locator(sel('check-run')).click();
  // The status still says "Done." from the last check until this one starts.
  await page.locator(`${sel('check-run')}[disabled]`).waitFor({ timeout: 30_000 });
  await page.locator(`${sel('check-status')}:has-text("Done.")`).waitFor({ timeout: 120_000 });
  const rules = await page.$$eval('.check-rules li.rule-count', (items) =>
    Object.fromEntries(items.map((li) => [li.dataset.rule, li.dataset.verdict])),
  );
  return rules;
}

async function agree(page, command, name) {
  const fromPage = await pageCheck(page, await bridge(command));
  const fromCli = await cliCheck(await bridge(command));
  assert.deepEqual(fromPage, fromCli.rules, `${name}: the page and the CLI disagree`);
  return { rules: fromPage, status: fromCli.status };
}

test('the page and the CLI give the same verdicts on correct servers, every fault and cat', T, async () => {
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('player')).waitFor({ timeout: 30_000 });
  for (const [program, file] of [['python3', 'server.py'], ['node', 'server.mjs']]) {
    const server = `${program} ${path.join(FAULTY, file)}`;
    const clean = await agree(page, server, `${file} (correct)`);
    assert.ok(!Object.values(clean.rules).includes('fail'), `${file}: ${JSON.stringify(clean.rules)}`);
    assert.equal(clean.status, 0);
    for (const fault of FAULTS) {
      const seen = await agree(page, `${server} --fault ${fault}`, `${file} --fault ${fault}`);
      // Through the bridge the server speaks stdio: its HTTP faults
      // (status-200, no-header-check) do not apply there, the bridge sets the
      // statuses and checks the headers. Every other fault fails.
      if (fault !== 'no-header-check' && fault !== 'status-200') {
        assert.ok(Object.values(seen.rules).includes('fail'), `${file} --fault ${fault}: ${JSON.stringify(seen.rules)}`);
      }
    }
  }
  const cat = await agree(page, 'cat', 'cat');
  assert.equal(cat.rules['S-ANSWER'], 'fail');
  assert.equal(cat.status, 1);
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
});

test('after a faulty check the page leads with what to fix, and shows the failing message', T, async () => {
  const view = await app.open('/?scenario=discover');
  const { page } = view;
  await page.locator(sel('player')).waitFor({ timeout: 30_000 });
  const url = await bridge(`python3 ${path.join(FAULTY, 'server.py')} --fault cap-wrong-code`);
  await pageCheck(page, url);
  const line = page.locator(sel('check-summary-line'));
  assert.match(await line.getAttribute('class'), /has-fail/, 'no green summary while a rule failed');
  const first = page.locator(sel('to-fix-0'));
  assert.equal(await first.getAttribute('data-rule'), 'M-CAP-REQUIRED');
  // "What to fix" comes before the rules list.
  const order = await page.$eval(sel('check-summary'), (el) => {
    const fix = el.querySelector('[data-testid="check-to-fix"]');
    const rules = el.querySelector('[data-testid="check-rules"]');
    return fix && rules ? fix.compareDocumentPosition(rules) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
  });
  assert.ok(order, 'what to fix leads');
  const show = page.locator(sel('to-fix-show-0'));
  const [lane, event] = [await show.getAttribute('data-lane'), await show.getAttribute('data-event')];
  await show.click();
  // The failing message is drawn and scrolled into the window.
  await page.waitForFunction(
    ([l, e]) => {
      const el = document.querySelector(`[data-testid="message-${l}-${e}"]`);
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    },
    [lane, event],
    { timeout: 10_000 },
  );
  const inspector = page.locator(sel('inspector-verdicts'));
  await inspector.waitFor({ timeout: 10_000 });
  const firstVerdict = inspector.locator('li.verdict-item').first();
  assert.equal(await firstVerdict.getAttribute('data-verdict'), 'fail');
  assert.equal(await firstVerdict.getAttribute('data-rule'), 'M-CAP-REQUIRED');
  assert.ok(await inspector.isVisible());
  await view.screenshot('check-what-to-fix');
});
