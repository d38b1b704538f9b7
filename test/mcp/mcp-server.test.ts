/** `ctxshed mcp` as a real process: the SDK's own client over stdio, and the raw lines on its stdout. */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StateDir } from '../../src/state/layout.js';
import { sealBlock } from '../../src/state/seal-block.js';
import { runCli } from '../cli/cli-run.js';
import { CLI_PATH } from '../support/cli-process.js';
import { renderSpanMarkdown } from '../../src/core/shed/render-span-markdown.js';
import { addShedConversation, FIRST_TEXT, stateWithBlocks } from '../restore/fixtures.js';

let tmp: string;
let state: StateDir;
let shas: [string, string];
beforeEach(async () => {
  ({ tmp, state, shas } = await stateWithBlocks());
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

type TextResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

describe('ctxshed mcp', () => {
  it('should serve restore and spans to an MCP client: verified text, clean misses, sealed refused', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, 'mcp', '--state', state.root], stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['restore', 'spans']);
      expect(tools[0]!.inputSchema).toMatchObject({ required: ['handle'] });

      const restored = (await client.callTool({ name: 'restore', arguments: { handle: shas[0].slice(0, 12) } })) as TextResult;
      const [header, ...text] = restored.content[0]!.text.split('\n');
      expect(restored.isError).toBeFalsy();
      expect(header).toContain(`${Buffer.byteLength(FIRST_TEXT)} bytes, sha256 ${shas[0]}; verified`);
      expect(text.join('\n')).toBe(FIRST_TEXT);

      const miss = (await client.callTool({ name: 'restore', arguments: { handle: 'ffffffffffff' } })) as TextResult;
      expect(miss).toMatchObject({ isError: true });

      await sealBlock(state, shas[1], { reason: 'private', now: '2026-01-01T00:00:00.000Z' });
      const sealed = (await client.callTool({ name: 'restore', arguments: { handle: shas[1] } })) as TextResult;
      expect(sealed.isError).toBe(true);
      expect(sealed.content[0]!.text).toContain('is sealed');

      const spans = (await client.callTool({ name: 'spans', arguments: {} })) as TextResult;
      expect(spans.content[0]!.text).toContain(`${shas[1]}  `);
      expect(spans.content[0]!.text).toContain('SEALED: not restorable');
      const badLimit = (await client.callTool({ name: 'spans', arguments: { limit: 0 } })) as TextResult;
      expect(badLimit.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('should give a shed span back by its handle as its verified rendering, and list it', async () => {
    const { spans } = await addShedConversation(state);
    const { span, file } = spans[0];
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, 'mcp', '--state', state.root], stderr: 'pipe' }));
    try {
      const restored = (await client.callTool({ name: 'restore', arguments: { handle: span.sha256 } })) as TextResult;
      const [header, ...text] = restored.content[0]!.text.split('\n');
      expect(restored.isError).toBeFalsy();
      expect(header).toContain(`shed span, ${span.bytes} bytes, sha256 ${span.sha256}; verified`);
      expect(text.join('\n')).toBe(renderSpanMarkdown(file.bytes, span.sha256));
      const badOffset = (await client.callTool({ name: 'restore', arguments: { handle: span.sha256, offset: -1 } })) as TextResult;
      expect(badOffset).toMatchObject({ isError: true, content: [{ text: 'ctxshed: offset is a whole number of characters, 0 or more' }] });
      const tail = (await client.callTool({ name: 'restore', arguments: { handle: span.sha256, offset: 10 } })) as TextResult;
      expect(tail.content[0]!.text.split('\n').slice(1).join('\n')).toBe(renderSpanMarkdown(file.bytes, span.sha256).slice(10));
      const listed = (await client.callTool({ name: 'spans', arguments: {} })) as TextResult;
      expect(listed.content[0]!.text).toContain(`${span.sha256}  ${span.bytes} bytes  epoch 1  shed span: 3 messages (1..3)`);
    } finally {
      await client.close();
    }
  });

  it('should write nothing but JSON-RPC to stdout, and answer every request read before stdin ends', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'spans', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'restore', arguments: { handle: shas[0] } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nope', arguments: {} } },
    ];
    const child = spawn(process.execPath, [CLI_PATH, 'mcp', '--state', state.root], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.stdin.end(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const out = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { jsonrpc: string; id: number; result?: TextResult });
    expect(out.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(out.map((m) => m.id).sort()).toEqual([1, 2, 3, 4]);
    expect(out.find((m) => m.id === 4)?.result?.isError).toBe(true);
  });

  it('should answer an 11 MiB line with a JSON-RPC error and a malformed one with a stderr line, and go on serving', async () => {
    const huge = JSON.stringify({
      method: 'tools/call',
      params: { name: 'restore', arguments: { handle: 'a'.repeat(11 * 1024 * 1024) } },
      jsonrpc: '2.0',
      id: 99,
    });
    const after = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    const child = spawn(process.execPath, [CLI_PATH, 'mcp', '--state', state.root], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.stdin.write(`${huge}\n`);
    child.stdin.write('{"jsonrpc":"2.0","id":3,"method":\n');
    child.stdin.end(`${after.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code).toBe(0);
    const out = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; error?: { code: number; message: string }; result?: { tools?: Array<{ name: string }> } });
    expect(out.map((m) => m.id)).toEqual([99, 1, 2]);
    expect(out[0]!.error).toEqual({
      code: -32600,
      message: `ctxshed: a line of ${Buffer.byteLength(huge)} bytes, over the 10485760-byte limit, was dropped unread; send less in one message`,
    });
    expect(out[2]!.result?.tools?.map((t) => t.name)).toEqual(['restore', 'spans']);
    const warnings = stderr.trimEnd().split('\n');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^ctxshed: mcp: dropped a line of \d+ bytes, over the 10485760-byte limit, answered as an error to id 99$/);
    expect(warnings[1]).toMatch(/^ctxshed: mcp: dropped a line of 33 bytes that is not a JSON-RPC message/);
  });

  it('should run its --help example as shown: with stdin at its end it stops at once, exit 0, silent', async () => {
    const help = await runCli(['mcp', '--help']);
    const example = /\n {2}(ctxshed mcp [^\n]*?)\s{2,}/.exec(help.stdout)?.[1];
    expect(example).toBe('ctxshed mcp --state state.example');
    expect(await runCli(example!.split(' ').slice(1))).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
