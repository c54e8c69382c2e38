#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
# pinned in tests/peers/package.json, installed by scripts/setup.sh) and
# collects per-scenario results into OUT/results.json and OUT/results.md.
#
#   scripts/conformance.sh server --url http://127.0.0.1:PORT/mcp
#                          [--spec-version V]... [--scenario S]...
#                          [--start "COMMAND"] [--out DIR] [--timeout MS]
#   scripts/conformance.sh client --command "COMMAND"
#                          [--spec-version V]... [--scenario S]...
#                          [--out DIR] [--timeout MS]
#   scripts/conformance.sh authorization --url ISSUER [--resource URI]
#                          [--spec-version V]... [--start "COMMAND"]
#                          [--out DIR] [--timeout MS]
#   scripts/conformance.sh report DIR     re-collect DIR (results.json/.md)
#   scripts/conformance.sh suite ARGS...  the suite's own CLI, e.g.
#                          `suite list --server --spec-version 2026-07-28`
#
# server: every server scenario the suite has for each spec version (its
#   `--suite all --spec-version V`: scored, pending and draft scenarios alike;
#   results.md says which the frozen requirement set scores). Default spec
#   versions: 2026-07-28 and 2025-11-25. --start runs COMMAND (with bash)
#   first, waits for the URL's port to accept connections, and stops it at
#   the end.
# client: the suite starts a test server per scenario and runs
#   `COMMAND <server-url>` through the shell, with MCP_CONFORMANCE_SCENARIO,
#   MCP_CONFORMANCE_PROTOCOL_VERSION (and, for some scenarios,
#   MCP_CONFORMANCE_CONTEXT) in its environment. Default spec version
#   2026-07-28; default scenarios: every client scenario of that version,
#   auth/ (OAuth) included. `--spec-version extension`: the extension
#   scenarios (`suite list --client` marks them [extension]), run on no
#   spec timeline.
#
# authorization: every authorization-server scenario against the
#   authorization server ISSUER (e.g. `serve --auth`'s origin), through
#   tests/peers/conformance-authorization.mjs: it registers a client
#   dynamically for the suite's callback and opens the authorization URL
#   as a browser would, for a server that consents at once. Default spec
#   version 2026-07-28. --start as for server (the port of ISSUER).
#
# OUT defaults to target/conformance/<role>; it is emptied first. Per spec
# version the suite's raw output lands in OUT/<role>-<spec>/ (one folder per
# scenario with checks.json; suite.log holds the console output).
# Exit status: 0 when no check failed, 1 when one did, 2 on a usage error.
#
# Node 20: the suite imports fs.globSync (Node 22+); tests/peers/node20/
# provides it (see register.mjs there) and is loaded with --import.
set -euo pipefail

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
root="$MCP_LANES_ROOT"
peers="$root/tests/peers"
suite_js="$peers/node_modules/@modelcontextprotocol/conformance/dist/index.js"

usage() { sed -n '2,44p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { printf '[conformance] %s\n' "$*" >&2; exit 2; }

[ -f "$suite_js" ] || die "the suite is not installed: run scripts/setup.sh (or scripts/setup.sh peers)"

suite() { node --import "$peers/node20/register.mjs" "$suite_js" "$@"; }

role="${1:-}"; [ "$#" -gt 0 ] && shift
case "$role" in
  suite) suite "$@"; exit ;;
  report) [ "$#" -eq 1 ] || usage; node "$peers/conformance-report.mjs" "$1"; exit ;;
  server|client) ;;
  authorization) ;;
  *) usage ;;
esac

url="" command="" start="" out="" timeout=""
resource=""
specs=() scenarios=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --url) url="${2:?}"; shift 2 ;;
    --resource) resource="${2:?}"; shift 2 ;;
    --command) command="${2:?}"; shift 2 ;;
    --start) start="${2:?}"; shift 2 ;;
    --spec-version) specs+=("${2:?}"); shift 2 ;;
    --scenario) scenarios+=("${2:?}"); shift 2 ;;
    --out) out="${2:?}"; shift 2 ;;
    --timeout) timeout="${2:?}"; shift 2 ;;
    -h|--help) usage ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
