// The benchmark's TypeScript SDK v2 peer: @modelcontextprotocol/server
// 2.4.0 serving the 2026-07-28 revision (createMcpHandler with a per-request
// server factory, legacy traffic rejected), mounted on node:http with its
// Node adapter (toNodeHandler) at 127.0.0.1:PORT/mcp.
// One tool, list_incidents, with the text mcp-lanes' deploy-console returns.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';

const port = Number(process.argv[2] ?? 3000);
const TEXT = '2 open incidents: INC-4211 (sev2, payments latency), INC-4214 (sev3, stale dashboard).';

function build() {
  const server = new McpServer({ name: 'deploy-console', version: '2.4.0' });
  server.registerTool('list_incidents', { description: 'List open incidents with their severity and owner.' },
    async () => ({ content: [{ type: 'text', text: TEXT }] }));
  return server;
}

const handler = toNodeHandler(createMcpHandler(build, { legacy: 'reject' }));

createServer(async (req, res) => {
  if (req.url !== '/mcp') { res.writeHead(404).end(); return; }
  await handler(req, res);
}).listen(port, '127.0.0.1', () => console.error(`ts-v2 listening on ${port}`));
