"""The benchmark's Python SDK peer: mcp 2.3.0, stateless Streamable HTTP
(MCPServer with stateless_http and JSON responses) under uvicorn at
127.0.0.1:PORT/mcp. One tool, list_incidents, with the text mcp-lanes'
deploy-console returns."""
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer

TEXT = "2 open incidents: INC-4211 (sev2, payments latency), INC-4214 (sev3, stale dashboard)."

mcp = MCPServer("deploy-console")


@mcp.tool()
def list_incidents() -> str:
    """List open incidents with their severity and owner."""
    return TEXT


if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    app = mcp.streamable_http_app(stateless_http=True, json_response=True)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
