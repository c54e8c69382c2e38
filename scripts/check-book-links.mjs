#!/usr/bin/env node
// Checks the relative links of the built book (mdbook build docs; step 2 of
// scripts/test.sh). Node 20, no packages.
//
//   node scripts/check-book-links.mjs [BUILD_DIR]     (default: target/book)
//
// Reads every .html file under BUILD_DIR and resolves each relative `href`
// and `src` attribute (links with a scheme, `//host` and root-absolute
// `/path` links are not relative and are skipped):
//   - inside the build: the file must exist (a folder needs its index.html),
//     and a `#fragment` must be an id (or a name) in the page it points to,
//     the same page included;
//   - outside the build: it is a link to a file of the repository, written
//     relative to the chapter's source (docs/src/<same folder as the page>),
//     e.g. `../../tests/peers/faulty/server.py`; that file must exist in the
//     repository. mdbook writes a link to `X.md` as `X.html`, so `X.html` is
//     accepted when `X.md` exists. Their fragments are not checked.
// A page with a root-absolute <base href> (mdbook's 404.html, from
// `site-url`) has its links resolved against the root of the build.
//
// Prints every broken link with its page; exits 1 if there is one, 2 on a
// usage error (no such folder, no HTML in it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bookSrc = path.join(repo, 'docs', 'src');
const build = path.resolve(process.argv[2] ?? path.join(repo, 'target', 'book'));

function usage(message) {
  console.error(`check-book-links: ${message}`);
  console.error('usage: node scripts/check-book-links.mjs [BUILD_DIR]   (default: target/book)');
  process.exit(2);
}

if (process.argv.length > 3) usage('one argument at most');
if (!fs.existsSync(build) || !fs.statSync(build).isDirectory()) usage(`${build} is not a folder: build the book first (mdbook build docs)`);

function htmlFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...htmlFiles(full));
    else if (entry.isFile() && entry.name.endsWith('.html')) out.push(full);
  }
  return out;
}

const entities = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'" };
function unescapeHtml(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
    const key = e.toLowerCase();
    if (key in entities) return entities[key];
    if (key.startsWith('#x')) return String.fromCodePoint(parseInt(key.slice(2), 16));
    if (key.startsWith('#')) return String.fromCodePoint(parseInt(key.slice(1), 10));
    return m;
  });
}

function decode(s) {
  try { return decodeURIComponent(s); } catch { return s; }
}

// Attribute values of real tags only: text in code blocks is escaped
// (`&lt;a href=&quot;…`), so it never matches.
const tagRe = /<[a-zA-Z][^<>]*>/g;
const attrRe = /\s(href|src|id|name)\s*=\s*("([^"]*)"|'([^']*)')/g;

const pages = new Map(); // absolute path -> {links: [{attr, value}], ids: Set}
function page(file) {
  let p = pages.get(file);
  if (p) return p;
  const html = fs.readFileSync(file, 'utf8');
  p = { links: [], ids: new Set(), base: null };
  for (const tag of html.matchAll(tagRe)) {
    const isBase = /^<base\s/i.test(tag[0]);
    for (const a of tag[0].matchAll(attrRe)) {
      const attr = a[1].toLowerCase();
      const value = unescapeHtml(a[3] ?? a[4]);
      if (attr === 'id' || attr === 'name') p.ids.add(value);
      else if (isBase && attr === 'href') p.base = value;
      else p.links.push({ attr, value });
    }
  }
  pages.set(file, p);
  return p;
}

const inside = (dir, file) => file === dir || file.startsWith(dir + path.sep);

const files = htmlFiles(build).sort();
if (files.length === 0) usage(`no .html files under ${build}`);

const broken = [];
let checked = 0;
for (const file of files) {
  const p = page(file);
  const rel = path.relative(build, file);
  // A root-absolute <base href> (404.html) stands for the root of the build.
  const baseDir = p.base && p.base.startsWith('/') ? build : path.dirname(file);
  for (const { attr, value } of p.links) {
    const link = value.trim();
    if (link === '' || /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//') || link.startsWith('/')) continue;
    checked++;
    const hash = link.indexOf('#');
    const fragment = hash >= 0 ? decode(link.slice(hash + 1)) : null;
    const target = decode((hash >= 0 ? link.slice(0, hash) : link).split('?')[0]);
    const fail = (why) => broken.push(`${rel}: ${attr}="${value}": ${why}`);

    if (target === '') {
      if (fragment && !p.ids.has(fragment)) fail(`no id "${fragment}" on this page`);
      continue;
    }
    let resolved = path.resolve(baseDir, target);
    if (inside(build, resolved)) {
      if (fs.existsSync(resolved) && fs.statSync(resolved).isDirectory()) resolved = path.join(resolved, 'index.html');
      if (!fs.existsSync(resolved)) { fail(`no such file in the book: ${path.relative(build, resolved)}`); continue; }
      if (fragment && resolved.endsWith('.html') && !page(resolved).ids.has(fragment)) {
        fail(`no id "${fragment}" in ${path.relative(build, resolved)}`);
      }
      continue;
    }
    // Outside the book: a file of the repository, relative to the chapter's source.
    const source = path.resolve(path.join(bookSrc, path.relative(build, baseDir)), target);
    if (!inside(repo, source)) { fail('leaves both the book and the repository'); continue; }
    const asMarkdown = source.endsWith('.html') ? source.slice(0, -'.html'.length) + '.md' : null;
    if (!fs.existsSync(source) && !(asMarkdown && fs.existsSync(asMarkdown))) {
      fail(`no such file in the repository: ${path.relative(repo, asMarkdown ?? source)}`);
    }
  }
}

for (const line of broken) console.error(`broken link: ${line}`);
const summary = `check-book-links: ${checked} relative links in ${files.length} pages, ${broken.length} broken`;
if (broken.length) {
  console.error(summary);
  process.exit(1);
}
console.log(summary);
