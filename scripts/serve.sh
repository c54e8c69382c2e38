#!/usr/bin/env bash
# Serve the app: installs what building needs (scripts/setup.sh build), then
# `trunk serve --release --offline` on http://127.0.0.1:${PORT:-8080}/ with
# rebuild-on-save. Extra arguments are passed on to `trunk serve`.
#
#   scripts/serve.sh               http://127.0.0.1:8080/
#   PORT=9000 scripts/serve.sh     http://127.0.0.1:9000/
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$MCP_LANES_ROOT"

port="${PORT:-8080}"
case "$port" in ''|*[!0-9]*) echo "PORT must be a number, got '$port'" >&2; exit 2 ;; esac

scripts/setup.sh build

echo
echo "Serving mcp-lanes at http://127.0.0.1:${port}/  (first build takes a few minutes; Ctrl-C stops)"
echo
exec trunk serve --release --offline --address 127.0.0.1 --port "$port" "$@"
