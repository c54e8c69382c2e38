#!/usr/bin/env python3
"""A small dual-era MCP server with one deliberate fault at a time, for
`mcp-lanes check`'s tests (crates/cli/tests/check.rs). Python standard
library only. The contract it keeps is tests/peers/faulty/FAULTS.md.

    server.py [--fault NAME] [--modern-only] [--http --port N]

Without --fault it keeps every rule the check grades: a deploy console with
`list_incidents` (read-only) and `page_oncall` (needs the client's
elicitation capability: -32021 without it in the modern era, a tool error
in a legacy session without it). It speaks both eras: a request whose
`_meta` names a protocolVersion (or, on HTTP, whose MCP-Protocol-Version
header is 2026-07-28 or later) is served statelessly as 2026-07-28;
`initialize` starts a legacy session. --modern-only drops the legacy side.

Each fault breaks exactly one rule:

    no-answer-unknown-method  never answers an unknown method               (S-ANSWER)
    declared-unanswered       declares prompts, answers prompts/list -32601 (S-DECLARED)
    bad-schema                lists a tool without inputSchema              (S-SCHEMA)
    init-no-server-info       initialize result without serverInfo          (L-INIT)
    echo-any-version          initialize echoes any version, even 1999-01-01 (L-VERSION)
    elicit-undeclared         sends elicitation/create to a legacy client
                              that never declared elicitation               (L-CAP-SESSION)
    discover-no-capabilities  server/discover result without capabilities   (M-DISCOVER)
    no-result-type            tools/call results without resultType         (M-RESULT-TYPE)
    no-cache-hints            discover/tools/list without ttlMs/cacheScope  (M-CACHE-HINTS)
    version-wrong-data        -32022 data says supportedVersions            (M-VERSION)
    meta-lenient              serves requests whose _meta lacks
                              capabilities, or that have no _meta          (M-META-REQUIRED)
    unknown-method-32602      an unknown method gets -32602 (HTTP 400)      (M-UNKNOWN-METHOD)
    unknown-tool-32601        an unknown tool gets -32601 (HTTP 404)        (M-UNKNOWN-TOOL)
    cap-wrong-code            page_oncall without elicitation gets -32602   (M-CAP-REQUIRED)
    stateful-caps             remembers capabilities declared earlier       (M-STATELESS)
    elicit-without-cap        page_oncall without elicitation answers
                              input_required with an elicitation            (M-MRTR-CAP)
    init-unnamed              modern-only; initialize refused -32601 with
                              no versions named                             (M-INIT-ON-MODERN)
    status-200                every error travels with HTTP 200             (H-STATUS, HTTP)
    no-header-check           ignores Mcp-Method                            (H-HEADERS, HTTP)

And processes that are not MCP servers at all (also --fault):

    echo               stdio: every line back unchanged; HTTP: every POST's body back
    silent             reads, never writes; HTTP: reads the request, never answers
    garbage            stdio: "hello, this is not JSON"; HTTP: 200 text/html
    crash-after-first  answers the first request, then exits 3 (stdio) or
                       closes every later connection unanswered (HTTP)
    wrong-id           answers every request correctly, with id 424242

On stdio it reads one JSON-RPC message per line and writes one per line,
flushed at once, and nothing else on stdout. With --http it serves
POST /mcp on 127.0.0.1 (--port 0: any free port), answers GET and DELETE
with 405, and prints `listening on http://127.0.0.1:PORT/mcp` on stderr.
Bad input (not JSON, not a request, huge lines) is answered, never fatal.
"""

import argparse
import base64
import itertools
import json
import os
import select
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

MODERN = "2026-07-28"
LEGACY = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
PV = "io.modelcontextprotocol/protocolVersion"
CAPS = "io.modelcontextprotocol/clientCapabilities"
CINFO = "io.modelcontextprotocol/clientInfo"
SINFO = "io.modelcontextprotocol/serverInfo"
INFO = {"name": "faulty-deploy-console", "version": "0.2.0"}

# Faults that break one rule of an MCP server.
SERVER_FAULTS = [
    "no-answer-unknown-method", "declared-unanswered", "bad-schema",
    "init-no-server-info", "echo-any-version", "elicit-undeclared",
    "discover-no-capabilities", "no-result-type", "no-cache-hints",
    "version-wrong-data", "meta-lenient", "unknown-method-32602",
    "unknown-tool-32601", "cap-wrong-code", "stateful-caps",
    "elicit-without-cap", "init-unnamed", "status-200", "no-header-check",
]
# Processes that are not MCP servers (crash-after-first and wrong-id run
# the correct server and spoil its transport).
NOT_SERVERS = ["echo", "silent", "garbage", "crash-after-first", "wrong-id"]

