#!/usr/bin/env bash
# Installs whatever this project needs and is missing. Idempotent: every step
# checks first and skips what is already there. Safe to run on every call.
#
#   scripts/setup.sh          everything (build + browser tests + real peers)
#   scripts/setup.sh build    only what building and serving the app needs
#   scripts/setup.sh peers    only the real MCP peers (below)
#
# What it installs (first run on a fresh 2-core machine: about 10 minutes, most
# of it compiling trunk (~7 min) and wasm-bindgen-cli (~2 min); later runs take
# a second or two):
#   - the wasm32-unknown-unknown Rust target (toolchain pinned in rust-toolchain.toml)
#   - the crates in Cargo.lock (cargo fetch), as trunk builds offline
#   - trunk and wasm-bindgen-cli, with `cargo install`, into ~/.cargo/bin
#   - mdbook, with `cargo install` (only its `search` feature; ~3 min on 2 cores), which
#     builds the book in docs/ (scripts/serve.sh serves it at /docs/,
#     scripts/test.sh checks its links)
#   - npm packages in tests/e2e (from package-lock.json): playwright-core, which
#     drives the browser; binaryen, whose wasm-opt trunk uses; and terser,
#     which minifies the JS glue (scripts/minify-js.sh, a trunk hook)
#   - Debian's chromium (only for "all"), with apt-get, as root or via sudo
#   - the real MCP peers (for "all" and "peers"; about 1 minute on a fresh
#     machine): npm packages in tests/peers (from its package-lock.json: the
#     official TypeScript SDKs and the official conformance suite), and a
#     Python virtualenv tests/peers/.venv with the official Python SDK, from
#     tests/peers/requirements.txt (all pinned). See tests/peers/README.md.
#
# Tools are never downloaded by trunk itself (Trunk.toml sets offline = true).
set -euo pipefail

TRUNK_VERSION="0.21.14"
MDBOOK_VERSION="0.5.4"
WASM_BINDGEN_FALLBACK="0.2.130"  # used only if Cargo.lock does not name one
NODE_MAJOR_MIN=20

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
root="$MCP_LANES_ROOT"
cd "$root"  # so that cargo and rustup use the toolchain in rust-toolchain.toml
what="${1:-all}"
case "$what" in all|build|peers) ;; *) echo "usage: $0 [all|build|peers]" >&2; exit 2 ;; esac

log() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

# One setup at a time (serve.sh and test.sh both call this): a second caller
# waits instead of starting a second `cargo install` of the same tool.
if command -v flock >/dev/null 2>&1; then
  exec 9>"${TMPDIR:-/tmp}/mcp-lanes-setup.lock"
  flock 9
fi

# The wasm-bindgen CLI must be exactly the version of the wasm-bindgen crate in Cargo.lock.
wasm_bindgen_version() {
  local v
  v="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$root/Cargo.lock" 2>/dev/null || true)"
  printf '%s\n' "${v:-$WASM_BINDGEN_FALLBACK}"
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else die "need root (or sudo) to run: $*"
  fi
}

ensure_node() {
  command -v node >/dev/null 2>&1 || die "node (>= $NODE_MAJOR_MIN) is required: install Node.js"
  command -v npm >/dev/null 2>&1 || die "npm is required: install it with Node.js"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge "$NODE_MAJOR_MIN" ] || die "node $major found; >= $NODE_MAJOR_MIN is required"
  log "node $(node --version): present"
}

ensure_rust_target() {
  command -v rustup >/dev/null 2>&1 || die "rustup not found: install it (https://rustup.rs)"
  # The toolchain pinned in rust-toolchain.toml (rustup may not auto-install it).
  if ! (cd "$root" && cargo --version >/dev/null 2>&1); then
    log "installing the Rust toolchain pinned in rust-toolchain.toml"
    (cd "$root" && rustup toolchain install)
  fi
  if (cd "$root" && rustup target list --installed 2>/dev/null) | grep -qx wasm32-unknown-unknown; then
    log "wasm32-unknown-unknown target: present"
  else
    log "adding the wasm32-unknown-unknown target"
    (cd "$root" && rustup target add wasm32-unknown-unknown)
  fi
}

ensure_cargo_tool() { # binary, crate, version, extra cargo-install flags...
  local bin="$1" crate="$2" version="$3"; shift 3
  # `trunk 0.21.14`, `wasm-bindgen 0.2.130`, `mdbook v0.5.4`: a leading v is
  # dropped before the whole-word match.
  if command -v "$bin" >/dev/null 2>&1 \
    && "$bin" --version 2>/dev/null | sed -E 's/(^|[[:space:]])v([0-9])/\1\2/g' | grep -qwF "$version"; then
    log "$bin $version: present"
  else
    log "installing $crate $version with cargo install (once; several minutes on 2 cores)"
    local start=$SECONDS
    cargo install -q --force "$@" "$crate@$version"
    log "installed $crate $version in $((SECONDS - start)) s"
  fi
}

