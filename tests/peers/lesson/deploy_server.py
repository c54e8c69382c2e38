#!/usr/bin/env python3
"""DeployServer, the Practice Lab server of lesson 07, as a learner might
write it: a stateless 2026-07-28 MCP server on stdio, Python standard library
only. The README's "Check your server" runs `mcp-lanes check` against it.

- server/discover: its versions, its capabilities and cache hints;
- list_incidents: read-only (annotations.readOnlyHint), needs nothing;
- notify_oncall: pages someone, so it asks first: with the elicitation
  capability declared on the request it returns input_required with an
  elicitation, and pages once the answer comes back; without it, -32021.

It has the mistake a learner makes first: a legacy client's `initialize`
gets the generic `_meta` refusal, which names no version (M-INIT-ON-MODERN).
`--fixed` answers it as the README shows, naming the versions it speaks.
"""

import json
import sys

VERSION = "2026-07-28"
PV = "io.modelcontextprotocol/protocolVersion"
CAPS = "io.modelcontextprotocol/clientCapabilities"
SINFO = "io.modelcontextprotocol/serverInfo"
INFO = {"name": "deploy-server", "version": "0.7.0"}

TOOLS = [
    {
        "name": "list_incidents",
        "description": "Open incidents, newest first.",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "notify_oncall",
        "description": "Page the on-call engineer of a service (asks for confirmation first).",
        "inputSchema": {
            "type": "object",
            "properties": {"service": {"type": "string"}, "message": {"type": "string"}},
            "required": ["service", "message"],
        },
    },
]


class Refusal(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def result(fields, cache=False):
    out = dict(fields, resultType="complete", _meta={SINFO: INFO})
    if cache:
        out.update(ttlMs=300000, cacheScope="public")
    return out


def notify_oncall(params, declared):
    args = params.get("arguments") or {}
    if "elicitation" not in declared:
        raise Refusal(-32021, "notify_oncall asks for confirmation: declare elicitation",
                      {"requiredCapabilities": {"elicitation": {}}})
    answer = (params.get("inputResponses") or {}).get("confirm")
    if answer is None:
        return {"resultType": "input_required", "inputRequests": {"confirm": {
            "method": "elicitation/create",
            "params": {"mode": "form",
                       "message": "Page the on-call of %s?" % args.get("service"),
                       "requestedSchema": {"type": "object",
                                           "properties": {"confirm": {"type": "boolean"}}}}}}}
    if answer.get("action") != "accept":
        return result({"content": [{"type": "text", "text": "Not paged."}]})
    sys.stderr.write("paged %s: %s\n" % (args.get("service"), args.get("message")))
    return result({"content": [{"type": "text", "text": "Paged %s." % args.get("service")}]})


FIXED = "--fixed" in sys.argv[1:]


def handle(method, params):
    if method == "initialize" and FIXED:
        raise Refusal(-32022, "deploy-server speaks 2026-07-28 only; use server/discover",
                      {"supported": [VERSION], "requested": str(params.get("protocolVersion"))})
    meta = params.get("_meta")
    if not isinstance(meta, dict) or not isinstance(meta.get(PV), str) \
            or not isinstance(meta.get(CAPS), dict):
        raise Refusal(-32602, "Invalid params: _meta needs protocolVersion and clientCapabilities")
    if meta[PV] != VERSION:
        raise Refusal(-32022, "Unsupported protocol version",
                      {"supported": [VERSION], "requested": meta[PV]})
    if method == "server/discover":
        return result({"supportedVersions": [VERSION], "capabilities": {"tools": {}}}, cache=True)
    if method == "tools/list":
        return result({"tools": TOOLS}, cache=True)
    if method == "tools/call":
        name = params.get("name")
        if name == "list_incidents":
            return result({"content": [{"type": "text", "text": "INC-42 checkout latency (open)"}]})
        if name == "notify_oncall":
            return notify_oncall(params, meta[CAPS])
        raise Refusal(-32602, "Unknown tool: %s" % name)
    raise Refusal(-32601, "Method not found: %s" % method)


def main():
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        else:
            if not isinstance(message, dict) or "id" not in message:
                continue  # a notification: no answer
            try:
                reply = {"jsonrpc": "2.0", "id": message["id"],
                         "result": handle(message.get("method"), message.get("params") or {})}
            except Refusal as r:
                error = {"code": r.code, "message": r.message}
                if r.data is not None:
                    error["data"] = r.data
                reply = {"jsonrpc": "2.0", "id": message["id"], "error": error}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
