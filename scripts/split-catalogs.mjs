// Splits each page catalog trunk copied into <staging>/i18n/ (www/i18n/<tag>.json,
// the whole language) in two, so that a first visit fetches only what the lite
// bundle shows:
//   <tag>.json       what the lite bundle may show (fetched before the first render);
//   <tag>.full.json  the keys only the full bundle shows (fetched by the full
//                    bundle's start and `mount`, see browser::load_catalog).
// A key moves to <tag>.full.json only when both hold: its first segment is one
// of FULL_ONLY below (the check views, live checks, verdicts, the editor, the
// settings panel, the exporters, scenario files), and the key's text does not
// occur in the lite bundle's WebAssembly (the only way the lite bundle names a
// key is a string literal; keys made at run time, `scenario.{id}.title`,
// `rule.{id}`, are outside FULL_ONLY). Every other key, and any new family of
// keys, stays in <tag>.json. The source catalogs in www/i18n/ stay whole (the
// catalog tests and the native build read them). Run by scripts/post-build.sh
// with trunk's staging directory as its argument.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const FULL_ONLY = new Set(['check', 'live', 'verdict', 'editor', 'settings', 'export', 'file']);
// Keys the page never shows (the command line's own text, `cli.*`, which
// the CLI embeds from www/i18n/ at build time): left out of dist.
const CLI_ONLY = new Set(['cli']);

const dir = process.argv[2];
if (!dir) {
  console.error('usage: split-catalogs.mjs <trunk staging dir>');
  process.exit(2);
}
const wasm = path.join(dir, 'mcp-lanes-lite_bg.wasm');
const i18n = path.join(dir, 'i18n');
if (!existsSync(wasm) || !existsSync(i18n)) process.exit(0);
const lite = readFileSync(wasm);
const named = (key) => lite.includes(Buffer.from(key, 'utf8'));

for (const file of readdirSync(i18n)) {
  const tag = file.match(/^([A-Za-z-]+)\.json$/)?.[1];
  if (!tag || tag === 'languages') continue;
  const whole = JSON.parse(readFileSync(path.join(i18n, file), 'utf8'));
  const first = {};
  const full = {};
  for (const [key, text] of Object.entries(whole)) {
    if (CLI_ONLY.has(key.split('.')[0])) continue;
    if (FULL_ONLY.has(key.split('.')[0]) && !named(key)) full[key] = text;
    else first[key] = text;
  }
  writeFileSync(path.join(i18n, file), JSON.stringify(first));
  writeFileSync(path.join(i18n, `${tag}.full.json`), JSON.stringify(full));
}
