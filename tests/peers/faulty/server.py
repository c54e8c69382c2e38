#!/usr/bin/env python3
"""A small dual-era MCP server with one deliberate fault at a time, for
`mcp-lanes check`'s tests (crates/cli/tests/check.rs). Python standard
library only.

    server.py [--fault NAME] [--http --port N]

Without --fault it keeps every rule the check grades (a lesson-style deploy
console: `list_incidents`, read-only, and `page_oncall`, which needs the
elicitation capability and refuses with -32021 without it). Each fault breaks
exactly one rule:

    no-cache-hints       tools/list results without ttlMs/cacheScope  (M-CACHE-HINTS)
    unknown-tool-32601   an unknown tool gets -32601                   (M-UNKNOWN-TOOL)
    stateful-caps        remembers a capability declared earlier        (M-STATELESS)
    meta-lenient         serves a request whose _meta lacks capabilities (M-META-REQUIRED)
    echo-any-version     initialize echoes any version, even 1999-01-01 (L-VERSION)
    declared-unanswered  declares prompts, answers prompts/list -32601  (S-DECLARED)
    bad-schema           lists a tool without inputSchema               (S-SCHEMA)
    status-200           modern errors all travel with HTTP 200        (H-STATUS, HTTP)
    no-header-check      ignores Mcp-Method                             (H-HEADERS, HTTP)

On stdio it reads one JSON-RPC message per line; with --http it serves
POST /mcp on 127.0.0.1 (port 0: any free port) and prints its URL on stderr.
"""

import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODERN = "2026-07-28"
LEGACY = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
PV = "io.modelcontextprotocol/protocolVersion"
CAPS = "io.modelcontextprotocol/clientCapabilities"
SINFO = "io.modelcontextprotocol/serverInfo"
INFO = {"name": "faulty-deploy-console", "version": "0.1.0"}

FAULT = None
REMEMBERED = {}  # stateful-caps: capabilities seen earlier (the fault)
SESSION = {}  # legacy session on stdio: the capabilities of initialize


def tools():
    incidents = {
        "name": "list_incidents",
        "description": "Open incidents (read-only).",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
    }
    page = {
        "name": "page_oncall",
        "description": "Pages the on-call engineer; needs elicitation to confirm.",
        "inputSchema": {
            "type": "object",
            "properties": {"service": {"type": "string"}},
            "required": ["service"],
        },
    }
    if FAULT == "bad-schema":
        del incidents["inputSchema"]
    return [incidents, page]


def capabilities():
    caps = {"tools": {}}
    if FAULT == "declared-unanswered":
        caps["prompts"] = {}
    return caps


class Refusal(Exception):
    def __init__(self, code, message, status, data=None):
        super().__init__(message)
        self.code, self.message, self.status, self.data = code, message, status, data


def complete(result, cache=False):
    result = dict(result, resultType="complete")
    result["_meta"] = {SINFO: INFO}
    if cache and FAULT != "no-cache-hints":
        result.update(ttlMs=60000, cacheScope="public")
    return result


def call_tool(params, declared):
    name = params.get("name")
    if name == "list_incidents":
        return {"content": [{"type": "text", "text": "INC-7: api latency"}]}
    if name == "page_oncall":
        if "elicitation" not in declared:
            return None  # the caller refuses in its era's way
        return {"content": [{"type": "text", "text": "paged %s" % params.get("arguments", {}).get("service")}]}
    if FAULT == "unknown-tool-32601":
        raise Refusal(-32601, "Method not found: %s" % name, 404)
    raise Refusal(-32602, "Unknown tool: %s" % name, 200)


def modern(method, params, headers):
    meta = params.get("_meta")
    if not isinstance(meta, dict) or not isinstance(meta.get(PV), str):
        raise Refusal(-32602, "Invalid params: _meta needs protocolVersion", 400)
    if not isinstance(meta.get(CAPS), dict) and FAULT != "meta-lenient":
        raise Refusal(-32602, "Invalid params: _meta needs clientCapabilities", 400)
    if headers is not None:
        expected = {"mcp-protocol-version": meta[PV]}
        if FAULT != "no-header-check":
            expected["mcp-method"] = method
        for key, want in expected.items():
            if headers.get(key, "").strip() != want:
                raise Refusal(-32020, "Header mismatch: %s" % key, 400)
    if meta[PV] != MODERN:
        raise Refusal(-32022, "Unsupported protocol version", 400,
                      {"supported": [MODERN], "requested": meta[PV]})
    declared = dict(meta.get(CAPS) or {})
    if FAULT == "stateful-caps":
        REMEMBERED.update(declared)
        declared = dict(REMEMBERED)
    if method == "server/discover":
        return complete({"supportedVersions": [MODERN], "capabilities": capabilities()}, cache=True)
    if method == "tools/list":
        return complete({"tools": tools()}, cache=True)
    if method == "tools/call":
        result = call_tool(params, declared)
        if result is None:
            raise Refusal(-32021, "page_oncall needs elicitation", 400,
                          {"requiredCapabilities": {"elicitation": {}}})
        return complete(result)
    raise Refusal(-32601, "Method not found: %s" % method, 404)


def legacy(method, params, state):
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in LEGACY or FAULT == "echo-any-version" else LEGACY[0]
        state["caps"] = params.get("capabilities") or {}
        return {"protocolVersion": version, "capabilities": capabilities(), "serverInfo": INFO}
    if method == "tools/list":
        return {"tools": tools()}
    if method == "tools/call":
        result = call_tool(params, state.get("caps", {}))
        if result is None:
            return {"isError": True, "content": [{"type": "text", "text":
                    "page_oncall needs a confirmation this client cannot give; call it from a client with elicitation"}]}
        return result
    if method == "ping":
        return {}
    raise Refusal(-32601, "Method not found: %s" % method, 404)


def handle(message, headers, state):
    """The answer to one message and its HTTP status; (None, 202) for a notification."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str):
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}, 400
    method, params, mid = message["method"], message.get("params") or {}, message.get("id")
    if "id" not in message:
        return None, 202
    try:
        is_modern = isinstance(params.get("_meta"), dict) and PV in params["_meta"]
        if headers is not None and headers.get("mcp-protocol-version", "") >= MODERN:
            is_modern = True
        if method == "initialize":
            is_modern = False
        result = modern(method, params, headers) if is_modern else legacy(method, params, state)
        return {"jsonrpc": "2.0", "id": mid, "result": result}, 200
    except Refusal as r:
        error = {"code": r.code, "message": r.message}
        if r.data is not None:
            error["data"] = r.data
        status = 200 if FAULT == "status-200" else r.status
        return {"jsonrpc": "2.0", "id": mid, "error": error}, status


def stdio():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            answer = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        else:
            answer, _ = handle(message, None, SESSION)
        if answer is not None:
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            message = json.loads(body)
        except ValueError:
            answer, status = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}, 400
        else:
            answer, status = handle(message, headers, {})
        if answer is None:
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.send_response(405)
        self.send_header("content-length", "0")
        self.end_headers()


def main():
    global FAULT
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault")
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    FAULT = args.fault
    if args.http:
        server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
        sys.stderr.write("listening on http://127.0.0.1:%d/mcp\n" % server.server_address[1])
        sys.stderr.flush()
        server.serve_forever()
    else:
        stdio()


if __name__ == "__main__":
    main()
