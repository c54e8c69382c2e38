#!/usr/bin/env python3
"""A protected MCP server (2026-07-28 authorization) with one fault at a
time, Python standard library only. The contract is PROTECTED.md; the MCP
behaviour behind the token check is the correct faulty/server.py's."""

import argparse
import importlib.util
import json
import os
import sys
from http.server import ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "faulty_mcp", os.path.join(HERE, "..", "faulty", "server.py"))
mcp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mcp)

FAULTS = ["challenge-no-metadata", "challenge-not-bearer", "any-audience",
          "no-metadata", "scope-401", "not-mcp"]
SCOPE = "mcp:tools"
# token -> (whose audience, scopes)
TOKENS = {
    "good-token": ("self", {SCOPE}),
    "other-audience-token": ("other", {SCOPE}),
    "low-scope-token": ("self", set()),
}
FAULT = None
BASE = ""


def quoted(value):
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def prm_url():
    return BASE + "/.well-known/oauth-protected-resource/mcp"


def challenge():
    if FAULT == "challenge-not-bearer":
        return 'Basic realm="mcp"'
    if FAULT == "challenge-no-metadata":
        return "Bearer scope=" + quoted(SCOPE)
    return "Bearer resource_metadata=%s, scope=%s" % (quoted(prm_url()), quoted(SCOPE))


def refusal(authorization):
    """(status, WWW-Authenticate) for a request the token does not allow, or None."""
    if not authorization.startswith("Bearer "):
        return 401, challenge()
    known = TOKENS.get(authorization[len("Bearer "):].strip())
    if known is None:
        return 401, challenge()
    audience, scopes = known
    if audience != "self" and FAULT != "any-audience":
        return 401, challenge()
    if SCOPE not in scopes:
        if FAULT == "scope-401":
            return 401, challenge()
        return 403, "Bearer error=\"insufficient_scope\", scope=%s, resource_metadata=%s" % (
            quoted(SCOPE), quoted(prm_url()))
    return None


class Handler(mcp.Handler):
    def reply(self, status, document=None, extra=()):
        data = json.dumps(document).encode() if document is not None else b""
        self.send_response(status)
        for name, value in extra:
            self.send_header(name, value)
        if document is not None:
            self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def not_mcp(self):
        self.read_body()
        data = b"<html><body>Sign in to the intranet</body></html>"
        self.send_response(401)
        self.send_header("www-authenticate", 'Basic realm="intranet"')
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        if FAULT == "not-mcp":
            return self.not_mcp()
        if self.path.split("?")[0] != "/mcp":
            self.read_body()
            return self.reply(404)
        refused = refusal(self.headers.get("authorization", ""))
        if refused is None:
            return mcp.Handler.do_POST(self)
        self.read_body()
        status, header = refused
        self.reply(status, None, [("www-authenticate", header)])

    def do_GET(self):
        if FAULT == "not-mcp":
            return self.not_mcp()
        path = self.path.split("?")[0]
        if path == "/.well-known/oauth-protected-resource/mcp" and FAULT != "no-metadata":
            return self.reply(200, {
                "resource": BASE + "/mcp",
                "authorization_servers": [BASE],
                "scopes_supported": [SCOPE],
                "bearer_methods_supported": ["header"],
            })
        if path == "/.well-known/oauth-authorization-server":
            return self.reply(200, {
                "issuer": BASE,
                "authorization_endpoint": BASE + "/authorize",
                "token_endpoint": BASE + "/token",
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code", "refresh_token"],
                "code_challenge_methods_supported": ["S256"],
            })
        if path == "/mcp":
            return self.reply(405)
        self.reply(404)


def main():
    global FAULT, BASE
    parser = argparse.ArgumentParser(description="A protected MCP server with one fault at a time.")
    parser.add_argument("--fault", help="one of: " + ", ".join(FAULTS))
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    args = parser.parse_args()
    if args.fault is not None and args.fault not in FAULTS:
        parser.error("unknown --fault %r; known: %s" % (args.fault, ", ".join(FAULTS)))
    FAULT = args.fault
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    BASE = "http://127.0.0.1:%d" % server.server_address[1]
    sys.stderr.write("listening on %s/mcp\n" % BASE)
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
