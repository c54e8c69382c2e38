#!/usr/bin/env bash
# trunk post_build hook (Trunk.toml), in every profile:
#   0. mcp-lanes-figures (src/bin/figures.rs, native): every catalog
#      scenario's complete figure in every language into figures/, and the
#      first visit's into index.html (view::figure; www/figure.js plays it).
#   1. scripts/drop-loader.mjs: takes out the loader (and preloads) trunk
#      writes into index.html for the lite bundle: a first visit loads no
#      WebAssembly (figure.js imports a bundle when needed), and with no
#      inline script the page runs under a strict Content-Security-Policy
#      (`script-src 'self'`); see the book, "Content Security Policy".
#   2. scripts/split-catalogs.mjs: each catalog in i18n/ in two, the keys the
#      lite bundle may show (<tag>.json, first visit) and those only the full
#      bundle shows (<tag>.full.json).
#   3. scripts/split-notes.mjs: each language's notes' templates
#      (<tag>.notes.json) also per scenario, <tag>.notes/<scenario>.json,
#      what that scenario's recorded run needs (the lite bundle's fetch).
#   4. release builds only: scripts/minify-js.sh (terser over the JS glue)
#      and scripts/minify-css.mjs (comments and whitespace out of style.css).
#   5. only when MCP_LANES_BOOK=1 (scripts/serve.sh sets it): the book,
#      `mdbook build docs`, into docs/ of the output, so that `trunk serve`
#      serves it at /docs/. A plain `trunk build` (scripts/test.sh, which
#      measures and tests dist/) leaves it out.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The complete figures first (the loader's step strips comments, and the
# first visit's figure goes where index.html has one).
( cd "$here/.." && cargo run --quiet --release --bin mcp-lanes-figures -- "$dir" )
node "$here/drop-loader.mjs" "$dir"
node "$here/split-catalogs.mjs" "$dir"
node "$here/split-notes.mjs" "$dir"
bash "$here/minify-js.sh"
[ "${TRUNK_PROFILE:-release}" = "release" ] && node "$here/minify-css.mjs" "$dir"
if [ "${MCP_LANES_BOOK:-0}" = "1" ]; then
  command -v mdbook >/dev/null 2>&1 || { echo "post-build: mdbook not found (scripts/setup.sh build installs it)" >&2; exit 1; }
  # --dest-dir is taken relative to the book's root: pass it absolute.
  if ! mdbook build "$here/../docs" --dest-dir "$(cd "$dir" && pwd)/docs"; then
    echo "post-build: mdbook build docs failed" >&2
    exit 1
  fi
fi
exit 0
