#!/usr/bin/env bash
# Gzip size of what the page loads on first visit — index.html and every
# file it references (the lite bundle's wasm, its JS glue and snippets, the
# stylesheet, the favicon), plus the largest of the recorded runs in
# timelines/ (a first visit fetches one scenario's; the largest is the
# worst case) and the message catalog of the costliest language (its
# <tag>.json and, but for English, the largest of its scenarios' notes,
# <tag>.notes/<scenario>.json) —
# against the budget below (DESIGN.md: 200 KB; issue 16: 150 KB). Files a first
# visit never loads (the full bundle, fetched when a person changes
# something; embed.js; course-demo.html) are listed apart; the book in docs/,
# which scripts/serve.sh builds into dist/, is not counted (one line notes it).
# Prints a table and writes it to tests/e2e/artifacts/size.txt.
#
# The budget is enforced: an over-budget first visit fails the run (exit 1)
# with the table saying OVER BUDGET. SIZE_STRICT=0 only reports it (to look
# at the table while working on a change that is over).
#
#   scripts/measure-size.sh [DIST_DIR]     (default: dist)
#   SIZE_BUDGET_BYTES=150000               (budget; 1 KB = 1000 bytes)
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$MCP_LANES_ROOT"

dist="${1:-dist}"
# 150000: issue 16's budget for a first visit, in Chinese, the costliest
# language (BENCHMARKS.md, "Page size (first visit)"); a page of
# three script figures is held to the same budget by
# tests/e2e/bundles.test.mjs.
budget="${SIZE_BUDGET_BYTES:-150000}"
out="tests/e2e/artifacts/size.txt"

[ -f "$dist/index.html" ] || { echo "measure-size: $dist/index.html not found; build first" >&2; exit 1; }
mkdir -p "$(dirname "$out")"

# index.html plus every local file it names (href/src), plus the wasm its
# JS glue fetches (same base name with _bg.wasm).
first_visit() {
  echo "index.html"
  grep -oE '(href|src)="[^"]+"' "$dist/index.html" | sed -E 's/^(href|src)="\/?//; s/"$//' \
    | grep -vE '^(https?:|data:|#)' | sort -u | while read -r f; do
      [ -f "$dist/$f" ] && echo "$f"
      case "$f" in *.js) w="${f%.js}_bg.wasm"; [ -f "$dist/$w" ] && echo "$w";; esac
    done
  # The largest recorded run (gzip), the worst case of the one fetched.
  if [ -d "$dist/timelines" ]; then
    for t in "$dist"/timelines/*.json; do
      echo "$(gzip -9 -c "$t" | wc -c) timelines/${t##*/}"
    done | sort -n | tail -1 | cut -d' ' -f2
  fi
  # The message catalog of the language whose first visit costs most: a
  # visit fetches its language's catalog, <tag>.json, and, in a language
  # other than English, the notes' templates its scenario's recorded run
  # needs, <tag>.notes/<scenario>.json (the largest counted; English shows
  # the core's own notes). Not counted: the whole <tag>.notes.json, which
  # only the full bundle fetches; the rules' summaries, <tag>.rules.json,
  # fetched when a reader first inspects a message; the full bundle's
  # keys, <tag>.full.json, fetched with the full bundle.
  if [ -d "$dist/i18n" ]; then
    for t in "$dist"/i18n/*.json; do
      case "$t" in */languages.json|*.rules.json|*.full.json|*.notes.json) continue;; esac
      tag="$(basename "$t" .json)"
      gz=$(gzip -9 -c "$t" | wc -c)
      files="i18n/$tag.json"
      if [ "$tag" != en ] && [ -d "$dist/i18n/$tag.notes" ]; then
        part="$(for n in "$dist/i18n/$tag.notes"/*.json; do
          echo "$(gzip -9 -c "$n" | wc -c) i18n/$tag.notes/${n##*/}"
        done | sort -n | tail -1)"
        gz=$((gz + ${part%% *}))
        files="$files ${part#* }"
      fi
      echo "$gz $files"
    done | sort -n | tail -1 | cut -d' ' -f2-
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

printf '%s\n' "$table" | tee "$out"
if printf '%s\n' "$table" | tail -1 | grep -q "OVER BUDGET"; then
  echo "measure-size: the first visit is over the ${budget}-byte gzip budget (see BENCHMARKS.md)" >&2
  [ "${SIZE_STRICT:-1}" = "0" ] || exit 1
fi
exit 0
