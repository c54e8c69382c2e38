"""The official Python SDK client (mcp 2.3.0) through the whole OAuth flow.

    tests/peers/.venv/bin/python tests/peers/smoke/oauth-client.py URL
        [--tool NAME [--args JSON]] [--timeout SECONDS]

Against a protected server whose authorization server consents at once
(`mcp-lanes serve --auth`). The SDK's OAuthClientProvider does the flow: the
first request gets 401, it reads the protected resource metadata and the
authorization server's metadata, registers dynamically and hands the
redirect handler the authorization URL (PKCE S256, resource). This script is
the user's browser: it opens the URL and reads code, state and iss from the
lab server's immediate redirect, which the callback handler returns. The SDK
then exchanges the code, and the client discovers or initializes, lists the
tools and calls --tool, every request with its bearer token. Prints one JSON
summary: {"sdk", "ok", "requests": ["METHOD /path -> status", ...],
"authorization": {...}, "protocol_version", "tools", "call", "error"?}.
No token, code or verifier is printed.

Exit status: 0 when every step succeeded, 1 otherwise, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib.metadata import version
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

# Nothing listens here: the script reads the code from the redirect itself.
REDIRECT = "http://127.0.0.1:9/callback"


class Memory:
    """Token storage in memory (the SDK's TokenStorage protocol)."""

    def __init__(self) -> None:
        self.tokens = None
        self.client = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens) -> None:
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, info) -> None:
        self.client = info


async def run(opts: argparse.Namespace) -> dict:
    summary: dict = {"sdk": f"python mcp {version('mcp')}", "ok": False, "requests": []}
    redirected: dict = {}

    async def browser(url: str) -> None:
        """Open the authorization URL; the lab consents at once and redirects back."""
        async with httpx2.AsyncClient() as http:
            answer = await http.get(url)
        summary["requests"].append(f"GET {urlsplit(url).path} -> {answer.status_code}")
        asked = parse_qs(urlsplit(url).query)
        back = parse_qs(urlsplit(answer.headers.get("location", "")).query)
        redirected.update({k: v[0] for k, v in back.items()})
        summary["authorization"] = {
            "asked": {k: asked.get(k, [None])[0] for k in ("response_type", "code_challenge_method", "resource", "scope")},
            "state_returned": back.get("state") == asked.get("state"),
            "iss": redirected.get("iss"),
        }

    async def callback() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(
            code=redirected.get("code", ""), state=redirected.get("state"), iss=redirected.get("iss")
        )

    provider = OAuthClientProvider(
        server_url=opts.url,
        client_metadata=OAuthClientMetadata(
            client_name="mcp-lanes oauth smoke (python)",
            redirect_uris=[REDIRECT],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=Memory(),
        redirect_handler=browser,
        callback_handler=callback,
    )

    async def logged(response) -> None:
        request = response.request
        summary["requests"].append(f"{request.method} {request.url.path} -> {response.status_code}")

    http = create_mcp_http_client(auth=provider)
    http.event_hooks["response"] = [logged]
    try:
        with anyio.fail_after(opts.timeout):
            async with http, Client(streamable_http_client(opts.url, http_client=http)) as client:
                summary["protocol_version"] = client.protocol_version
                tools = await client.list_tools()
                summary["tools"] = [t.name for t in tools.tools]
                result = await client.call_tool(opts.tool, json.loads(opts.args))
                summary["call"] = {
                    "name": opts.tool,
                    "result": result.model_dump(mode="json", by_alias=True, exclude_none=True),
                }
                summary["ok"] = not result.is_error if hasattr(result, "is_error") else True
    except BaseException as err:  # noqa: BLE001 - timeouts and exception groups included
        summary["ok"] = False
        summary["error"] = f"{type(err).__name__}: {err}"
    return summary


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("url")
    p.add_argument("--tool", default="test_simple_text")
    p.add_argument("--args", default="{}")
    p.add_argument("--timeout", type=float, default=20.0)
    opts = p.parse_args()
    try:
        json.loads(opts.args)
    except json.JSONDecodeError as err:
        print(f"--args must be JSON: {err}", file=sys.stderr)
        return 2
    summary = anyio.run(run, opts)
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