if [ "$role" = server ]; then
  [ -n "$url" ] || die "server needs --url http://HOST:PORT/mcp"
  [ "${#specs[@]}" -gt 0 ] || specs=(2026-07-28 2025-11-25)
  target="$url"
elif [ "$role" = authorization ]; then
  [ -n "$url" ] || die "authorization needs --url http://HOST:PORT (the issuer)"
  [ "${#specs[@]}" -gt 0 ] || specs=(2026-07-28)
  target="$url"
else
  [ -n "$command" ] || die "client needs --command \"COMMAND\""
  [ -z "$start" ] || die "--start is for server runs"
  [ "${#specs[@]}" -gt 0 ] || specs=(2026-07-28)
  target="$command"
fi
out="${out:-$root/target/conformance/$role}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
find "$out" -mindepth 1 -maxdepth 1 \( -name "$role-*" -o -name 'results.*' \) -exec rm -rf {} +

server_pid=""
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
}
trap stop_server EXIT
if [ -n "$start" ]; then
  hostport="${url#*://}"; hostport="${hostport%%/*}"
  host="${hostport%:*}"; port="${hostport##*:}"
  [ "$host" != "$hostport" ] || die "--start needs a URL with an explicit port"
  bash -c "exec $start" >"$out/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 150); do
    (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$out/server.log" >&2; die "the server exited before listening"; }
    sleep 0.2
  done
  (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null || die "nothing listens on $host:$port after 30 s"
fi

for spec in "${specs[@]}"; do
  dir="$out/$role-$spec"
  mkdir -p "$dir"
  started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  node -e 'const [role, spec, target, started] = process.argv.slice(1);
    process.stdout.write(JSON.stringify({ role, spec_version: spec, target, started }) + "\n")' \
    "$role" "$spec" "$target" "$started" >"$dir/run.json"
  extra=(); [ -z "$timeout" ] || extra=(--timeout "$timeout")
  printf '[conformance] %s scenarios, %s, against %s\n' "$role" "$spec" "$target" >&2
  if [ "$role" = server ]; then
    if [ "${#scenarios[@]}" -eq 0 ]; then
      suite server --url "$url" --suite all --spec-version "$spec" -o "$dir" "${extra[@]}" >"$dir/suite.log" 2>&1 || true
    else
      for s in "${scenarios[@]}"; do
        suite server --url "$url" --scenario "$s" --spec-version "$spec" -o "$dir" "${extra[@]}" >>"$dir/suite.log" 2>&1 || true
      done
    fi
  elif [ "$role" = authorization ]; then
    auth_args=(--url "$url" --spec-version "$spec" --out "$dir"); [ -z "$resource" ] || auth_args+=(--resource "$resource")
    [ -z "$timeout" ] || auth_args+=(--timeout "$timeout")
    node "$peers/conformance-authorization.mjs" "${auth_args[@]}" >"$dir/runner.log" 2>&1 || true
  else
    list=("${scenarios[@]}")
    if [ "${#list[@]}" -eq 0 ]; then
      if [ "$spec" = extension ]; then
        mapfile -t list < <(suite list --client | sed -n 's/^  - \([^ ]*\) \[extension\].*/\1/p')
      else
        mapfile -t list < <(suite list --client --spec-version "$spec" | sed -n 's/^  - \([^ ]*\).*/\1/p')
      fi
    fi
    # `extension`: the extension scenarios, on no spec timeline (the suite
    # runs them without --spec-version).
    version=(--spec-version "$spec"); [ "$spec" != extension ] || version=()
    for s in "${list[@]}"; do
      printf '[conformance]   %s\n' "$s" >&2
      suite client --command "$command" --scenario "$s" "${version[@]}" -o "$dir" "${extra[@]}" >>"$dir/suite.log" 2>&1 || true
    done
  fi
done

stop_server
server_pid=""
node "$peers/conformance-report.mjs" "$out"
