#!/usr/bin/env bash
# Run every test, in order, stopping at the first failure:
#   setup   scripts/setup.sh (installs what is missing; idempotent)
#   1 fmt       cargo fmt --all -- --check
#   2 layers    cargo test -p mcp-lanes-web --test layers: src/ imports only
#               along its layers (data < state < hooks < components < boot),
#               with no import cycle (see ARCHITECTURE.md)
#   3 native    cargo test --workspace --all-targets, run by
#               scripts/standalone.sh in a copy of the repository with no
#               sibling folders (a test that reads outside the repository fails)
#   4 wasm      cargo build -p mcp-lanes-core --target wasm32-unknown-unknown
#   5 bundle    trunk build --release --offline   -> dist/
#   6 size      scripts/measure-size.sh           -> tests/e2e/artifacts/size.txt
#   7 browser   node --test tests/e2e/             (chromium; screenshots in tests/e2e/artifacts/)
# Exits non-zero on any failure. Used by CI (.ci/run).
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$MCP_LANES_ROOT"

export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
fmt_color=(); [ -t 1 ] || fmt_color=(--color=never)  # rustfmt colours even into CI logs
started=$SECONDS
current=""
timings=()

section() {
  current="$1"
  section_start=$SECONDS
  printf '\n==== %s ====\n' "$current"
}
section_done() {
  timings+=("$(printf '%5d s  %s' $((SECONDS - section_start)) "$current")")
}
on_exit() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    printf '\n==== FAILED: %s (exit %d, after %d s) ====\n' "$current" "$rc" $((SECONDS - started)) >&2
  fi
}
trap on_exit EXIT

section "setup: scripts/setup.sh"
scripts/setup.sh all
section_done

section "1/7 format: cargo fmt --all -- --check"
cargo fmt --all -- --check "${fmt_color[@]}"
section_done

section "2/7 layers of src/: cargo test -p mcp-lanes-web --test layers"
cargo test -p mcp-lanes-web --test layers
section_done

section "3/7 native tests, in a stand-alone copy: cargo test --workspace --all-targets"
scripts/standalone.sh cargo test --workspace --all-targets
section_done

section "4/7 core builds for wasm: cargo build -p mcp-lanes-core --target wasm32-unknown-unknown"
cargo build -p mcp-lanes-core --target wasm32-unknown-unknown
section_done

section "5/7 bundle: trunk build --release --offline"
trunk build --release --offline
section_done

section "6/7 size: scripts/measure-size.sh (budget 200 KB gzip)"
scripts/measure-size.sh dist
section_done

section "7/7 browser: node --test tests/e2e/"
rm -f tests/e2e/artifacts/*.png tests/e2e/artifacts/*.console.txt
node --test tests/e2e/
section_done

printf '\n==== all checks passed in %d s ====\n' $((SECONDS - started))
printf '%s\n' "${timings[@]}"
