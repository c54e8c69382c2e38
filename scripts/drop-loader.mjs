// Takes out of index.html what trunk writes to start the lite bundle: the
// inline <script type="module"> loader and the preloads of its module,
// snippets and wasm. The page loads no WebAssembly on a first visit: the
// build drew its figure (mcp-lanes-figures) and figure.js plays it, and
// imports a bundle only when a reader needs one. With no inline script
// left, the page also runs under a strict Content-Security-Policy
// (`script-src 'self'`; the book, "Content Security Policy",
// docs/src/csp.md). Run by scripts/post-build.sh with trunk's staging
// directory as its argument. Fails loudly when the page has no such loader,
// or more than one, so a trunk upgrade that changes what it writes is
// noticed at build time.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: drop-loader.mjs <trunk staging dir>');
  process.exit(2);
}
const page = path.join(dir, 'index.html');
const html = readFileSync(page, 'utf8');
const inline = /<script type="module">([\s\S]*?)<\/script>/g;
const found = [...html.matchAll(inline)];
if (found.length !== 1) {
  console.error(`drop-loader: expected one inline module script in ${page}, found ${found.length}`);
  process.exit(1);
}
const out = html
  .replace(inline, '')
  .replace(/<link rel="(?:modulepreload|preload)" href="\/(?:mcp-lanes-|snippets\/)[^"]*"[^>]*>/g, '');
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(out)) {
  console.error('drop-loader: an inline script is left in index.html');
  process.exit(1);
}
if (/_bg\.wasm/.test(out)) {
  console.error('drop-loader: index.html still names a wasm file');
  process.exit(1);
}
// Comments and blank lines are for the source index.html, not the page.
writeFileSync(page, out.replace(/<!--[\s\S]*?-->/g, '').replace(/\n\s*\n/g, '\n'));
