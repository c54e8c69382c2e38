// Minifies the stylesheets trunk copied into its staging directory (release
// builds; run by scripts/post-build.sh): comments out, runs of whitespace
// collapsed, and the spaces around `{ } ; , >` dropped. Nothing else is
// rewritten (a space before `:` can be a descendant combinator, and the
// spaces inside calc() are meaningful), so the rules stay the same rules.
// index.html links style.css without an integrity hash (data-integrity="none"
// in the source index.html), since this changes its bytes after trunk.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

for (const name of ['style.css', 'full.css']) minify(path.join(process.argv[2] ?? '.', name));

function minify(file) {
const css = readFileSync(file, 'utf8');
const out = css
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\s+/g, ' ')
  .replace(/\s*([{};,>])\s*/g, '$1')
  .replace(/;}/g, '}')
  .trim();
if (!out || (out.match(/{/g) ?? []).length !== (out.match(/}/g) ?? []).length) {
  console.error(`minify-css: unbalanced braces; leaving ${file} as it is`);
  return;
}
writeFileSync(file, out + '\n');
}