WRONG_ID = 424242
ELICIT_WAIT = 1.0  # elicit-undeclared: seconds to wait for the client's answer
MAX_MESSAGE = 64 * 1024 * 1024  # a longer line or body is refused unread (-32700)

FAULT = None
MODERN_ONLY = False

LOCK = threading.Lock()
REMEMBERED = {}  # stateful-caps: clientInfo name (or None) -> capabilities seen (the fault)
ELICIT_IDS = itertools.count(1)  # elicit-undeclared: elicit-1, elicit-2, ...
WAITING = {}  # elicit-undeclared on HTTP: elicitation id -> threading.Event
CRASH = {"served": False}  # crash-after-first on HTTP: the first POST was taken


# ---- the deploy console ----------------------------------------------------

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
        caps["prompts"] = {}  # declared, yet prompts/list is -32601 (the fault)
    return caps


def text(message, error=False):
    result = {"content": [{"type": "text", "text": message}]}
    if error:
        result["isError"] = True
    return result


NEEDS_ELICITATION = object()  # call_tool: page_oncall and no elicitation declared


def call_tool(params, declared):
    """A tool's result, or NEEDS_ELICITATION for the caller's era to refuse."""
    name = params.get("name")
    if not isinstance(name, str):
        raise Refusal(-32602, "Invalid params: tools/call needs a tool name", 200)
    if name == "list_incidents":
        return text("INC-7: api latency")
    if name == "page_oncall":
        # The capability check comes first, before anything else (M-CAP-BEFORE-WORK).
        if "elicitation" not in declared:
            return NEEDS_ELICITATION
        arguments = params.get("arguments")
        service = arguments.get("service") if isinstance(arguments, dict) else None
        if not isinstance(service, str):
            return text("page_oncall needs a service (a string), e.g. {\"service\": \"api\"}", error=True)
        return text("paged %s" % service)
    if FAULT == "unknown-tool-32601":
        raise Refusal(-32601, "Method not found", 404)  # the fault
    raise Refusal(-32602, "Unknown tool: %s" % name, 200)


def legacy_tool_error():
    return text("page_oncall needs a confirmation this client cannot give (no elicitation "
                "capability); call it again from a client that declares elicitation", error=True)


def elicitation_params(params):
    arguments = params.get("arguments")
    service = arguments.get("service") if isinstance(arguments, dict) else None
    return {
        "message": "Page the on-call for %s?" % service,
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
    }


# ---- answers -------------------------------------------------------------------

class Refusal(Exception):
    """A JSON-RPC error answer and the HTTP status it travels with."""

    def __init__(self, code, message, status, data=None):
        super().__init__(message)
        self.code, self.message, self.status, self.data = code, message, status, data


class Silence(Exception):
    """no-answer-unknown-method: the request gets no answer at all."""


class Reply:
    """What to do with one message: `body` (None: nothing to send) with its
    HTTP `status`; `silent`: never answer; `elicit`: a request to send the
    client first, then wait for its answer (or ELICIT_WAIT) before `body`."""

    def __init__(self, body=None, status=202, silent=False, elicit=None):
        self.body, self.status, self.silent, self.elicit = body, status, silent, elicit