# trunk builds with --offline (it passes that on to cargo), so every crate in
# Cargo.lock, for every target, must already be downloaded.
ensure_cargo_deps() {
  if (cd "$root" && cargo fetch --offline -q >/dev/null 2>&1); then
    log "crates in Cargo.lock: downloaded"
  else
    log "downloading the crates in Cargo.lock (cargo fetch)"
    (cd "$root" && cargo fetch -q)
  fi
}

# node_modules of folder $1 matches its package-lock.json when every locked
# package is installed at its locked version.
npm_packages_match_lock() {
  (cd "$1" && node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
    for (const [path, meta] of Object.entries(lock.packages || {})) {
      if (!path) continue;
      let installed;
      try { installed = JSON.parse(fs.readFileSync(path + "/package.json", "utf8")).version; }
      catch { process.exit(1); }
      if (installed !== meta.version) process.exit(1);
    }' 2>/dev/null)
}

ensure_npm_packages() {
  if npm_packages_match_lock "$root/tests/e2e" && [ -x "$root/tests/e2e/node_modules/.bin/wasm-opt" ]; then
    log "npm packages (playwright-core, binaryen, terser): present"
  else
    log "installing npm packages in tests/e2e (npm ci, from package-lock.json)"
    (cd "$root/tests/e2e" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  wasm-opt --version >/dev/null || die "wasm-opt from npm binaryen does not run"
}

ensure_chromium() {
  if [ -x /usr/bin/chromium ]; then
    log "chromium: present"
  else
    log "installing Debian chromium with apt-get (browser tests)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
  /usr/bin/chromium --version >/dev/null 2>&1 || die "/usr/bin/chromium is installed but does not run"
  # A font with Chinese glyphs, so the zh screenshots and the 360 px layout
  # check measure real characters, not empty boxes (a reader's browser has
  # one; a bare Debian machine does not). WenQuanYi Micro Hei, about 5 MB.
  if [ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ]; then
    log "CJK font: present"
  else
    log "installing a CJK font with apt-get (fonts-wqy-microhei, browser tests)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null \
      || { as_root apt-get update -qq \
           && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null; }
  fi
}

# curl replays exported commands in a CLI test (crates/cli/tests/curl_replay.rs).
ensure_curl() {
  if command -v curl >/dev/null 2>&1; then
    log "curl: present"
  else
    log "installing Debian curl with apt-get (tests)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl >/dev/null
  fi
}

# Real MCP software nobody on this project wrote, pinned (tests/peers/README.md).
ensure_peers_npm() {
  if npm_packages_match_lock "$root/tests/peers"; then
    log "peers, npm (TypeScript SDKs, conformance suite): present"
  else
    log "installing npm packages in tests/peers (npm ci, from package-lock.json)"
    (cd "$root/tests/peers" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# The venv is current when its stamp holds the hash of requirements.txt and its
# python still imports mcp (a venv outlives neither a moved folder nor a new python).
ensure_peers_python() {
  local venv="$root/tests/peers/.venv" req="$root/tests/peers/requirements.txt" want
  want="$(sha256sum "$req" | cut -d' ' -f1)"
  if [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" = "$want" ] \
    && "$venv/bin/python" -c 'import mcp' >/dev/null 2>&1; then
    log "peers, Python (mcp in tests/peers/.venv): present"
    return
  fi
  command -v python3 >/dev/null 2>&1 || die "python3 (>= 3.10) is required for the Python MCP SDK"
  log "installing the Python MCP SDK into tests/peers/.venv (pip, from requirements.txt)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check --no-input -r "$req"
  printf '%s\n' "$want" >"$venv/.requirements.sha256"
}

ensure_node
if [ "$what" = "peers" ]; then
  ensure_peers_npm
  ensure_peers_python
  log "done ($what)"
  exit 0
fi
ensure_rust_target
ensure_cargo_tool trunk trunk "$TRUNK_VERSION" --locked
# Without --locked: `cargo install --locked wasm-bindgen-cli` fails on this toolchain.
ensure_cargo_tool wasm-bindgen wasm-bindgen-cli "$(wasm_bindgen_version)"
# The book (docs/): only `mdbook build` is used, so not its `serve` and `watch`
# features (a web server and a file watcher), which would only lengthen the build.
ensure_cargo_tool mdbook mdbook "$MDBOOK_VERSION" --locked --no-default-features --features search
ensure_npm_packages
ensure_cargo_deps
if [ "$what" = "all" ]; then
  ensure_curl
  ensure_chromium
  ensure_peers_npm
  ensure_peers_python
fi
log "done ($what)"
