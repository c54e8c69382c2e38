"""Smoke client on the official Python SDK (mcp 2.3.0, tests/peers/.venv).

    tests/peers/.venv/bin/python tests/peers/smoke/client.py URL
        [--mode auto|legacy|2026-07-28] [--tool NAME [--args JSON]]
        [--elicit JSON | --decline | --no-elicitation] [--timeout SECONDS]

URL may instead be `stdio:COMMAND ARGS` (a shell-like command line): the
SDK starts that command and speaks to it over stdio.

Connects over Streamable HTTP (mode auto: server/discover, falling back to the
legacy initialize handshake; legacy: initialize only), lists the tools, calls
--tool with --args, answers any elicitation by accepting with the --elicit
content (or declines, or declares no elicitation capability at all), and
prints one JSON summary on stdout:

    {"sdk": "python mcp 2.3.0", "url": ..., "mode": ..., "ok": bool,
     "protocol_version": ..., "server_info": ..., "tools": [names],
     "elicitations": [{"message": ..., "answered": ...}],
     "call": {"name": ..., "result": {...}} | {"name": ..., "error": "..."},
     "error": "..." (connection failures only), "elapsed_ms": N}

Exit status: 0 when every step succeeded (a tool result with isError counts
as success of the call), 1 otherwise, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from importlib.metadata import version

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("url")
    p.add_argument("--mode", default="auto")
    p.add_argument("--tool")
    p.add_argument("--args", default="{}")
    answer = p.add_mutually_exclusive_group()
    answer.add_argument("--elicit", default="{}")
    answer.add_argument("--decline", action="store_true")
    answer.add_argument("--no-elicitation", action="store_true")
    p.add_argument("--timeout", type=float, default=20.0)
    return p.parse_args()


def server(url: str):
    """The URL, or the stdio server that `stdio:COMMAND ARGS` names."""
    if url.startswith("stdio:"):
        words = shlex.split(url[len("stdio:"):])
        return StdioServerParameters(command=words[0], args=words[1:])
    return url


async def run(opts: argparse.Namespace) -> dict:
    summary: dict = {"sdk": f"python mcp {version('mcp')}", "url": opts.url, "mode": opts.mode, "ok": False}
    elicitations: list[dict] = []
    content = json.loads(opts.elicit)

    async def on_elicit(_ctx, params):
        answered = "decline" if opts.decline else {"action": "accept", "content": content}
        elicitations.append({"message": getattr(params, "message", None), "answered": answered})
        if opts.decline:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content=content)

    kwargs = {"mode": opts.mode, "read_timeout_seconds": opts.timeout}
    if not opts.no_elicitation:
        kwargs["elicitation_callback"] = on_elicit
    started = time.monotonic()
    try:
        with anyio.fail_after(opts.timeout):
            async with Client(server(opts.url), **kwargs) as client:
                summary["protocol_version"] = client.protocol_version
                info = client.server_info
                summary["server_info"] = info.model_dump(mode="json", exclude_none=True) if info else None
                tools = await client.list_tools()
                summary["tools"] = [t.name for t in tools.tools]
                summary["ok"] = True
                if opts.tool:
                    call = {"name": opts.tool}
                    summary["call"] = call
                    try:
                        result = await client.call_tool(opts.tool, json.loads(opts.args))
                        call["result"] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
                    except Exception as err:  # noqa: BLE001 - report whatever the SDK raised
                        call["error"] = f"{type(err).__name__}: {err}"
                        summary["ok"] = False
    except BaseException as err:  # noqa: BLE001 - timeouts and exception groups included
        summary["ok"] = False
        summary["error"] = f"{type(err).__name__}: {err}"
    summary["elicitations"] = elicitations
    summary["elapsed_ms"] = round((time.monotonic() - started) * 1000)
    return summary


def main() -> int:
    opts = parse_args()
    try:
        json.loads(opts.args)
        json.loads(opts.elicit)
    except json.JSONDecodeError as err:
        print(f"--args and --elicit must be JSON: {err}", file=sys.stderr)
        return 2
    summary = anyio.run(run, opts)
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
