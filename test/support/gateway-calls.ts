/** The isolation tests' calls to a gateway: a plain GET of a route, and one tool call through `ctxshed mcp --gateway`. */
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_PATH } from './cli-process.js';

/** A tool's answer as the MCP client reads it. */
export type TextResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

/** Calls tool `name` through the built CLI's `mcp --gateway`, with only `env`'s ANTHROPIC_ and OPENAI_ variables. */
export async function mcpCall(
  gateway: string,
  env: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
  extra: string[] = [],
): Promise<TextResult> {
  const client = new Client({ name: 'test', version: '1' });
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI)_/.test(k))) as Record<string, string>;
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, 'mcp', '--gateway', gateway, ...extra], env: { ...clean, ...env }, stderr: 'pipe' }),
  );
  try {
    return (await client.callTool({ name, arguments: args })) as TextResult;
  } finally {
    await client.close();
  }
}

/** GETs `target` from `base` with exactly `headers`; the status and the body as text. */
export function get(base: string, target: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(target, base), { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}
