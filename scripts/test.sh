#!/usr/bin/env bash
# Run every test, in order, stopping at the first failure:
#   setup   scripts/setup.sh (installs what is missing; idempotent)
#   1 fmt       cargo fmt --all -- --check
#   2 book      mdbook build docs (-> target/book/), then
#               scripts/check-book-links.mjs: every relative href and src of
#               the built book resolves (a file of the book, an id for a
#               #fragment, or a file of the repository; see the book,
#               "Building, serving and testing")
#   3 layers    cargo test -p mcp-lanes-web --test layers: src/ imports only
#               along its layers (data < state < views < hooks < components < boot),
#               with no import cycle (see ARCHITECTURE.md)
#   4 native    cargo test --workspace --all-targets, run by
#               scripts/standalone.sh in a copy of the repository with no
#               sibling folders (a test that reads outside the repository fails);
#               the CLI's tests against the official SDK servers use the peers
#               installed in tests/peers (MCP_LANES_PEERS_DIR) and must not skip
#   5 conformance  the official MCP conformance suite (tests/peers): its server
#               scenarios for 2026-07-28 and 2025-11-25 against
#               `serve --preset reference`, and its client scenarios for
#               2026-07-28 and 2025-11-25 (OAuth included) against
#               `mcp-lanes client` (the binary step 4 built), its
#               authorization-server scenarios against
#               `serve --preset reference --auth`, gated by
#               tests/peers/conformance-gate.mjs: a failed or warned check not
#               listed in tests/peers/conformance-allowed.json (with the reason
#               the spec allows) fails the run; results in target/conformance/
#   6 wasm      cargo build -p mcp-lanes-core --target wasm32-unknown-unknown
#   7 bundle    trunk build --release --offline   -> dist/ (without the book)
#   8 size      scripts/measure-size.sh           -> tests/e2e/artifacts/size.txt (budgets enforced)
#   9 browser   node --test tests/e2e/             (chromium; screenshots in tests/e2e/artifacts/)
# Exits non-zero on any failure. Used by CI (.ci/run). No test asserts how
# fast something is (the few times the CLI's tests check are timeouts that
# must fire); the benchmarks are not part of this run (BENCHMARKS.md;
# scripts/bench-page.sh for the page's, after step 7's build).
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

section "1/9 format: cargo fmt --all -- --check"
cargo fmt --all -- --check "${fmt_color[@]}"
section_done

section "2/9 book: mdbook build docs, then its links: scripts/check-book-links.mjs"
mdbook build docs
node scripts/check-book-links.mjs target/book
section_done

section "3/9 layers of src/: cargo test -p mcp-lanes-web --test layers"
cargo test -p mcp-lanes-web --test layers
section_done

section "4/9 native tests, in a stand-alone copy: cargo test --workspace --all-targets"
MCP_LANES_PEERS_DIR="$MCP_LANES_ROOT/tests/peers" MCP_LANES_REQUIRE_PEERS=1 \
  scripts/standalone.sh cargo test --workspace --all-targets
section_done

section "5/9 conformance: the official suite against serve --preset reference and mcp-lanes client"
# Reuse the binary the native tests built in their stand-alone copy.
bin="target/standalone/debug/mcp-lanes"
[ -x "$bin" ] || { cargo build -p mcp-lanes-cli; bin="target/debug/mcp-lanes"; }
port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
# Server scenarios of both revisions. A failed check makes conformance.sh
# exit 1; the gate below decides, with the allowances.
scripts/conformance.sh server --url "http://127.0.0.1:$port/mcp" \
  --start "$bin serve --transport http --port $port --preset reference" \
  --out target/conformance/server --timeout 15000 >/dev/null || true
gate_dirs=(target/conformance/server)
# Client scenarios (2026-07-28 and 2025-11-25, auth/ included) against
# `mcp-lanes client`: the suite starts a test server per scenario and runs
# the client on it.
scripts/conformance.sh client --command "$MCP_LANES_ROOT/$bin client" \
  --spec-version 2026-07-28 --spec-version 2025-11-25 \
  --out target/conformance/client --timeout 15000 >/dev/null || true
gate_dirs+=(target/conformance/client)
# The extension scenarios the client supports: OAuth client credentials
# with HTTP Basic and with a signed JWT (private_key_jwt), the JWT-bearer
# grant of a workload (WIF), enterprise-managed authorization (ID-JAG),
# DPoP-bound tokens with and without nonces, and skills (SEP-2640): listed
# without prefetching, and loaded only once size, digest and frontmatter
# are verified.
scripts/conformance.sh client --command "$MCP_LANES_ROOT/$bin client" \
  --spec-version extension --scenario auth/client-credentials-basic \
  --scenario auth/client-credentials-jwt --scenario auth/wif-jwt-bearer \
  --scenario auth/enterprise-managed-authorization \
  --scenario auth/dpop --scenario auth/dpop-nonce \
  --scenario sep-2640-client-no-prefetch \
  --scenario sep-2640-client-verify-digest \
  --scenario sep-2640-client-verify-size \
  --scenario sep-2640-client-verify-frontmatter \
  --out target/conformance/client-extension --timeout 15000 >/dev/null || true
gate_dirs+=(target/conformance/client-extension)
# Authorization-server scenarios against `serve --auth`'s lab server.
auth_port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
scripts/conformance.sh authorization --url "http://127.0.0.1:$auth_port" --resource "http://127.0.0.1:$auth_port/mcp" \
  --start "$bin serve --transport http --port $auth_port --preset reference --auth" \
  --out target/conformance/authorization --timeout 15000 >/dev/null || true
gate_dirs+=(target/conformance/authorization)
node tests/peers/conformance-gate.mjs "${gate_dirs[@]}" --allowed tests/peers/conformance-allowed.json
section_done

section "6/9 core builds for wasm: cargo build -p mcp-lanes-core --target wasm32-unknown-unknown"
cargo build -p mcp-lanes-core --target wasm32-unknown-unknown
section_done

section "7/9 bundle: trunk build --release --offline"
# Without the book (scripts/serve.sh adds it with MCP_LANES_BOOK=1): dist/ is
# what step 8 measures and step 9 tests.
MCP_LANES_BOOK=0 trunk build --release --offline
section_done

section "8/9 size: scripts/measure-size.sh (budgets: first visit 60 KB, course page of three figures 80 KB, gzip)"
scripts/measure-size.sh dist
section_done

section "9/9 browser: node --test tests/e2e/"
rm -f tests/e2e/artifacts/*.png tests/e2e/artifacts/*.console.txt
node --test tests/e2e/
section_done

printf '\n==== all checks passed in %d s ====\n' $((SECONDS - started))
printf '%s\n' "${timings[@]}"
