// Node's fs plus globSync, for Node 20 (see register.mjs).
//
// globSync here covers what the conformance suite asks of it (today one call:
// globSync("**/checks.json", { cwd }) in `tier-check` and `traceability`) and
// the ordinary rest of Node 22's contract: one pattern or an array of them,
// segments of literal names, `*`, `?`, `[...]` classes, `{a,b}` alternatives
// and `**` for any depth (zero or more directories); options `cwd` (string or
// file URL) and `exclude` (a function of the path). Results are paths
// relative to cwd (absolute for an absolute pattern), with the platform's
// separator, as Node 22 returns them. Dot files match only a segment that
// starts with a dot; `**` does not enter symbolic links to directories.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export * from 'node:fs';
export default fs;

/** One glob segment as a RegExp (anchored), or null when it is literal. */
function segmentRegExp(segment) {
  if (!/[*?[{]/.test(segment)) return null;
  let out = '';
  let i = 0;
  let braces = 0;
  while (i < segment.length) {
    const c = segment[i];
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        let body = segment.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = '^' + body.slice(1);
        out += '[' + body + ']';
        i = end;
      }
    } else if (c === '{') { out += '(?:'; braces++; }
    else if (c === '}' && braces > 0) { out += ')'; braces--; }
    else if (c === ',' && braces > 0) out += '|';
    else out += c.replace(/[.+^$|()\\]/g, '\\$&');
    i++;
  }
  return new RegExp('^' + out + '$');
}

function matches(name, segment, re) {
  if (re === null) return name === segment;
  if (name.startsWith('.') && !segment.startsWith('.')) return false;
  return re.test(name);
}

function entries(dir) {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Walks `segments` from `dir` (absolute), adding matches as `rel` paths. */
function walk(dir, rel, segments, found) {
  if (segments.length === 0) {
    if (rel !== '') found.add(rel);
    return;
  }
  const [segment, ...rest] = segments;
  const join = (name) => (rel === '' ? name : path.join(rel, name));
  if (segment === '**') {
    walk(dir, rel, rest, found); // zero directories
    for (const entry of entries(dir)) {
      if (entry.name.startsWith('.') || !entry.isDirectory()) continue;
      walk(path.join(dir, entry.name), join(entry.name), segments, found);
    }
    return;
  }
  if (segment === '' || segment === '.') {
    walk(dir, rel, rest, found);
    return;
  }
  if (segment === '..') {
    walk(path.dirname(dir), join('..'), rest, found);
    return;
  }
  const re = segmentRegExp(segment);
  if (re === null) {
    const full = path.join(dir, segment);
    if (rest.length === 0 ? fs.existsSync(full) : isDirectory(full)) {
      walk(full, join(segment), rest, found);
    }
    return;
  }
  for (const entry of entries(dir)) {
    if (!matches(entry.name, segment, re)) continue;
    if (rest.length > 0 && !isDirectory(path.join(dir, entry.name))) continue;
    walk(path.join(dir, entry.name), join(entry.name), rest, found);
  }
}

function isDirectory(p) {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** fs.globSync as Node 22 has it (the subset described above). */
export function globSync(pattern, options = {}) {
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  let cwd = options.cwd ?? process.cwd();
  if (cwd instanceof URL) cwd = fileURLToPath(cwd);
  cwd = path.resolve(String(cwd));
  const found = new Set();
  for (const p of patterns) {
    const normal = String(p).replace(/\\/g, '/');
    if (path.isAbsolute(normal)) {
      const root = path.parse(normal).root;
      walk(root, root, normal.slice(root.length).split('/'), found);
    } else {
      walk(cwd, '', normal.split('/'), found);
    }
  }
  let result = [...found];
  if (typeof options.exclude === 'function') {
    result = result.filter((p) => !options.exclude(p));
  }
  return result;
}
