#!/usr/bin/env bash
# Gzip size of what the page loads on first visit — index.html (with the
# default scenario's run drawn whole at build time) and every file it
# references (figure.js, the stylesheet, the favicon), plus the largest
# figure a first visit may fetch: figures/<scenario>.<tag>.html, when the
# URL names a scenario or the reader's language is not English (the
# costliest scenario in the costliest language is the worst case) —
# against the budget below (issue 24: 60 KB). Files a first visit never
# loads (the WebAssembly bundles, fetched when a person changes something
# or the URL asks for them; embed.js; course-demo.html) are listed apart;
# the book in docs/, which scripts/serve.sh builds into dist/, is not
# counted (one line notes it). Prints a table and writes it to
# tests/e2e/artifacts/size.txt.
#
# The budget is enforced: an over-budget first visit fails the run (exit 1)
# with the table saying OVER BUDGET. SIZE_STRICT=0 only reports it (to look
# at the table while working on a change that is over).
#
#   scripts/measure-size.sh [DIST_DIR]     (default: dist)
#   SIZE_BUDGET_BYTES=60000                (budget; 1 KB = 1000 bytes)
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$MCP_LANES_ROOT"

dist="${1:-dist}"
# 60000: issue 24's budget for a first visit, in the costliest language
# (BENCHMARKS.md, "Page size (first visit)").
budget="${SIZE_BUDGET_BYTES:-60000}"
# 80000: issue 24's budget for what a course page of three script figures
# loads from us (embed.js, figure.js, figures/index.json, style.css and
# three drawn figures: the three largest of the costliest language, the
# worst case); tests/e2e/bundles.test.mjs also counts a real one.
course_budget="${COURSE_BUDGET_BYTES:-80000}"
out="tests/e2e/artifacts/size.txt"

[ -f "$dist/index.html" ] || { echo "measure-size: $dist/index.html not found; build first" >&2; exit 1; }
mkdir -p "$(dirname "$out")"

# index.html plus every local file it names (href/src), plus the largest
# figure it may fetch.
first_visit() {
  echo "index.html"
  grep -oE '(href|src)="[^"]+"' "$dist/index.html" | sed -E 's/^(href|src)="\/?//; s/"$//' \
    | grep -vE '^(https?:|data:|#|\?)' | sort -u | while read -r f; do
      [ -f "$dist/$f" ] && echo "$f"
    done
  if [ -d "$dist/figures" ]; then
    for t in "$dist"/figures/*.html; do
      case "$t" in *.embed.html) continue;; esac
      echo "$(gzip -9 -c "$t" | wc -c) figures/${t##*/}"
    done | sort -n | tail -1 | cut -d' ' -f2
  fi
}

table="$(
  total_raw=0 total_gz=0
  printf '%-48s %10s %10s\n' "first visit (gzip -9)" "bytes" "gzip"
  files="$(first_visit | sort -u)"
  for f in $files; do
    raw=$(wc -c <"$dist/$f"); gz=$(gzip -9 -c "$dist/$f" | wc -c)
    total_raw=$((total_raw + raw)); total_gz=$((total_gz + gz))
    printf '%-48s %10d %10d\n' "$f" "$raw" "$gz"
  done
  printf '%-48s %10d %10d\n' "TOTAL" "$total_raw" "$total_gz"
  # docs/ is the book, which scripts/serve.sh adds to dist/ (MCP_LANES_BOOK=1):
  # not part of the app: not counted, one line notes it.
  for f in $(cd "$dist" && find . -path ./docs -prune -o -type f -print | sed 's|^\./||' | sort); do
    case " $(echo $files) " in *" $f "*) continue;; esac
    printf '%-48s %10d %10d  (not loaded on first visit)\n' "$f" "$(wc -c <"$dist/$f")" "$(gzip -9 -c "$dist/$f" | wc -c)"
  done
  [ -d "$dist/docs" ] && printf '%-48s %10s %10s  (the book: not part of the app, not counted)\n' "docs/" "-" "-"
  pct=$((total_gz * 100 / budget))
  if [ "$total_gz" -le "$budget" ]; then verdict="within budget"; else verdict="OVER BUDGET"; fi
  printf 'budget: %d bytes gzip; first visit %d bytes (%d.%d KB, %d%%): %s\n' \
    "$budget" "$total_gz" $((total_gz / 1000)) $((total_gz % 1000 / 100)) "$pct" "$verdict"
)"

# The course page: the files embed.js loads for three script figures.
course() {
  for f in embed.js figure.js player.js figures/index.json style.css; do echo "$f"; done
  [ -d "$dist/figures" ] || return 0
  for tag in $(ls "$dist"/figures/*.embed.html | sed -E 's/.*\.([a-z-]+)\.embed\.html$/\1/' | sort -u); do
    sum=0 names=""
    for line in $(for t in "$dist"/figures/*."$tag".embed.html; do
        echo "$(gzip -9 -c "$t" | wc -c):figures/${t##*/}"
      done | sort -n | tail -3); do
      sum=$((sum + ${line%%:*})); names="$names ${line#*:}"
    done
    echo "$sum$names"
  done | sort -n | tail -1 | cut -d' ' -f2- | tr ' ' '\n'
}
course_table="$(
  total=0
  printf '%-48s %10s %10s\n' "course page, three script figures" "bytes" "gzip"
  for f in $(course); do
    [ -f "$dist/$f" ] || { printf '%-48s missing\n' "$f"; continue; }
    raw=$(wc -c <"$dist/$f"); gz=$(gzip -9 -c "$dist/$f" | wc -c)
    total=$((total + gz))
    printf '%-48s %10d %10d\n' "$f" "$raw" "$gz"
  done
  if [ "$total" -le "$course_budget" ]; then verdict="within budget"; else verdict="OVER BUDGET"; fi
  printf 'course budget: %d bytes gzip; three script figures %d bytes (%d.%d KB, %d%%): %s\n' \
    "$course_budget" "$total" $((total / 1000)) $((total % 1000 / 100)) $((total * 100 / course_budget)) "$verdict"
)"
table="$table
$course_table"

printf '%s\n' "$table" | tee "$out"
if printf '%s\n' "$table" | grep -E '^(budget|course budget):' | grep -q "OVER BUDGET"; then
  echo "measure-size: over a gzip budget (first visit ${budget} bytes, course page ${course_budget} bytes; see BENCHMARKS.md)" >&2
  [ "${SIZE_STRICT:-1}" = "0" ] || exit 1
fi
exit 0
