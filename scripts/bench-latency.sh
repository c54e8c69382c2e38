#!/usr/bin/env bash
# Latency of `mcp-lanes serve --transport http` at a fixed request rate
# (BENCHMARKS.md, "p99 at 1,000 connections (open loop)"): an open-loop load, so the
# figure is the server's latency at that rate and not the queue a
# saturated closed-loop client builds (Little's law).
#
#   scripts/bench-latency.sh
#   CONNS=1000 RATES="2000 5000 10000" REPS=3 SECONDS_RUN=20 scripts/bench-latency.sh
#
# The server (serve profile, --threads 1, deploy-console) is pinned to core
# SERVER_CPU, the load generator (crates/cli/examples/load.rs --rate) to
# LOAD_CPU. Every run starts a fresh server, holds CONNS keep-alive
# connections, sends RATE requests per second in all for SECONDS_RUN
# seconds after a warm-up, and prints one JSON line (also appended to OUT)
# with p50/p99 counted from each request's due time, the server's CPU per
# request and the machine's load average.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

CONNS="${CONNS:-1000}"
RATES="${RATES:-2000 5000 10000}"
WORKS="${WORKS:-discover call}"
REPS="${REPS:-3}"
SECONDS_RUN="${SECONDS_RUN:-20}"
WARMUP="${WARMUP:-3}"
SERVER_CPU="${SERVER_CPU:-0}"
# On a shared machine other work preempts the pinned processes and puts
# its time slices into the tail; NICE=-10 (as root) lets the two measured
# processes go first. Empty: default priority.
NICE="${NICE:-}"
LOAD_CPU="${LOAD_CPU:-1}"
# shellcheck source=scripts/bench-common.sh
. "$ROOT/scripts/bench-common.sh"
bench_prepare latency-
PORT=21700

cpu_ms() { # pid -> user+system CPU time in ms
  awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$1/stat"
}

for rep in $(seq 1 "$REPS"); do
  for work in $WORKS; do
    for rate in $RATES; do
      PORT=$((PORT + 1))
      prio=(); [ -n "$NICE" ] && prio=(nice -n "$NICE")
      "${prio[@]}" taskset -c "$SERVER_CPU" "$LANES" serve --transport http --port "$PORT" \
        --preset deploy-console --threads 1 --quiet 2>/dev/null &
      pid=$!
      wait_for_port "$PORT" 100 0.1 || true
      before=$(cpu_ms "$pid")
      line=$("${prio[@]}" taskset -c "$LOAD_CPU" "$LOAD" --url "http://127.0.0.1:$PORT/mcp" \
        --work "$work" --connections "$CONNS" --seconds "$SECONDS_RUN" \
        --warmup "$WARMUP" --rate "$rate")
      after=$(cpu_ms "$pid")
      rss=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
      kill -TERM "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      load=$(cut -d' ' -f1 /proc/loadavg)
      echo "$line" | python3 -c "
import json, sys
r = json.loads(sys.stdin.read())
ok = max(r['all_ok'], 1)
r.update(server='lanes', rep=$rep, nice='${NICE:-0}', server_cpu_us_per_req=round(($after - $before) * 1000 / ok, 1),
         peak_rss_mb=round($rss / 1024, 1), loadavg=$load)
print(json.dumps(r))" | tee -a "$OUT"
    done
  done
done
