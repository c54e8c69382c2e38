#!/usr/bin/env bash
# Coverage-guided fuzzing of every parser of untrusted input (fuzz/).
#
#   scripts/fuzz.sh                 every target, RUNS executions each
#   scripts/fuzz.sh share_decode    one target (several may be named)
#   RUNS=1000000 scripts/fuzz.sh    fewer executions (default 10,000,000)
#   SECONDS_MAX=600 scripts/fuzz.sh also stop each target after 600 s
#   SANITIZER=none scripts/fuzz.sh  without AddressSanitizer (2-3x faster;
#                                   panics and hangs are still caught)
#
# Needs the nightly toolchain and cargo-fuzz (installed here if missing:
# `rustup toolchain install nightly`, `cargo +nightly install cargo-fuzz`);
# the project itself stays on stable. Each target starts from its seeds
# (fuzz/seeds/TARGET, in git) and its local corpus (fuzz/corpus/TARGET:
# generated data, git-ignored; the first run grows it from the seeds, later
# runs go on from it); new inputs go to the corpus, which is minimized
# afterwards. A crash or hang leaves its
# input in fuzz/artifacts/TARGET; the script copies it to
# fuzz/regressions/TARGET, where `cargo test` replays it on stable
# (crates/cli/tests/fuzz_regressions.rs). The final libFuzzer statistics of
# each run (executions, corpus size, peak RSS) go to fuzz/reports/TARGET.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${RUNS:-10000000}"
SECONDS_MAX="${SECONDS_MAX:-0}"
SANITIZER="${SANITIZER:-address}"
ALL=(jsonrpc_classify server_text server_http share_decode editor_lint cli_request cli_connection scenario_file timeline_file import_file skill_file)
if [ "$#" -gt 0 ]; then TARGETS=("$@"); else TARGETS=("${ALL[@]}"); fi

if ! rustup toolchain list | grep -q '^nightly'; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo +nightly install cargo-fuzz --locked
fi

mkdir -p fuzz/reports
status=0
for target in "${TARGETS[@]}"; do
  mkdir -p "fuzz/corpus/$target" "fuzz/regressions/$target" "fuzz/artifacts/$target"
  # Scenario files are larger than protocol messages: their seeds are whole
  # exported scenarios.
  case "$target" in scenario_file|timeline_file|import_file) max_len=16384 ;; *) max_len=8192 ;; esac
  echo "== $target: $RUNS executions"
  set +e
  (cd fuzz && cargo +nightly fuzz run --release -s "$SANITIZER" "$target" \
      "corpus/$target" "seeds/$target" -- \
      -runs="$RUNS" -max_total_time="$SECONDS_MAX" -timeout=10 -rss_limit_mb=2048 \
      -max_len="$max_len" -print_final_stats=1) >"fuzz/reports/$target.log" 2>&1
  rc=$?
  set -e
  grep -E '^(stat::|#[0-9]+.*DONE|Done [0-9]+ runs)' "fuzz/reports/$target.log" > "fuzz/reports/$target.txt" || true
  echo "exit status: $rc" >> "fuzz/reports/$target.txt"
  cat "fuzz/reports/$target.txt"
  rm -f "fuzz/reports/$target.log"
  for found in "fuzz/artifacts/$target"/*; do
    [ -f "$found" ] || continue
    cp "$found" "fuzz/regressions/$target/"
    echo "!! $target: reproducer kept as fuzz/regressions/$target/$(basename "$found")"
    status=1
  done
  if [ "$rc" -ne 0 ]; then status=1; fi
  # Keep the committed corpus small: only inputs that add coverage.
  (cd fuzz && cargo +nightly fuzz cmin --release -s "$SANITIZER" "$target" "corpus/$target" >/dev/null 2>&1) || true
done
exit "$status"
