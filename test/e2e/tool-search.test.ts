/**
 * Claude Code's tool search through the proxy: with ENABLE_TOOL_SEARCH=true (which `rescue` sets)
 * it sends deferred tools (`defer_loading: true`), ToolSearch results made of `tool_reference`
 * blocks, and the `advanced-tool-use-2025-11-20` beta. ctxshed must forward all of it untouched,
 * before an epoch and after one. The block shapes are those Claude Code 2.1.197 sent in a capture
 * (test/real-client/tool-search-real-client.test.ts runs the real thing).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../src/proxy/start-proxy.js';
import { inflateFromState } from '../../src/state/inflate-from-state.js';
import { layoutPaths } from '../../src/state/layout.js';
import { textBlock } from '../../src/scripted/message.js';
import type { MessagesApi } from '../../src/scripted/messages-api.js';
import { startTestApi } from '../support/scripted-api.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const BETA = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,advanced-tool-use-2025-11-20';
const TOOLS = [
  { name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
  {
    name: 'ToolSearch',
    description: 'Fetches full schema definitions for deferred tools',
    input_schema: { type: 'object', properties: { query: { type: 'string' }, max_results: { type: 'number' } }, required: ['query', 'max_results'] },
  },
  { name: 'mcp__user__echo', description: 'Echo', input_schema: { type: 'object', properties: { text: { type: 'string' } } }, defer_loading: true },
];
const TOOL_REFERENCE_RESULT = { type: 'tool_result', tool_use_id: 'toolu_01Search', content: [{ type: 'tool_reference', tool_name: 'mcp__user__echo' }] };

/** A conversation: a ToolSearch call and its tool_reference result first, then `turns` big Bash results. */
function body(turns: number): Buffer {
  const messages: object[] = [
    { role: 'user', content: 'Use the echo tool, then list things.' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_01Search', name: 'ToolSearch', input: { query: 'select:mcp__user__echo', max_results: 5 } }],
    },
    { role: 'user', content: [TOOL_REFERENCE_RESULT] },
  ];
  for (let i = 0; i < turns; i++) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `toolu_01Bash${String(i).padStart(4, '0')}`, name: 'Bash', input: { command: `ls ${i}` } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_01Bash${String(i).padStart(4, '0')}`, content: `listing ${i}\n${'file.txt\n'.repeat(400)}` }],
    });
  }
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', messages, tools: TOOLS, max_tokens: 1000, stream: false }));
}

/** Every reply reports 95% of the test proxy's 20,000-token window, so an epoch latches. */
const NEAR_FULL = { input_tokens: 19_000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('tool search through the proxy', () => {
  it('should forward deferred tools, tool_reference results and the tool-search beta untouched, before and after an epoch', async () => {
    const dir = await tempStateDir();
    const upstream: MessagesApi = await startTestApi({ respond: () => ({ kind: 'message', content: [textBlock('ok')], usage: NEAR_FULL }) });
    const proxy: RunningProxy = await startTestProxy(dir, testConfig(upstream.url, { keepRecent: 2, minBytes: 1024 }));
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );
    const headers = { 'anthropic-beta': BETA, 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-test-000' };

    const first = body(10);
    expect((await postRaw(proxy.url, '/v1/messages?beta=true', first, headers)).status).toBe(200);
    const second = body(11);
    expect((await postRaw(proxy.url, '/v1/messages?beta=true', second, headers)).status).toBe(200);
    const wire = await waitForWire(dir, 2);

    const [sent1, sent2] = upstream.requests;
    expect(sent1!.body.equals(first)).toBe(true);
    expect(wire[1]).toMatchObject({ latched: 1 });
    expect(wire[1]!['rescued']).toBeGreaterThan(0);
    for (const sent of [sent1!, sent2!]) {
      expect(sent.headers['anthropic-beta']).toBe(BETA);
      const parsed = JSON.parse(sent.body.toString('utf8')) as { tools: unknown; messages: Array<{ content: unknown }> };
      expect(parsed.tools).toEqual(TOOLS);
      expect(parsed.messages[2]!.content).toEqual([TOOL_REFERENCE_RESULT]);
    }
    // Byte for byte: the tools array and the tool_reference result are spliced through, not re-encoded.
    expect(sent2!.body.includes(Buffer.from(JSON.stringify({ tools: TOOLS }).slice(1, -1)))).toBe(true);
    expect(sent2!.body.includes(Buffer.from(JSON.stringify(TOOL_REFERENCE_RESULT)))).toBe(true);
    expect(Buffer.from((await inflateFromState(layoutPaths(dir), sent2!.body)).body).equals(second)).toBe(true);
  });
});
