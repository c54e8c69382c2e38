// The benchmark's TypeScript SDK v1 peer: @modelcontextprotocol/sdk 1.32.2,
// legacy Streamable HTTP with sessions (one transport per session, as the
// SDK's README does it), on node:http at 127.0.0.1:PORT/mcp. One tool,
// list_incidents, with the text mcp-lanes' dual-era returns.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const port = Number(process.argv[2] ?? 3000);
const TEXT = '2 open incidents: INC-4211 (sev2, payments latency), INC-4214 (sev3, stale dashboard).';
const transports = new Map();

async function body(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

createServer(async (req, res) => {
  if (req.url !== '/mcp') { res.writeHead(404).end(); return; }
  let parsed;
  try { parsed = req.method === 'POST' ? await body(req) : undefined; } catch { res.writeHead(400).end(); return; }
  const sid = req.headers['mcp-session-id'];
  let transport = sid ? transports.get(sid) : undefined;
  if (!transport && parsed && isInitializeRequest(parsed)) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
    const server = new McpServer({ name: 'dual-era', version: '1.0.0' });
    server.registerTool('list_incidents', { description: 'List open incidents with their severity and owner.' },
      async () => ({ content: [{ type: 'text', text: TEXT }] }));
    await server.connect(transport);
  }
  if (!transport) { res.writeHead(404).end(); return; }
  await transport.handleRequest(req, res, parsed);
}).listen(port, '127.0.0.1', () => console.error(`ts-v1 listening on ${port}`));
