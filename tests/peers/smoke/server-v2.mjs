#!/usr/bin/env node
// A lesson-style server on the official TypeScript SDK v2
// (@modelcontextprotocol/server 2.4.0, HTTP through @modelcontextprotocol/node
// 2.1.2): lesson 07's deploy console, for the `check` command's tests and the
// benchmark.
//
//   node tests/peers/smoke/server-v2.mjs                  # stdio
//   node tests/peers/smoke/server-v2.mjs --http --port N  # http://127.0.0.1:N/mcp
//
// HTTP is the SDK's createMcpHandler: 2026-07-28 served statelessly, 2025-era
// requests by its stateless legacy fallback, Host/Origin checked against
// localhost. Tools:
//   notify_oncall {service, message}  pages after the user confirms through an
//                                     MRTR elicitation (key "confirm"); pages
//                                     are logged on stderr ("paged <service>")
//   list_incidents {}                 read-only, needs nothing
import http from 'node:http';
import { parseArgs } from 'node:util';
import {
  McpServer,
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  hostHeaderValidationResponse,
  inputRequired,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';

const INCIDENTS = [
  'INC-1042 checkout sev2 open',
  'INC-1039 search sev3 mitigated',
];
const confirmSchema = {
  type: 'object',
  properties: { confirm: { type: 'boolean', description: 'Page the on-call engineer now?' } },
  required: ['confirm'],
};

function deployConsole() {
  const server = new McpServer({ name: 'deploy-console-ts', version: '1.0.0' });
  server.registerTool(
    'list_incidents',
    {
      description: 'List the open and recently mitigated incidents (read-only).',
      inputSchema: fromJsonSchema({ type: 'object', properties: {} }),
      annotations: { readOnlyHint: true },
    },
    async () => ({ content: [{ type: 'text', text: INCIDENTS.join('\n') }] }),
  );
  server.registerTool(
    'notify_oncall',
    {
      description: 'Page the on-call engineer for a service. Asks the user to confirm first.',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: { service: { type: 'string' }, message: { type: 'string' } },
        required: ['service', 'message'],
      }),
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    async ({ service, message }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Page the on-call engineer for ${service}?`,
              requestedSchema: fromJsonSchema(confirmSchema),
            }),
          },
        });
      }
      if (answer.confirm !== true) {
        return { content: [{ type: 'text', text: 'Not paged: the user did not confirm.' }] };
      }
      process.stderr.write(`paged ${service}: ${message}\n`);
      return { content: [{ type: 'text', text: `Paged the on-call engineer for ${service}.` }] };
    },
  );
  return server;
}

const { values } = parseArgs({
  options: { http: { type: 'boolean', default: false }, port: { type: 'string', default: '8000' } },
});

if (values.http) {
  const handler = createMcpHandler(deployConsole);
  const guarded = {
    fetch: async (request, options) =>
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
      originValidationResponse(request, localhostAllowedOrigins()) ??
      handler.fetch(request, options),
  };
  const node = toNodeHandler(guarded);
  const httpServer = http.createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    node(req, res);
  });
  httpServer.listen(Number(values.port), '127.0.0.1', () => {
    process.stderr.write(`deploy-console-ts on http://127.0.0.1:${httpServer.address().port}/mcp\n`);
  });
  const stop = () => httpServer.close(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else {
  const { StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  await deployConsole().connect(new StdioServerTransport());
}
