#!/usr/bin/env bash
# `mcp-lanes serve --transport http` beside the official SDK servers doing
# the same work, in one run (BENCHMARKS.md, "`serve --transport http` under load").
#
#   scripts/bench.sh                   the full grid (about 25 minutes)
#   CONNS="1 64" REPS=1 SECONDS_RUN=3 scripts/bench.sh    a quick look
#
# Servers (each pinned to core SERVER_CPU with taskset, one process):
#   lanes     mcp-lanes serve --threads 1 --quiet (deploy-console; dual-era
#             for the legacy work), built with the `serve` profile
#   ts-v2     @modelcontextprotocol/server 2.4.0 + @modelcontextprotocol/node
#             (bench/peers/ts-v2.mjs, 2026-07-28, stateless)
#   ts-v1     @modelcontextprotocol/sdk 1.32.2 (bench/peers/ts-v1.mjs,
#             legacy sessions)
#   python    mcp 2.3.0 under uvicorn (bench/peers/python_server.py,
#             stateless, JSON responses)
# Work: discover (server/discover), call (tools/call list_incidents), legacy
# (a session per connection: initialize, then tools/call list_incidents).
# The load generator (crates/cli/examples/load.rs) runs on LOAD_CPU. Each
# run starts a fresh server, warms up, measures, records the server's peak
# RSS (VmHWM), and stops it; repetitions are interleaved (every cell once,
# then again), and the report gives medians.
#
# The SDK packages come from tests/peers (scripts/setup.sh installs them)
# or from PEERS_DIR (a folder with node_modules/ and a Python venv/).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

CONNS="${CONNS:-1 64 1000 10000}"
WORKS="${WORKS:-discover call legacy}"
REPS="${REPS:-3}"
SECONDS_RUN="${SECONDS_RUN:-5}"
SERVER_CPU="${SERVER_CPU:-0}"
LOAD_CPU="${LOAD_CPU:-1}"
PEERS_DIR="${PEERS_DIR:-$ROOT/tests/peers}"
# shellcheck source=scripts/bench-common.sh
. "$ROOT/scripts/bench-common.sh"
bench_prepare ""
NODE_PATH_DIR="$PEERS_DIR/node_modules"
PYTHON="$PEERS_DIR/venv/bin/python"
[ -x "$PYTHON" ] || PYTHON="$PEERS_DIR/.venv/bin/python"

servers_for() {
  case "$1" in
    discover|call) echo "lanes ts-v2 python" ;;
    legacy) echo "lanes ts-v1 python" ;;
  esac
}

PORT=21400
start_server() { # name work -> sets PID
  local name=$1 work=$2
  PORT=$((PORT + 1))
  case "$name" in
    lanes)
      local preset=deploy-console
      [ "$work" = legacy ] && preset=dual-era
      taskset -c "$SERVER_CPU" "$LANES" serve --transport http --port "$PORT" \
        --preset "$preset" --threads 1 --quiet 2>/dev/null &
      ;;
    ts-v2|ts-v1)
      # The peers' scripts import the SDK packages from PEERS_DIR.
      cp "bench/peers/$name.mjs" "$PEERS_DIR/.bench-$name.mjs"
      taskset -c "$SERVER_CPU" node "$PEERS_DIR/.bench-$name.mjs" "$PORT" 2>/dev/null &
      ;;
    python)
      taskset -c "$SERVER_CPU" "$PYTHON" bench/peers/python_server.py "$PORT" 2>/dev/null &
      ;;
  esac
  PID=$!
  # Up to 30 s: importing the Python SDK alone takes seconds on a busy machine.
  wait_for_port "$PORT" 600 0.05 && return 0
  echo "server $name did not start" >&2
  return 1
}

stop_server() {
  kill -TERM "$PID" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.05; done
  kill -KILL "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  rm -f "$PEERS_DIR"/.bench-*.mjs
}

for rep in $(seq 1 "$REPS"); do
  for conns in $CONNS; do
    for work in $WORKS; do
      for name in $(servers_for "$work"); do
        start_server "$name" "$work" || continue
        warmup=1
        [ "$conns" -ge 1000 ] && warmup=4
        cpu0=$(awk '{print $14 + $15}' "/proc/$PID/stat" 2>/dev/null || echo 0)
        line=$(taskset -c "$LOAD_CPU" "$LOAD" --url "http://127.0.0.1:$PORT/mcp" \
          --work "$work" --connections "$conns" --seconds "$SECONDS_RUN" --warmup "$warmup" \
          --tool list_incidents) || line='{}'
        cpu1=$(awk '{print $14 + $15}' "/proc/$PID/stat" 2>/dev/null || echo 0)
        rss_kb=$(awk '/VmHWM/ {print $2}' "/proc/$PID/status" 2>/dev/null || echo 0)
        stop_server
        # Server CPU (user + system) while the load ran, in ms (clock ticks
        # are 10 ms).
        cpu_ms=$(( (cpu1 - cpu0) * 10 ))
        echo "{\"rep\":$rep,\"server\":\"$name\",\"rss_kb\":${rss_kb:-0},\"cpu_ms\":$cpu_ms,\"load\":$line}" | tee -a "$OUT"
      done
    done
  done
done

python3 - "$OUT" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cells = {}
for r in rows:
    load = r.get("load") or {}
    if "work" not in load:
        continue
    key = (load["work"], load["connections"], r["server"])
    cells.setdefault(key, []).append((load, r))
med = lambda xs: statistics.median(xs) if xs else 0
print("| work | conns | server | req/s | p50 ms | p99 ms | failures | CPU µs/req | peak RSS MB | req/s vs TS | CPU/req TS vs it |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
def cpu_per_req(runs):
    xs = [r["cpu_ms"] * 1000 / l["all_ok"] for l, r in runs if l.get("all_ok")]
    return med(xs) if xs else 0
for work in ["discover", "call", "legacy"]:
    for conns in sorted({k[1] for k in cells if k[0] == work}):
        base_name = "ts-v1" if work == "legacy" else "ts-v2"
        base = cells.get((work, conns, base_name))
        base_rps = med([l["rps"] for l, _ in base]) if base else 0
        base_cpu = cpu_per_req(base) if base else 0
        for server in ["lanes", "ts-v2", "ts-v1", "python"]:
            runs = cells.get((work, conns, server))
            if not runs:
                continue
            rps = med([l["rps"] for l, _ in runs])
            ratio = f"{rps / base_rps:.1f}x" if base_rps else "-"
            cpu = cpu_per_req(runs)
            cpu_ratio = f"{base_cpu / cpu:.1f}x" if cpu and base_cpu else "-"
            print(f"| {work} | {conns} | {server} | {rps:,.0f} | {med([l['p50_ms'] for l, _ in runs]):.2f} | "
                  f"{med([l['p99_ms'] for l, _ in runs]):.2f} | {med([l['failures'] + l['connect_failures'] for l, _ in runs]):.0f} | "
                  f"{cpu:.0f} | {med([r['rss_kb'] for _, r in runs]) / 1024:.1f} | {ratio} | {cpu_ratio} |")
PY
