#!/usr/bin/env bash
# trunk post_build hook (Trunk.toml): minifies the wasm-bindgen JS glue of
# both bundles, and embed.js (a classic script, which a page of script
# figures loads first; www/embed.js keeps its comments), with terser
# (tests/e2e/node_modules, installed by setup.sh).
# trunk 0.21's own minifier cannot parse the glue. Without terser the build
# still succeeds, unminified, with a warning (about 2 KB gzip more).
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
terser="$root/tests/e2e/node_modules/.bin/terser"
[ "${TRUNK_PROFILE:-release}" = "release" ] || exit 0
if [ ! -x "$terser" ]; then
  echo "minify-js: terser not installed (scripts/setup.sh installs it); leaving the JS glue as it is" >&2
  exit 0
fi
for f in "$dir"/mcp-lanes-*.js; do
  [ -f "$f" ] || continue
  "$terser" "$f" --module --compress --mangle -o "$f.min"
  mv "$f.min" "$f"
done
# The bundles' own JS snippets (wasm-bindgen's inline_js: the loaders; the
# DOM patcher's module, src/runtime/morph.js), modules too.
for f in "$dir"/snippets/*/*.js "$dir"/snippets/*/src/runtime/*.js; do
  [ -f "$f" ] || continue
  "$terser" "$f" --module --compress --mangle -o "$f.min"
  mv "$f.min" "$f"
done
if [ -f "$dir/embed.js" ]; then
  "$terser" "$dir/embed.js" --compress --mangle -o "$dir/embed.js.min"
  mv "$dir/embed.js.min" "$dir/embed.js"
fi
for f in "$dir/figure.js" "$dir/player.js"; do
  [ -f "$f" ] || continue
  "$terser" "$f" --module --compress --mangle -o "$f.min"
  mv "$f.min" "$f"
done
