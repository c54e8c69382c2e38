#!/usr/bin/env bash
# Serve the app and the book: installs what building needs (scripts/setup.sh
# build), then `trunk serve --release --offline` on
# http://127.0.0.1:${PORT:-8080}/ with rebuild-on-save (no auto-reload: reload
# the page by hand). The book (docs/, mdbook)
# is built into dist/docs/ by trunk's post-build hook (scripts/post-build.sh,
# asked for with MCP_LANES_BOOK=1) and served at /docs/; trunk does not watch
# docs/, so restart to see a change to the book. Extra arguments are passed on
# to `trunk serve`.
#
#   scripts/serve.sh               http://127.0.0.1:8080/ and /docs/
#   PORT=9000 scripts/serve.sh     http://127.0.0.1:9000/ and /docs/
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$MCP_LANES_ROOT"

port="${PORT:-8080}"
case "$port" in ''|*[!0-9]*) echo "PORT must be a number, got '$port'" >&2; exit 2 ;; esac

scripts/setup.sh build

echo
echo "Serving mcp-lanes at http://127.0.0.1:${port}/ and its book at http://127.0.0.1:${port}/docs/"
echo "(first build takes a few minutes; Ctrl-C stops)"
echo
export MCP_LANES_BOOK=1
# --no-autoreload: trunk's auto-reload is an inline <script> in index.html,
# which the page's strict Content-Security-Policy forbids and the post-build
# hook (scripts/extract-loader.mjs) refuses ("an inline script is left"), so
# every build failed. Rebuild-on-save stays; reload the page by hand.
exec trunk serve --release --offline --no-autoreload --address 127.0.0.1 --port "$port" "$@"
