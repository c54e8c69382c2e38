// Moves the inline <script type="module"> that trunk writes into
// index.html (the loader that starts the lite bundle) into start.js next to
// it, and points the page at that file: a strict Content-Security-Policy
// (`script-src 'self'`) forbids inline scripts. Run by scripts/post-build.sh
// with trunk's staging directory as its argument. Fails loudly when the page
// has no such script, or more than one, so a trunk upgrade that changes
// what it writes is noticed at build time.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: extract-loader.mjs <trunk staging dir>');
  process.exit(2);
}
const page = path.join(dir, 'index.html');
const html = readFileSync(page, 'utf8');
const inline = /<script type="module">([\s\S]*?)<\/script>/g;
const found = [...html.matchAll(inline)];
if (found.length !== 1) {
  console.error(`extract-loader: expected one inline module script in ${page}, found ${found.length}`);
  process.exit(1);
}
writeFileSync(path.join(dir, 'start.js'), found[0][1].trim() + '\n');
const out = html.replace(inline, '<script type="module" src="/start.js"></script>');
if (/<script(?![^>]*\bsrc=)[^>]*>/.test(out)) {
  console.error('extract-loader: an inline script is left in index.html');
  process.exit(1);
}
// Comments and blank lines are for the source index.html, not the page.
writeFileSync(page, out.replace(/<!--[\s\S]*?-->/g, '').replace(/\n\s*\n/g, '\n'));
