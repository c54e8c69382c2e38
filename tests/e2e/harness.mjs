// Browser test harness for mcp-lanes: serves the trunk build (dist/) from an
// in-process static HTTP server on an ephemeral 127.0.0.1 port, drives Debian's
// chromium with playwright-core, collects console errors/warnings and page
// errors, and saves screenshots into tests/e2e/artifacts/.
//
//   import { startApp } from './harness.mjs';
//   const app = await startApp();              // server + browser
//   const view = await app.open('/?scenario=discover');
//   await view.page.waitForSelector('h1');
//   assert.deepEqual(view.problems(), []);
//   await view.screenshot('discover');
//   await app.close();
//
// Environment: MCP_LANES_DIST (default <repo>/dist), CHROMIUM (default
// /usr/bin/chromium), E2E_ARTIFACTS (default tests/e2e/artifacts).

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');
export const DIST_DIR = path.resolve(process.env.MCP_LANES_DIST ?? path.join(REPO_ROOT, 'dist'));
export const ARTIFACTS_DIR = path.resolve(process.env.E2E_ARTIFACTS ?? path.join(here, 'artifacts'));
export const CHROMIUM_PATH = process.env.CHROMIUM ?? '/usr/bin/chromium';

// Flags for Debian chromium in a container with no network but package registries.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
  // small /dev/shm in containers crashes renderers; use /tmp instead
  '--disable-dev-shm-usage',
];

/**
 * The site's strict Content-Security-Policy (README, "Content Security
 * Policy"): no inline script or style, WebAssembly allowed, and connections
 * to the site and to loopback only (the live check reaches a server or
 * `mcp-lanes bridge` on 127.0.0.1 or localhost).
 */
export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self' http://127.0.0.1:* http://localhost:*";

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentType(file) {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

async function isFile(p) {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/**
 * Serve `root` over HTTP on 127.0.0.1 at an ephemeral port. `/` and extension-less
 * unknown paths get index.html (the app reads `?scenario=` etc. itself).
 * `headers` are added to every file served (e.g. a Content-Security-Policy).
 * Returns { url, requests, close() }; `requests` lists "STATUS METHOD PATH".
 */
export async function startStaticServer(root = DIST_DIR, { headers = {} } = {}) {
  if (!(await isFile(path.join(root, 'index.html')))) {
    throw new Error(
      `${root}/index.html not found: build the app first (trunk build --release --offline, or scripts/test.sh)`,
    );
  }
  const requests = [];
  const server = createServer(async (req, res) => {
    const send = (status, type, body) => {
      requests.push(`${status} ${req.method} ${req.url}`);
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
      let rel = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
      if (rel.endsWith('/')) rel += 'index.html';
      const file = path.resolve(root, '.' + rel);
      if (file !== root && !file.startsWith(root + path.sep)) return send(403, 'text/plain', 'forbidden\n');
      let target = file;
      if (!(await isFile(target))) {
        if (path.extname(rel) !== '') return send(404, 'text/plain', 'not found\n');
        target = path.join(root, 'index.html');
      }
      const { size } = await stat(target);
      requests.push(`200 ${req.method} ${req.url}`);
      res.writeHead(200, {
        'content-type': contentType(target),
        'content-length': size,
        'cache-control': 'no-store',
        ...headers,
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(target).pipe(res);
    } catch (err) {
      send(500, 'text/plain', `${err}\n`);
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A run of four or more plain English words (MCP terms carry `/`, `_`,
 * `.`, `-`, digits or inner capitals, and do not count), or null: how the
 * language tests find English left in a translated page. */
export const englishRun = (text) => {
  let run = [];
  for (const raw of text.split(/[^\x21-\x7e]|["()]/)) {
    const w = raw.replace(/^[,;:.!?]+|[,;:.!?]+$/g, '');
    if (/^[A-Za-z'][a-z']*$/.test(w)) {
      run.push(w);
      if (run.length >= 4) return run.join(' ');
    } else run = [];
  }
  return null;
};

/**
 * Launch Debian chromium headless with a fresh temporary profile.
 * Returns { context, close() } (a playwright BrowserContext).
 */
export async function launchChromium({ viewport = { width: 1280, height: 800 } } = {}) {
  const profile = await mkdtemp(path.join(tmpdir(), 'mcp-lanes-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
      timeout: 60_000,
    });
  } catch (err) {
    await rm(profile, { recursive: true, force: true });
    throw new Error(`could not launch ${CHROMIUM_PATH} (run scripts/setup.sh): ${err.message}`);
  }
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Save a full-page PNG screenshot as tests/e2e/artifacts/<name>.png; returns the path. */
export async function saveScreenshot(page, name) {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Open `urlPath` (relative to the served dist/) in a new tab and record what the
 * page reports. Returns a view:
 *   page         the playwright Page
 *   console      every console message as "type: text"
 *   problems()   console errors and warnings, page errors (uncaught exceptions,
 *                panics) and failed requests: a healthy page has none
 *   screenshot(name)  save artifacts/<name>.png and artifacts/<name>.console.txt
 */
export async function openPage(context, baseUrl, urlPath = '/', { waitUntil = 'load' } = {}) {
  const page = await context.newPage();
  const consoleLines = [];
  const problems = [];
  page.on('console', (msg) => {
    const line = `${msg.type()}: ${msg.text()}`;
    consoleLines.push(line);
    if (msg.type() === 'error' || msg.type() === 'warning') {
      const loc = msg.location();
      problems.push(loc?.url ? `${line} (${loc.url}:${loc.lineNumber})` : line);
    }
  });
  page.on('pageerror', (err) => {
    consoleLines.push(`pageerror: ${err.message}`);
    problems.push(`pageerror: ${err.stack ?? err.message}`);
  });
  page.on('requestfailed', (req) => {
    problems.push(`requestfailed: ${req.url()} ${req.failure()?.errorText ?? ''}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`http ${res.status()}: ${res.url()}`);
  });
  const url = new URL(urlPath, baseUrl).href;
  await page.goto(url, { waitUntil });
  return {
    page,
    url,
    console: consoleLines,
    problems: () => [...problems],
    screenshot: async (name) => {
      const file = await saveScreenshot(page, name);
      await writeFile(path.join(ARTIFACTS_DIR, `${name}.console.txt`), (consoleLines.join('\n') || '(no console messages)') + '\n');
      return file;
    },
  };
}

/**
 * Opens `urlPath` of `app` (a page or figure with the editor tab), shows
 * the request editor (the lite page hands over to the full bundle) and
 * waits for its text. Returns the view.
 */
export async function openEditor(app, urlPath = '/?scenario=discover') {
  const view = await app.open(urlPath);
  const { page } = view;
  await page.locator('[data-testid="tab-editor"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="tab-editor"]').click();
  await page.locator('[data-testid="editor-text"]').waitFor({ state: 'visible', timeout: 30_000 });
  return view;
}

/**
 * Start the static server and the browser together.
 * Returns { url, server, context, open(path, opts), close() }.
 */
export async function startApp(options = {}) {
  const server = await startStaticServer(options.dist ?? DIST_DIR, { headers: options.headers });
  let browser;
  try {
    browser = await launchChromium(options);
  } catch (err) {
    await server.close();
    throw err;
  }
  return {
    url: server.url,
    server,
    context: browser.context,
    open: (urlPath = '/', opts) => openPage(browser.context, server.url, urlPath, opts),
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
