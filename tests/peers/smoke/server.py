"""A lesson-style server on the official Python SDK (mcp 2.3.0, MCPServer, the
FastMCP of mcp 1.x): lesson 07's deploy console, for the `check` command's
tests and the benchmark.

    tests/peers/.venv/bin/python tests/peers/smoke/server.py            # stdio
    tests/peers/.venv/bin/python tests/peers/smoke/server.py --http --port N [--stateful]

Tools:
  notify_oncall(service, message)  pages the on-call engineer, after asking the
                                   user through elicitation ({"confirm": bool});
                                   2026-07-28: an MRTR input request (key
                                   "confirm"); legacy: elicitation/create, which
                                   needs a session (stdio, or --stateful HTTP)
  list_incidents()                 read-only, needs nothing from the client

HTTP: Streamable HTTP on http://127.0.0.1:N/mcp, stateless unless --stateful
(served by uvicorn, which comes with mcp). Pages are counted in memory and
logged on stderr ("paged <service>") so that tests can see side effects.
"""

from __future__ import annotations

import argparse
import sys

import mcp_types as types
from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, MCPServer

INCIDENTS = [
    {"id": "INC-1042", "service": "checkout", "severity": "sev2", "status": "open"},
    {"id": "INC-1039", "service": "search", "severity": "sev3", "status": "mitigated"},
]

server = MCPServer(name="deploy-console-py", version="1.0.0")
pages: list[str] = []


class Confirm(BaseModel):
    """What the user answers before anyone is paged."""

    confirm: bool = Field(description="Page the on-call engineer now?")


@server.tool(annotations={"readOnlyHint": True})
def list_incidents() -> str:
    """List the open and recently mitigated incidents (read-only)."""
    return "\n".join(f"{i['id']} {i['service']} {i['severity']} {i['status']}" for i in INCIDENTS)


CONFIRM_SCHEMA = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "description": "Page the on-call engineer now?"}},
    "required": ["confirm"],
}


@server.tool(annotations={"destructiveHint": False, "openWorldHint": True})
async def notify_oncall(service: str, message: str, ctx: Context) -> str | types.InputRequiredResult:
    """Page the on-call engineer for a service. Asks the user to confirm first."""
    question = f"Page the on-call engineer for {service}?"
    if ctx.protocol_version == "2026-07-28":
        # Stateless: no back-channel, so ask through MRTR and read the answer on the retry.
        answer = (ctx.input_responses or {}).get("confirm")
        if not isinstance(answer, types.ElicitResult):
            return types.InputRequiredResult(
                input_requests={
                    "confirm": types.ElicitRequest(
                        params=types.ElicitRequestFormParams(message=question, requested_schema=CONFIRM_SCHEMA)
                    )
                }
            )
        action, confirmed = answer.action, bool((answer.content or {}).get("confirm"))
    else:
        # A legacy session: elicitation/create on the session's stream.
        result = await ctx.elicit(question, Confirm)
        action, confirmed = result.action, result.action == "accept" and result.data.confirm
    if action != "accept" or not confirmed:
        return f"Not paged: the user did not confirm ({action})."
    pages.append(service)
    print(f"paged {service}: {message}", file=sys.stderr, flush=True)
    return f"Paged the on-call engineer for {service}."


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--http", action="store_true")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--stateful", action="store_true")
    opts = p.parse_args()
    if opts.http:
        server.run(
            "streamable-http",
            host="127.0.0.1",
            port=opts.port,
            stateless_http=not opts.stateful,
        )
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
