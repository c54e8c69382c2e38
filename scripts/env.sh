# Sourced (not executed) by the other scripts: puts the project's tools on PATH.
#   ~/.cargo/bin                   trunk, wasm-bindgen (cargo install)
#   tests/e2e/node_modules/.bin    wasm-opt (npm binaryen; Debian's is too old)
# shellcheck shell=bash
MCP_LANES_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export MCP_LANES_ROOT
case ":$PATH:" in *":$HOME/.cargo/bin:"*) ;; *) PATH="$HOME/.cargo/bin:$PATH" ;; esac
case ":$PATH:" in *":$MCP_LANES_ROOT/tests/e2e/node_modules/.bin:"*) ;; *) PATH="$MCP_LANES_ROOT/tests/e2e/node_modules/.bin:$PATH" ;; esac
export PATH
