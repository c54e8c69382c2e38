# Sourced (not executed) by bench.sh and bench-latency.sh: what both do
# before and while they measure. Expects ROOT (the repository).
# shellcheck shell=bash

# bench_prepare PREFIX: the results file OUT (unless set:
# bench/results/PREFIX<UTC time>.jsonl), an open-files limit high enough
# for 10,000 connections, and the `serve` profile builds of mcp-lanes
# (LANES) and the load generator (LOAD, crates/cli/examples/load.rs).
bench_prepare() {
  OUT="${OUT:-$ROOT/bench/results/$1$(date -u +%Y%m%dT%H%M%SZ).jsonl}"
  mkdir -p "$(dirname "$OUT")"
  ulimit -n 20000 2>/dev/null || true
  cargo build --profile serve -p mcp-lanes-cli --bin mcp-lanes --example load >/dev/null
  LANES="$ROOT/target/serve/mcp-lanes"
  LOAD="$ROOT/target/serve/examples/load"
}

# wait_for_port PORT TRIES PAUSE: succeeds once something accepts
# connections on 127.0.0.1:PORT, checking TRIES times PAUSE seconds apart;
# fails if nothing did.
wait_for_port() {
  local port=$1 tries=$2 pause=$3
  for _ in $(seq 1 "$tries"); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep "$pause"
  done
  return 1
}
