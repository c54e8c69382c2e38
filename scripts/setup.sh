#!/usr/bin/env bash
# Installs whatever this project needs and is missing. Idempotent: every step
# checks first and skips what is already there. Safe to run on every call.
#
#   scripts/setup.sh          everything (build + browser tests)
#   scripts/setup.sh build    only what building and serving the app needs
set -euo pipefail

TRUNK_VERSION="0.21.14"
WASM_BINDGEN_VERSION="0.2.130"   # must equal wasm-bindgen in Cargo.lock
BINARYEN_VERSION="132"           # npm package; Debian's binaryen is too old

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
what="${1:-all}"
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '[setup] %s\n' "$*"; }

ensure_rust_target() {
  if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    log "wasm32-unknown-unknown target: present"
  else
    log "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
}

ensure_cargo_tool() { # binary, crate, version, extra cargo-install flags...
  local bin="$1" crate="$2" version="$3"; shift 3
  if command -v "$bin" >/dev/null 2>&1 && "$bin" --version 2>/dev/null | grep -q "$version"; then
    log "$bin $version: present"
  else
    log "installing $crate $version (a few minutes, once)"
    cargo install "$@" "$crate@$version"
  fi
}

ensure_npm_packages() {
  if [ -x "$root/tests/e2e/node_modules/.bin/wasm-opt" ] && [ -d "$root/tests/e2e/node_modules/playwright-core" ]; then
    log "npm packages (playwright-core, binaryen): present"
  else
    log "installing npm packages for the build and the browser tests"
    (cd "$root/tests/e2e" && npm ci --no-audit --no-fund)
  fi
}

ensure_chromium() {
  if [ -x /usr/bin/chromium ]; then
    log "chromium: present"
  else
    log "installing Debian chromium (browser tests)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
}

ensure_rust_target
ensure_cargo_tool trunk trunk "$TRUNK_VERSION" --locked
ensure_cargo_tool wasm-bindgen wasm-bindgen-cli "$WASM_BINDGEN_VERSION"
ensure_npm_packages
if [ "$what" = "all" ]; then
  ensure_chromium
fi
log "done"
