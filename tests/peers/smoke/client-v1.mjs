#!/usr/bin/env node
// Smoke client on the official TypeScript SDK v1 (@modelcontextprotocol/sdk
// 1.32.2, tests/peers/node_modules): the legacy era, always with initialize.
//
//   node tests/peers/smoke/client-v1.mjs URL [--tool NAME [--args JSON]]
//        [--elicit JSON | --decline | --no-elicitation] [--timeout MS]
//
// URL may instead be `stdio:COMMAND ARGS` (words split on spaces, no
// quoting): the SDK's StdioClientTransport starts that command and speaks
// to it over stdio; at the end the client closes it (its stdin first).
//
// Connects over Streamable HTTP (initialize, notifications/initialized, an
// optional GET stream), lists the tools, calls --tool with --args, answers
// any elicitation/create by accepting with the --elicit content (or declines,
// or declares no elicitation capability), and prints one JSON summary:
//
//   {"sdk": "typescript sdk 1.32.2", "url", "ok", "protocol_version",
//    "server_info", "session_id", "tools": [names],
//    "elicitations": [{"message", "answered"}],
//    "call": {"name", "result"} | {"name", "error"}, "error"?, "elapsed_ms"}
//
// Exit status: 0 when every step succeeded (a result with isError counts as a
// completed call), 1 otherwise, 2 on a usage error.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const usage = 'usage: client-v1.mjs URL [--tool NAME [--args JSON]] [--elicit JSON | --decline | --no-elicitation] [--timeout MS]';
let opts;
try {
  opts = parseArgs({
    allowPositionals: true,
    options: {
      tool: { type: 'string' },
      args: { type: 'string', default: '{}' },
      elicit: { type: 'string', default: '{}' },
      decline: { type: 'boolean', default: false },
      'no-elicitation': { type: 'boolean', default: false },
      timeout: { type: 'string', default: '20000' },
    },
  });
  if (opts.positionals.length !== 1) throw new Error('one URL expected');
  JSON.parse(opts.values.args);
  JSON.parse(opts.values.elicit);
} catch (err) {
  console.error(`${err.message}\n${usage}`);
  process.exit(2);
}
const { values } = opts;
const url = opts.positionals[0];
const timeout = Number(values.timeout);
const sdkVersion = JSON.parse(
  readFileSync(new URL('../node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url), 'utf8'),
).version;

const summary = { sdk: `typescript sdk ${sdkVersion}`, url, ok: false };
const elicitations = [];
const started = Date.now();
const capabilities = values['no-elicitation'] ? {} : { elicitation: {} };
const client = new Client({ name: 'mcp-lanes-smoke-v1', version: '1.0.0' }, { capabilities });
if (!values['no-elicitation']) {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const answered = values.decline ? { action: 'decline' } : { action: 'accept', content: JSON.parse(values.elicit) };
    elicitations.push({ message: request.params?.message, answered });
    return answered;
  });
}
const stdio = url.startsWith('stdio:') ? url.slice('stdio:'.length).split(' ').filter(Boolean) : null;
const transport = stdio
  ? new StdioClientTransport({ command: stdio[0], args: stdio.slice(1), stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(url));
const guard = setTimeout(() => {
  summary.error = `timed out after ${timeout} ms`;
  finish(1);
}, timeout + 2000);

function finish(code) {
  clearTimeout(guard);
  summary.elicitations = elicitations;
  summary.elapsed_ms = Date.now() - started;
  process.stdout.write(JSON.stringify(summary) + '\n');
  const closing = stdio ? client.close() : transport.terminateSession?.() ?? Promise.resolve();
  closing.catch(() => {}).finally(() => process.exit(code));
  setTimeout(() => process.exit(code), stdio ? 3000 : 1000).unref();
}

try {
  await client.connect(transport, { timeout });
  summary.protocol_version = transport.protocolVersion ?? null;
  summary.server_info = client.getServerVersion() ?? null;
  summary.session_id = transport.sessionId ?? null;
  const tools = await client.listTools(undefined, { timeout });
  summary.tools = tools.tools.map((t) => t.name);
  summary.ok = true;
  if (values.tool) {
    const call = { name: values.tool };
    summary.call = call;
    try {
      call.result = await client.callTool({ name: values.tool, arguments: JSON.parse(values.args) }, undefined, { timeout });
    } catch (err) {
      call.error = `${err.name}: ${err.message}`;
      summary.ok = false;
    }
  }
} catch (err) {
  summary.ok = false;
  summary.error = `${err.name}: ${err.message}`;
}
finish(summary.ok ? 0 : 1);
