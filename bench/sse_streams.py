"""Holds N SSE streams open on `mcp-lanes serve --transport http --preset
search-index` at once (BENCHMARKS.md, "1,000 open SSE streams"): N legacy sessions,
each with a purge_index call whose reply waits for an elicitation, so N POST
responses stay open. Then it answers every elicitation and checks that each
stream ends with its own result. Prints one JSON line: streams held, refused,
results received, the server's peak RSS. Standard library only.

    python3 bench/sse_streams.py PORT SERVER_PID [N]
"""
import asyncio
import json
import sys
import time

V = "2025-06-18"


async def request(port, body, headers=(), keep=False):
    """One request on a new connection. Returns (status, headers, first body
    chunk or whole body, reader, writer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode()
    head = f"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {len(data)}\r\n"
    for name, value in headers:
        head += f"{name}: {value}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    await writer.drain()
    status_line = await reader.readline()
    status = int(status_line.split()[1])
    fields = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode().partition(":")
        fields[name.strip().lower()] = value.strip()
    if "content-length" in fields:
        body = await reader.readexactly(int(fields["content-length"]))
    else:
        body = await read_chunk(reader)
    if not keep:
        writer.close()
    return status, fields, body, reader, writer


async def read_chunk(reader):
    size = int((await reader.readline()).strip(), 16)
    data = await reader.readexactly(size + 2)
    return data[:size]


def event_data(chunk):
    for line in chunk.decode().splitlines():
        if line.startswith("data: "):
            return json.loads(line[6:])
    return None


async def one(port, i):
    status, fields, _, _, _ = await request(port, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": V, "capabilities": {"elicitation": {}}, "clientInfo": {"name": f"s{i}", "version": "1"}}})
    if status != 200:
        return None
    session = fields["mcp-session-id"]
    headers = [("Mcp-Session-Id", session), ("MCP-Protocol-Version", V)]
    await request(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers)
    status, fields, first, reader, writer = await request(port, {"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "purge_index", "arguments": {"index": f"idx{i}"}}}, headers, keep=True)
    if status != 200 or fields.get("transfer-encoding") != "chunked":
        return None
    return session, headers, event_data(first), reader, writer


async def main(port, pid, n):
    began = time.time()
    opened = await asyncio.gather(*(one(port, i) for i in range(n)), return_exceptions=True)
    streams = [o for o in opened if isinstance(o, tuple)]
    held_after = time.time() - began
    rss = peak_rss(pid)
    results = 0

    async def finish(stream):
        session, headers, asked, reader, writer = stream
        status, *_ = await request(port, {"jsonrpc": "2.0", "id": asked["id"],
            "result": {"action": "accept", "content": {"retention_days": 30}}}, headers)
        result = event_data(await read_chunk(reader))
        end = await read_chunk(reader)
        writer.close()
        return status == 202 and result and result.get("id") == 5 and end == b""

    done = await asyncio.gather(*(finish(s) for s in streams), return_exceptions=True)
    results = sum(1 for d in done if d is True)
    print(json.dumps({"streams_requested": n, "streams_held": len(streams), "refused_or_failed": n - len(streams),
        "results_on_their_streams": results, "seconds_to_open_all": round(held_after, 2),
        "server_peak_rss_mb": round(rss / 1024, 1)}))


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


if __name__ == "__main__":
    port, pid = int(sys.argv[1]), int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    asyncio.run(main(port, pid, n))
