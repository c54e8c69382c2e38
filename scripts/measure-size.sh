#!/usr/bin/env bash
# Gzip size of everything in dist/ (what the page loads on first visit is a subset)
# against the budget in DESIGN.md: 200 KB gzip. Prints a table, writes it to
# tests/e2e/artifacts/size.txt and exits 1 when the total is over budget.
#
#   scripts/measure-size.sh [DIST_DIR]     (default: dist)
#   SIZE_BUDGET_BYTES=200000               (budget; 1 KB = 1000 bytes)
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$MCP_LANES_ROOT"

dist="${1:-dist}"
budget="${SIZE_BUDGET_BYTES:-200000}"
out="tests/e2e/artifacts/size.txt"

[ -f "$dist/index.html" ] || { echo "measure-size: $dist/index.html not found; build first" >&2; exit 1; }
mkdir -p "$(dirname "$out")"

table="$(
  total_raw=0 total_gz=0
  printf '%-48s %10s %10s\n' "file (gzip -9)" "bytes" "gzip"
  while IFS= read -r -d '' f; do
    raw=$(wc -c <"$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    total_raw=$((total_raw + raw)); total_gz=$((total_gz + gz))
    printf '%-48s %10d %10d\n' "${f#"$dist"/}" "$raw" "$gz"
  done < <(find "$dist" -type f -print0 | sort -z)
  printf '%-48s %10d %10d\n' "TOTAL" "$total_raw" "$total_gz"
  pct=$((total_gz * 100 / budget))
  if [ "$total_gz" -le "$budget" ]; then verdict="within budget"; else verdict="OVER BUDGET"; fi
  printf 'budget: %d bytes gzip; used %d bytes (%d.%d KB, %d%%): %s\n' \
    "$budget" "$total_gz" $((total_gz / 1000)) $((total_gz % 1000 / 100)) "$pct" "$verdict"
)"

printf '%s\n' "$table" | tee "$out"
if printf '%s\n' "$table" | tail -1 | grep -q "OVER BUDGET"; then
  echo "measure-size: dist/ is over the ${budget}-byte gzip budget" >&2
  exit 1
fi
