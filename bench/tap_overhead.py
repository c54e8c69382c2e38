"""What `mcp-lanes tap` adds to a conversation (BENCHMARKS.md, "Tap's
overhead"): round trips of N requests one after another, straight to the
reference server and through tap, over stdio and over HTTP, the two in
turn (one direct, one through tap) so that both meet the machine in the
same state. Prints one JSON line per transport: p50 and p99 of a round
trip each way, what tap adds, requests per second one at a time, and over
stdio the messages per second of N pings written at once. Standard library
only.

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


class Stdio:
    """A server over stdio (the command), after a legacy handshake."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.call(INIT)
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.next_id = 1

    def call(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the server ended")
            if json.loads(line).get("id") == message["id"]:
                return

    def ping(self):
        """One ping's round trip (ms)."""
        self.next_id += 1
        start = time.perf_counter()
        self.call({"jsonrpc": "2.0", "id": self.next_id, "method": "ping"})
        return (time.perf_counter() - start) * 1000

    def pipelined(self, n):
        """Messages per second: n pings written at once (on a thread), the
        time until the last answer has come."""
        first = self.next_id + 1
        self.next_id += n
        lines = b"".join(
            b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i for i in range(first, first + n))
        start = time.perf_counter()
        writer = threading.Thread(target=self.proc.stdin.write, args=(lines,))
        writer.start()
        for _ in range(n):
            if not self.proc.stdout.readline():
                raise SystemExit("the server ended")
        writer.join()
        return round(n / (time.perf_counter() - start))

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def interleaved(direct, tapped, n):
    """n round trips (ms) each, one direct then one through tap, in turn:
    both see the machine as it is at that moment."""
    times = ([], [])
    for _ in range(n):
        times[0].append(direct())
        times[1].append(tapped())
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


class Http:
    """One keep-alive connection to a Streamable HTTP endpoint."""

    BODY = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}})

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port)

    def discover(self):
        """One server/discover POST's round trip (ms)."""
        start = time.perf_counter()
        self.conn.request("POST", "/mcp", self.BODY, DISCOVER_HEADERS)
        reply = self.conn.getresponse()
        reply.read()
        if reply.status != 200:
            raise SystemExit(f"HTTP {reply.status}")
        return (time.perf_counter() - start) * 1000


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
    direct = Stdio(serve)
    tapped = Stdio([binary, "tap", "--log", "/dev/null", "--"] + serve)
    for _ in range(50):  # warm both up
        direct.ping()
        tapped.ping()
    row = summary("stdio", *interleaved(direct.ping, tapped.ping, n))
    row["direct_pipelined_msgs_per_s"] = direct.pipelined(n)
    row["tap_pipelined_msgs_per_s"] = tapped.pipelined(n)
    direct.close()
    tapped.close()
    print(json.dumps(row))
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
            direct, tapped = Http(upstream), Http(port)
            for _ in range(50):
                direct.discover()
                tapped.discover()
            print(json.dumps(summary("http", *interleaved(direct.discover, tapped.discover, n))))
        finally:
            tap.terminate()
            tap.wait(timeout=60)  # its last grade reads the whole conversation
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