def error(mid, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": mid, "error": err}


def status_of(status):
    return 200 if FAULT == "status-200" else status  # status-200: the fault


def parse_error(message="Parse error"):
    return Reply(error(None, -32700, message), status_of(400))


def invalid_request():
    return Reply(error(None, -32600, "Invalid Request"), status_of(400))


def unknown_method(method):
    if FAULT == "no-answer-unknown-method":
        raise Silence()  # the fault
    if FAULT == "unknown-method-32602":
        raise Refusal(-32602, "Invalid params", 400)  # the fault
    raise Refusal(-32601, "Method not found: %s" % method, 404)


def complete(result, cache=False):
    """A modern result: resultType, serverInfo in _meta, and cache hints."""
    result = dict(result, resultType="complete")
    result["_meta"] = {SINFO: INFO}
    if cache and FAULT != "no-cache-hints":
        result.update(ttlMs=60000, cacheScope="public")
    return result


# ---- the modern era (2026-07-28): stateless ------------------------------------

def header_value(headers, name):
    """A header's value, trimmed, the `=?base64?...?=` form decoded; None if absent."""
    value = headers.get(name)
    if value is None:
        return None
    value = value.strip(" \t")
    if value.startswith("=?base64?") and value.endswith("?=") and len(value) >= 11:
        try:
            return base64.b64decode(value[9:-2], validate=True).decode("utf-8")
        except ValueError:
            return "\0undecodable"
    return value


def modern(method, params, headers):
    """Serves one modern request (headers: None on stdio), checks in the
    contract's order; the first failure wins."""
    # 1. _meta: protocolVersion a string, clientCapabilities an object.
    meta = params.get("_meta")
    if FAULT == "meta-lenient":
        # The fault: no _meta, no protocolVersion or no clientCapabilities
        # is served anyway, as if the request had declared nothing.
        if meta is None:
            meta = {}
        if isinstance(meta, dict) and PV not in meta:
            version = (header_value(headers, "mcp-protocol-version") if headers is not None else None) or MODERN
            meta = dict(meta, **{PV: version})
        if isinstance(meta, dict) and not isinstance(meta.get(CAPS), dict):
            meta = dict(meta, **{CAPS: {}})
    if not isinstance(meta, dict):
        raise Refusal(-32602, "Invalid params: a 2026-07-28 request needs params._meta", 400)
    if not isinstance(meta.get(PV), str):
        raise Refusal(-32602, "Invalid params: _meta needs %s (a string)" % PV, 400)
    if not isinstance(meta.get(CAPS), dict):
        raise Refusal(-32602, "Invalid params: _meta needs %s (an object)" % CAPS, 400)
    version = meta[PV]

    # 2. HTTP: the headers repeat the body.
    if headers is not None:
        expected = [("mcp-protocol-version", version)]
        if FAULT != "no-header-check":  # no-header-check: the fault
            expected.append(("mcp-method", method))
        if method == "tools/call":
            expected.append(("mcp-name", params.get("name")))
        for name, want in expected:
            got = header_value(headers, name)
            if got != want:
                raise Refusal(-32020, "Header mismatch: %s is %s, the body says %s"
                              % (name, json.dumps(got), json.dumps(want)), 400)

    # 3. A version this server speaks.
    if version != MODERN:
        if FAULT == "version-wrong-data":
            data = {"supportedVersions": [MODERN], "requested": version}  # the fault
        else:
            data = {"supported": [MODERN], "requested": version}
        raise Refusal(-32022, "Unsupported protocol version: %s" % version, 400, data)

    declared = meta[CAPS]
    if FAULT == "stateful-caps":
        # The fault: what anyone with this clientInfo name declared before
        # counts as declared now.
        info = meta.get(CINFO)
        who = info.get("name") if isinstance(info, dict) and isinstance(info.get("name"), str) else None
        with LOCK:
            memory = REMEMBERED.setdefault(who, {})
            memory.update(declared)
            declared = dict(memory)

    # 4. The method.
    if method == "server/discover":
        result = {"supportedVersions": [MODERN], "capabilities": capabilities()}
        if FAULT == "discover-no-capabilities":
            del result["capabilities"]  # the fault
        return complete(result, cache=True)
    if method == "tools/list":
        return complete({"tools": tools()}, cache=True)
    if method == "tools/call":
        result = call_tool(params, declared)
        if result is NEEDS_ELICITATION:
            if FAULT == "cap-wrong-code":
                raise Refusal(-32602, "page_oncall needs elicitation", 400)  # the fault
            if FAULT == "elicit-without-cap":
                # The fault: asks for input through a capability nobody declared.
                return {
                    "resultType": "input_required",
                    "inputRequests": {"confirm": {"method": "elicitation/create", "params": dict(
                        elicitation_params(params), mode="form")}},
                    "_meta": {SINFO: INFO},
                }
            raise Refusal(-32021, "Missing required client capability: page_oncall needs elicitation",
                          400, {"requiredCapabilities": {"elicitation": {}}})
        result = complete(result)
        if FAULT == "no-result-type":
            del result["resultType"]  # the fault
        return result
    unknown_method(method)


def refuse_initialize():
    """--modern-only: initialize is a method this server does not have."""
    if FAULT == "init-unnamed":
        raise Refusal(-32601, "Method not found", 404)  # the fault: no versions named
    raise Refusal(-32601, "Method not found: initialize; this server speaks %s only "
                  "(send server/discover with _meta)" % MODERN, 404, {"supported": [MODERN]})


# ---- the legacy era (initialize and its session) -------------------------------

def legacy(method, params, session):
    """Serves one legacy request in `session` (the stdio process's; on HTTP
    a fresh one per POST). Returns a result, or a Reply for elicit-undeclared."""
    if method == "initialize":
        asked = params.get("protocolVersion")
        if asked in LEGACY or (FAULT == "echo-any-version" and isinstance(asked, str)):
            version = asked  # echo-any-version: the fault echoes anything
        else:
            version = LEGACY[0]
        caps = params.get("capabilities")
        session["caps"] = caps if isinstance(caps, dict) else {}
        session["initialized"] = True
        result = {"protocolVersion": version, "capabilities": capabilities(), "serverInfo": INFO}
        if FAULT == "init-no-server-info":
            del result["serverInfo"]  # the fault
        return result
    if method == "tools/list":
        return {"tools": tools()}
    if method == "tools/call":
        result = call_tool(params, session.get("caps", {}))
        if result is NEEDS_ELICITATION:
            if FAULT == "elicit-undeclared":
                # The fault: asks the client through a capability it never declared.
                eid = "elicit-%d" % next(ELICIT_IDS)
                ask = {"jsonrpc": "2.0", "id": eid, "method": "elicitation/create",
                       "params": elicitation_params(params)}
                return Reply(None, 200, elicit=ask)
            return legacy_tool_error()
        return result
    if method == "ping":
        return {}
    unknown_method(method)


# ---- one message, either transport ---------------------------------------------

def is_request_id(value):
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def is_response(message):
    """A JSON-RPC response from the client (to elicitation/create): never answered."""
    return (isinstance(message, dict) and "method" not in message and "id" in message
            and ("result" in message or "error" in message))


def handle(message, headers, session):
    """The Reply to one parsed message; headers: lowercase names (HTTP) or None (stdio)."""
    if is_response(message):
        return Reply()
    if (not isinstance(message, dict) or message.get("jsonrpc") != "2.0"
            or not isinstance(message.get("method"), str)
            or ("id" in message and not is_request_id(message["id"]))
            or ("params" in message and not isinstance(message["params"], dict))):
        return invalid_request()
    if "id" not in message:
        return Reply()  # a notification: no answer (HTTP 202)
    method, params, mid = message["method"], message.get("params", {}), message["id"]
    try:
        if method == "initialize" and MODERN_ONLY:
            refuse_initialize()
        meta = params.get("_meta")
        if method == "initialize":
            is_modern = False  # initialize is never modern
        elif MODERN_ONLY or (isinstance(meta, dict) and PV in meta):
            is_modern = True
        elif headers is not None:
            is_modern = (header_value(headers, "mcp-protocol-version") or "") >= MODERN
        else:
            # stdio: before any initialize, a request without a modern
            # version is a modern request missing its _meta.
            is_modern = not session.get("initialized")
        if is_modern:
            result = modern(method, params, headers)
        else:
            result = legacy(method, params, session)
            if isinstance(result, Reply):
                # elicit-undeclared: the call's own answer, sent once the
                # elicitation is answered or has waited ELICIT_WAIT.
                result.body = {"jsonrpc": "2.0", "id": mid, "result": legacy_tool_error()}
                return result
        return Reply({"jsonrpc": "2.0", "id": mid, "result": result}, 200)
    except Silence:
        return Reply(silent=True)
    except Refusal as r:
        return Reply(error(mid, r.code, r.message, r.data), status_of(r.status))


def parse(data):
    """The message in `data` (bytes), or a Reply refusing it."""
    try:
        return json.loads(data, parse_constant=reject_constant)
    except RecursionError:
        return parse_error("Parse error: nested too deeply")
    except ValueError:  # not JSON, not UTF-8, NaN/Infinity, absurd numbers
        return parse_error()


def reject_constant(name):
    raise ValueError("%s is not JSON" % name)


def spoil(body):
    """wrong-id: an answer to a request carries the wrong id."""
    if FAULT == "wrong-id" and isinstance(body, dict) and body.get("id") is not None:
        body = dict(body, id=WRONG_ID)
    return body


# ---- stdio ---------------------------------------------------------------------

class Lines:
    """Lines of a file descriptor, read with a timeout (select), so the
    server can wait for an answer without threads. Lines over MAX_MESSAGE
    are skipped whole and returned as TOO_LONG."""

    EOF, TIMEOUT, TOO_LONG = object(), object(), object()

    def __init__(self, fd):
        self.fd, self.buffer, self.skipping, self.ended = fd, bytearray(), False, False

    def next(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[:newline + 1]
                if self.skipping:
                    self.skipping = False
                    return Lines.TOO_LONG
                return line
            if len(self.buffer) > MAX_MESSAGE:
                self.buffer.clear()
                self.skipping = True
            if self.ended:
                if self.buffer and not self.skipping:
                    line = bytes(self.buffer)
                    self.buffer.clear()
                    return line
                if self.skipping:
                    self.skipping = False
                    return Lines.TOO_LONG
                return Lines.EOF
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    return Lines.TIMEOUT
            try:
                chunk = os.read(self.fd, 1 << 16)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if chunk:
                self.buffer += chunk
            else:
                self.ended = True


def write(body):
    try:
        sys.stdout.write(json.dumps(body) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        os._exit(0)  # the client is gone


def answer(body):
    """Writes an answer; crash-after-first exits after the first one."""
    write(spoil(body))
    if FAULT == "crash-after-first":
        os._exit(3)


def stdio():
    lines = Lines(sys.stdin.fileno())
    session = {"initialized": False, "caps": {}}
    pending = {}  # elicit-undeclared: elicitation id -> (deadline, the call's answer)
    while True:
        timeout = None
        if pending:
            timeout = max(0.0, min(d for d, _ in pending.values()) - time.monotonic())
        line = lines.next(timeout)
        if line is Lines.EOF:
            for _, body in pending.values():  # nobody can answer now
                answer(body)
            return
        if line is Lines.TIMEOUT:
            now = time.monotonic()
            for eid, (deadline, body) in list(pending.items()):
                if deadline <= now:
                    del pending[eid]
                    answer(body)
            continue
        if line is Lines.TOO_LONG:
            answer(parse_error("Parse error: message too large").body)
            continue
        if not line.strip():
            continue
        message = parse(line)
        if is_response(message) and is_request_id(message["id"]) and message["id"] in pending:
            # The client answered the elicitation (however): the call's answer follows.
            answer(pending.pop(message["id"])[1])
            continue
        reply = message if isinstance(message, Reply) else handle(message, None, session)
        if reply.elicit is not None:
            write(reply.elicit)
            pending[reply.elicit["id"]] = (time.monotonic() + ELICIT_WAIT, reply.body)
        elif reply.body is not None and not reply.silent:
            answer(reply.body)


def stdio_not_a_server():
    """echo, silent, garbage on stdio. Long lines are read in pieces (each
    echoed as it comes), so a huge line costs no memory."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    in_line = False  # a line has begun and its newline has not come yet
    try:
        while True:
            piece = stdin.readline(1 << 20)
            ends = piece.endswith(b"\n")
            if FAULT == "echo":
                stdout.write(piece)
            elif FAULT == "garbage" and (ends or (not piece and in_line)):
                stdout.write(b"hello, this is not JSON\n")  # one per line
            stdout.flush()
            if not piece:
                return
            in_line = not ends
    except BrokenPipeError:
        os._exit(0)


# ---- Streamable HTTP -------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, and chunked SSE for elicit-undeclared

    def log_message(self, *args):
        pass

    def empty(self, status):
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def send(self, status, data, content_type="application/json"):
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def hold(self):
        """Reads on and never answers, until the client gives up and closes."""
        self.close_connection = True
        try:
            self.connection.settimeout(None)
            while self.connection.recv(1 << 16):
                pass
        except OSError:
            pass

    def read_body(self):
        """The request body (Content-Length or chunked); None if unreadable."""
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            chunks, size = [], 0
            while True:
                head = self.rfile.readline(1024)
                try:
                    n = int(head.split(b";")[0].strip(), 16)
                except ValueError:
                    return None
                if n < 0 or size + n > MAX_MESSAGE:
                    return None
                if n == 0:
                    while self.rfile.readline(1024).strip():  # trailers
                        pass
                    return b"".join(chunks)
                chunk = self.rfile.read(n)
                if len(chunk) < n:
                    return None
                chunks.append(chunk)
                size += n
                self.rfile.readline(1024)  # the chunk's CRLF
        try:
            n = int(self.headers.get("content-length") or 0)
        except ValueError:
            return None
        if n < 0 or n > MAX_MESSAGE:
            return None
        data = self.rfile.read(n)
        return data if len(data) == n else None

    def do_POST(self):
        try:
            self.post()
        except (BrokenPipeError, ConnectionError, TimeoutError):
            self.close_connection = True

    def post(self):
        if FAULT == "crash-after-first":
            with LOCK:  # the first POST is served; later ones find it taken
                first, CRASH["served"] = not CRASH["served"], True
            if not first:
                self.close_connection = True  # closed without a response
                return
        body = self.read_body()
        if FAULT == "silent":
            return self.hold()
        if FAULT == "echo":
            return self.send(200, body or b"")
        if FAULT == "garbage":
            return self.send(200, b"<html>not MCP</html>", "text/html")
        if body is None:
            self.close_connection = True  # the framing is lost
            reply = parse_error("Parse error: the body cannot be read (framing, or over 64 MiB)")
        elif urlsplit(self.path).path != "/mcp":
            return self.empty(404)
        else:
            headers = {}
            for name, value in self.headers.items():
                headers.setdefault(name.lower(), value)
            reply = self.answer(body, headers)
        if reply.silent:
            return self.hold()
        if reply.elicit is not None:
            return self.stream(reply)
        if reply.body is None:
            return self.empty(reply.status)
        self.send(reply.status, json.dumps(spoil(reply.body)).encode())

    def answer(self, body, headers):
        """The Reply to one POST's body; each POST is its own legacy session
        (no capabilities). A client's answer to a waiting elicitation
        (elicit-undeclared) releases that call's stream."""
        message = parse(body)
        if isinstance(message, Reply):
            return message
        if is_response(message) and is_request_id(message.get("id")):
            with LOCK:
                waiting = WAITING.get(message["id"])
            if waiting is not None:
                waiting.set()
        return handle(message, headers, {"initialized": False, "caps": {}})

    def stream(self, reply):
        """elicit-undeclared: an SSE stream with the elicitation, then (after
        the client's answer, or ELICIT_WAIT) the call's answer."""
        eid = reply.elicit["id"]
        answered = threading.Event()
        with LOCK:
            WAITING[eid] = answered
        try:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            self.chunk(b"event: message\ndata: %s\n\n" % json.dumps(reply.elicit).encode())
            answered.wait(ELICIT_WAIT)
            self.chunk(b"event: message\ndata: %s\n\n" % json.dumps(spoil(reply.body)).encode())
            self.chunk(b"")
        finally:
            with LOCK:
                WAITING.pop(eid, None)

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def refuse_method(self):
        if FAULT == "silent":
            return self.hold()
        if FAULT == "crash-after-first" and CRASH["served"]:
            self.close_connection = True  # after the first POST: closed unanswered
            return
        self.empty(405)

    do_GET = do_DELETE = do_PUT = do_PATCH = do_HEAD = do_OPTIONS = refuse_method


def main():
    global FAULT, MODERN_ONLY
    parser = argparse.ArgumentParser(description="A dual-era MCP server with one fault at a time.")
    parser.add_argument("--fault", help="one of: " + ", ".join(SERVER_FAULTS + NOT_SERVERS))
    parser.add_argument("--modern-only", action="store_true", help="no legacy side")
    parser.add_argument("--http", action="store_true", help="Streamable HTTP instead of stdio")
    parser.add_argument("--port", type=int, default=0, help="with --http (0: any free port)")
    args = parser.parse_args()
    if args.fault is not None and args.fault not in SERVER_FAULTS + NOT_SERVERS:
        parser.error("unknown --fault %r; known: %s" % (args.fault, ", ".join(SERVER_FAULTS + NOT_SERVERS)))
    FAULT = args.fault
    MODERN_ONLY = args.modern_only or FAULT == "init-unnamed"  # init-unnamed implies it
    try:
        if args.http:
            server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
            server.daemon_threads = True
            sys.stderr.write("listening on http://127.0.0.1:%d/mcp\n" % server.server_address[1])
            sys.stderr.flush()
            server.serve_forever()
        elif FAULT in ("echo", "silent", "garbage"):
            stdio_not_a_server()
        else:
            stdio()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
