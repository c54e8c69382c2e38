#!/usr/bin/env bash
# trunk post_build hook (Trunk.toml), in every profile:
#   1. scripts/extract-loader.mjs: moves the module script trunk writes inline
#      into index.html (it starts the lite bundle) into its own file,
#      start.js, so the page runs under a strict Content-Security-Policy
#      (`script-src 'self'`, no 'unsafe-inline'); see README, "Content
#      Security Policy".
#   2. scripts/minify-js.sh (release only): terser over the JS glue.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
node "$here/extract-loader.mjs" "$dir"
bash "$here/minify-js.sh"
