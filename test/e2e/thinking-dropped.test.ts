/**
 * The thinking blocks the API dropped, end to end: the real proxy on port 0 in front of the
 * scripted Messages API on 127.0.0.1 with preserved thinking. The client (not ctxshed) edits an
 * earlier tool result and asks for `block_binding: drop_block` with the beta header; the API drops
 * the thinking blocks the edit invalidated and lists them in `input_transformations`. The proxy
 * forwards the request and the response untouched and counts the dropped blocks in the wire record.
 * A twin scripted API, sent the same bodies directly, gives the bytes the client must get.
 */
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedClient, type Block } from '../../src/scripted/client.js';
import { textBlock } from '../../src/scripted/message.js';
import { startMessagesApi, type MessagesApi, type Responder } from '../../src/scripted/messages-api.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { decodeSse } from '../../src/scripted/sse-decode.js';
import { startTestProxy, tempStateDir, testConfig, waitForWire } from '../support/test-proxy.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FABLE = 'claude-fable-5-1';
const BETAS = 'context-1m-2025-08-07,thinking-binding-controls-2026-08-01';
const HEADERS = { 'anthropic-beta': BETAS };
const DROP_BLOCK = { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } };
const DROPPED = [
  { type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'prefix_binding_mismatch' },
  { type: 'thinking_dropped', path: 'messages.5.content.0', reason: 'prefix_binding_mismatch' },
];

async function startApi(respond: Responder): Promise<MessagesApi> {
  const api = await startMessagesApi({ respond });
  cleanups.push(() => api.close());
  return api;
}

describe.each([
  ['JSON', false, false],
  ['SSE', true, false],
  ['gzip JSON', false, true],
  ['gzip SSE', true, true],
])('the thinking blocks the API dropped, %s', (_name, stream, gzip) => {
  it('should reach the client byte for byte, leave block_binding and the beta untouched, and be counted in the wire record', async () => {
    // Ids of the API's own choosing come from a counter both APIs share: every reply names its own.
    // The fourth model call (index 3) is the one after the edit: compressed when the case says so.
    const respond: Responder = (req) =>
      req.index < 3
        ? {
            kind: 'message',
            id: `msg_${req.index}`,
            content: [{ type: 'tool_use', id: `toolu_${req.index}`, name: 'Read', input: { file_path: `/src/f${req.index}.ts` } }],
          }
        : { kind: 'message', id: `msg_${req.index}`, content: [textBlock('done')], ...(gzip ? { encoding: 'gzip' as const } : {}) };
    const upstream = await startApi(respond);
    const twin = await startApi(respond);
    const dir = await tempStateDir();
    // A window far above the conversation: no epoch, so the request goes through as the client sent it.
    const proxy = await startTestProxy(dir, testConfig(upstream.url, { window: 10_000_000 }));
    cleanups.push(() => proxy.close());
    const client = new ScriptedClient(proxy.url, { model: FABLE, stream, headers: HEADERS, thinking: DROP_BLOCK, toolResultBytes: () => 400 });
    cleanups.push(() => client.close());

    for (let i = 0; i < 3; i++) expect((await client.turnOnce()).status).toBe(200);
    // The client's own edit of an earlier tool result invalidates the thinking blocks after it.
    (client.messages[2]!.content as Block[])[0]!['content'] = 'shortened';
    const res = await client.send();

    expect(res.status).toBe(200);
    // Byte for byte: the twin, sent the same bodies with the same headers, answered the same bytes.
    let expected = res.body;
    for (const body of client.sent) expected = (await postRaw(twin.url, '/v1/messages?beta=true', body, HEADERS)).body;
    expect(res.body.toString('latin1')).toBe(expected.toString('latin1'));
    expect(res.headers['content-encoding']).toBe(gzip ? 'gzip' : undefined);
    const text = (gzip ? gunzipSync(res.body) : res.body).toString('utf8');
    const message = stream ? decodeSse(text).message : (JSON.parse(text) as Record<string, unknown>);
    expect(message['input_transformations']).toEqual(DROPPED);
    // The upstream got the client's bytes, block_binding included, and its betas.
    expect(upstream.requests.map((r) => r.body)).toEqual(client.sent);
    expect(JSON.parse(upstream.requests[3]!.body.toString('utf8'))).toMatchObject({ thinking: DROP_BLOCK });
    for (const r of upstream.requests) expect(r.headers['anthropic-beta']).toBe(BETAS);
    expect(upstream.thinkingChecks.at(-1)).toMatchObject({ dropped: 2, refused: false });

    const wire = await waitForWire(dir, 4);
    expect(wire.slice(0, 3).every((r) => !('thinkingDropped' in r))).toBe(true);
    expect(wire[3]).toMatchObject({ status: 200, reason: 'no_epoch', thinkingDropped: 2, thinkingDroppedBy: { prefix_binding_mismatch: 2 } });
  });
});
