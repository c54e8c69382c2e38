"""What `mcp-lanes tap` adds to a conversation (BENCHMARKS.md, "Tap's
overhead"): round trips of N requests one after another, straight to the
reference server and through tap, over stdio and over HTTP. Prints one JSON
line per transport: p50 and p99 of a round trip each way, what tap adds, and
requests per second. Standard library only.

    python3 bench/tap_overhead.py BIN [N]

BIN is the mcp-lanes binary (a release build measures what users run).
"""
import http.client
import json
import statistics
import subprocess
import sys
import threading
import time

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}
DISCOVER_HEADERS = {"Content-Type": "application/json",
                    "Accept": "application/json, text/event-stream",
                    "MCP-Protocol-Version": "2026-07-28",
                    "Mcp-Method": "server/discover"}


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def stdio_round_trips(command, n):
    """Per-request round trips (ms) of n pings after a legacy handshake."""
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, bufsize=0)

    def call(message):
        proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("the server ended")
            if json.loads(line).get("id") == message["id"]:
                return

    call(INIT)
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    times = []
    for i in range(1, n + 1):
        start = time.perf_counter()
        call({"jsonrpc": "2.0", "id": i, "method": "ping"})
        times.append((time.perf_counter() - start) * 1000)
    proc.stdin.close()
    proc.wait(timeout=10)
    return times


def wait_line(proc, needle):
    """The first stderr line of proc with needle; the rest of its stderr is
    drained on a thread (a full pipe would stop it)."""
    while True:
        line = proc.stderr.readline().decode()
        if not line:
            raise SystemExit(f"no line with {needle!r}")
        if needle in line:
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return line


def http_round_trips(port, n):
    """Per-request round trips (ms) of n server/discover POSTs on one
    keep-alive connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}})
    times = []
    for _ in range(n):
        start = time.perf_counter()
        conn.request("POST", "/mcp", body, DISCOVER_HEADERS)
        reply = conn.getresponse()
        reply.read()
        if reply.status != 200:
            raise SystemExit(f"HTTP {reply.status}")
        times.append((time.perf_counter() - start) * 1000)
    conn.close()
    return times


def summary(transport, direct, tapped):
    row = {"transport": transport, "n": len(direct)}
    for name, times in (("direct", direct), ("tap", tapped)):
        row[f"{name}_p50_ms"] = round(statistics.median(times), 3)
        row[f"{name}_p99_ms"] = round(percentile(times, 0.99), 3)
        row[f"{name}_rps"] = round(len(times) / (sum(times) / 1000))
    row["added_p50_ms"] = round(row["tap_p50_ms"] - row["direct_p50_ms"], 3)
    row["added_p99_ms"] = round(row["tap_p99_ms"] - row["direct_p99_ms"], 3)
    return row


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    binary = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    serve = [binary, "serve", "--preset", "reference"]
    direct = stdio_round_trips(serve, n)
    tapped = stdio_round_trips([binary, "tap", "--log", "/dev/null", "--"] + serve, n)
    print(json.dumps(summary("stdio", direct, tapped)))
    server = subprocess.Popen([binary, "serve", "--transport", "http", "--port", "0",
                               "--preset", "reference"], stderr=subprocess.PIPE)
    try:
        line = wait_line(server, "listening on http://127.0.0.1:")
        upstream = int(line.rsplit(":", 1)[1].split("/")[0])
        tap = subprocess.Popen([binary, "tap", "--upstream", f"http://127.0.0.1:{upstream}/mcp",
                                "--port", "0", "--log", "/dev/null"], stderr=subprocess.PIPE)
        try:
            line = wait_line(tap, "http://127.0.0.1:")
            port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
            direct = http_round_trips(upstream, n)
            tapped = http_round_trips(port, n)
            print(json.dumps(summary("http", direct, tapped)))
        finally:
            tap.terminate()
            tap.wait(timeout=10)
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
