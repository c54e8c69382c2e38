#!/usr/bin/env bash
# The page's benchmarks (BENCHMARKS.md): each bench/page/NAME.mjs opens the
# built page in headless chromium through tests/e2e/harness.mjs, measures,
# prints its figures and writes them to tests/e2e/artifacts/ (E2E_ARTIFACTS
# to change that). Nothing here is a test: no figure is asserted, and
# `node --test tests/e2e/` does not run them.
#
#   scripts/bench-page.sh                  every benchmark, one after the other
#   scripts/bench-page.sh editor paste     some of them
#
#   editor     Send to rendered reply, 1 KB and 64 KB   -> editor-bench.txt, .json
#   paste      keystrokes in a 5 MB paste, Format        -> paste-bench.txt
#   playback   frame times, 3 lanes x 200 messages       -> playback-bench.txt, .png
#   step       one step of the drawn and the full page   -> step-bench.txt
#   handover   lite page to full bundle, cold cache      -> handover.txt
#
# Builds nothing: it expects the release build in dist/ (make it with
# `. scripts/env.sh && trunk build --release --offline`), or in the folder
# MCP_LANES_DIST names, and the npm packages of tests/e2e (scripts/setup.sh).
# Measure on a quiet machine: a loaded one gives other processes' time.
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$MCP_LANES_ROOT"

dist="${MCP_LANES_DIST:-$MCP_LANES_ROOT/dist}"
if [ ! -f "$dist/index.html" ]; then
  echo "bench-page.sh: $dist/index.html not found: build the page first (trunk build --release --offline)" >&2
  exit 2
fi

if [ "$#" -eq 0 ]; then
  set -- editor paste playback step handover
fi
for name in "$@"; do
  file="bench/page/$name.mjs"
  if [ ! -f "$file" ]; then
    echo "bench-page.sh: no benchmark $file" >&2
    exit 2
  fi
  printf '\n==== %s ====\n' "$file"
  node "$file"
done
