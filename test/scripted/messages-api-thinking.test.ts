import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedClient, type Block } from '../../src/scripted/client.js';
import { startMessagesApi, type MessagesApi, type MessagesApiOptions } from '../../src/scripted/messages-api.js';
import { postRaw } from '../../src/scripted/post-raw.js';
import { parseSignature } from '../../src/scripted/preserved-thinking/signature.js';
import { decodeSse } from '../../src/scripted/sse-decode.js';

const FABLE = 'claude-fable-5-1';
const BETA = { 'anthropic-beta': 'context-1m-2025-08-07,thinking-binding-controls-2026-08-01' };
const MISMATCH_3 =
  'messages.3.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".';

let api: MessagesApi | undefined;
const clients: ScriptedClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await api?.close();
  api = undefined;
});

async function start(options: MessagesApiOptions = {}): Promise<MessagesApi> {
  api = await startMessagesApi(options);
  return api;
}

function client(url: string, options: ConstructorParameters<typeof ScriptedClient>[1] = {}): ScriptedClient {
  const c = new ScriptedClient(url, { model: FABLE, toolResultBytes: () => 400, ...options });
  clients.push(c);
  return c;
}

async function turns(c: ScriptedClient, n: number): Promise<void> {
  for (let i = 0; i < n; i++) expect((await c.turnOnce()).status).toBe(200);
}

const errorOf = (body: Buffer): { type: string; message: string } => (JSON.parse(body.toString('utf8')) as { error: { type: string; message: string } }).error;

describe('startMessagesApi with preserved thinking', () => {
  it.each([true, false])('should open every reply with a signed thinking block and pass the client resending it verbatim (stream %s)', async (stream) => {
    const a = await start();
    const c = client(a.url, { stream, thinking: { type: 'adaptive', display: 'omitted' } });
    await turns(c, 4);
    const reply = c.messages[1]!.content as Block[];
    expect(reply[0]).toMatchObject({ type: 'thinking', thinking: '' });
    expect(parseSignature(reply[0]!['signature'])).toMatchObject({ model: FABLE });
    expect(a.thinkingChecks.map((r) => [r.sent, r.valid, r.dropped, r.refused])).toEqual([
      [0, 0, 0, false],
      [1, 1, 0, false],
      [2, 2, 0, false],
      [3, 3, 0, false],
    ]);
  });

  it('should stream the thinking block as content_block_start and one signature_delta', async () => {
    const a = await start();
    const c = client(a.url, { stream: true });
    const res = await c.send();
    const text = res.body.toString('utf8');
    expect(text).toContain('"content_block":{"type":"thinking","thinking":"","signature":""}');
    expect(text).toMatch(/"delta":\{"type":"signature_delta","signature":"ctxshed-scripted\.claude-fable-5-1\.[0-9a-f]{64}\.none\.1"\}/);
    expect(text).not.toContain('thinking_delta');
    expect(decodeSse(text).message['input_transformations']).toBeUndefined();
  });

  it('should refuse an edited earlier tool_result with the documented 400, byte for byte', async () => {
    const a = await start();
    const c = client(a.url, { headers: BETA, thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'error' } } });
    await turns(c, 3);
    (c.messages[2]!.content as Block[])[0]!['content'] = 'shortened';
    const res = await c.send();
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toEqual({ type: 'invalid_request_error', message: MISMATCH_3 });
    expect(a.thinkingChecks.at(-1)).toMatchObject({ sent: 3, valid: 1, refused: true });
  });

  it('should name the beta header in the 400 when the request did not send it (the account default)', async () => {
    const a = await start();
    const c = client(a.url);
    await turns(c, 3);
    (c.messages[2]!.content as Block[])[0]!['content'] = 'shortened';
    const res = await c.send();
    expect(errorOf(res.body).message).toBe(
      `${MISMATCH_3} That setting requires the \`thinking-binding-controls-2026-08-01\` value in the \`anthropic-beta\` header.`,
    );
  });

  it.each([false, true])('should drop the failing blocks under drop_block and the beta, and list them in input_transformations (stream %s)', async (stream) => {
    const a = await start();
    const c = client(a.url, { stream, headers: BETA, thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } } });
    await turns(c, 3);
    (c.messages[2]!.content as Block[])[0]!['content'] = 'shortened';
    const res = await c.send();
    expect(res.status).toBe(200);
    const message = stream ? decodeSse(res.body.toString('utf8')).message : (JSON.parse(res.body.toString('utf8')) as Record<string, unknown>);
    expect(message['input_transformations']).toEqual([
      { type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'prefix_binding_mismatch' },
      { type: 'thinking_dropped', path: 'messages.5.content.0', reason: 'prefix_binding_mismatch' },
    ]);
    expect(a.thinkingChecks.at(-1)).toMatchObject({ sent: 3, valid: 1, dropped: 2, refused: false });
    // The stale blocks stay in the history and are dropped again; the one made after them stays valid.
    await turns(c, 2);
    expect(a.thinkingChecks.at(-1)).toMatchObject({ sent: 4, valid: 2, dropped: 2, refused: false });
  });

  it('should refuse block_binding without the beta header', async () => {
    const a = await start();
    const c = client(a.url, { thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } } });
    const res = await c.send();
    expect(res.status).toBe(400);
    expect(errorOf(res.body)).toEqual({ type: 'invalid_request_error', message: 'thinking.block_binding: Extra inputs are not permitted' });
  });

  it('should drop without an error the blocks of a model the current one cannot read', async () => {
    const a = await start();
    const c = client(a.url);
    await turns(c, 2);
    const body = JSON.parse(c.body().toString('utf8')) as Record<string, unknown>;
    const res = await postRaw(a.url, '/v1/messages', Buffer.from(JSON.stringify({ ...body, model: 'claude-opus-5-5' })), BETA);
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body.toString('utf8')) as Record<string, unknown>)['input_transformations']).toEqual([
      { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'model_binding_mismatch' },
      { type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'model_binding_mismatch' },
    ]);
    expect(a.thinkingChecks.at(-1)).toMatchObject({ model: 'claude-opus-5-5', sent: 2, valid: 0, dropped: 2, refused: false });
  });

  it('should run the same check on count_tokens', async () => {
    const a = await start();
    const c = client(a.url);
    await turns(c, 3);
    (c.messages[2]!.content as Block[])[0]!['content'] = 'shortened';
    const res = await c.send('/v1/messages/count_tokens?beta=true');
    expect(res.status).toBe(400);
    expect(a.thinkingChecks.at(-1)).toMatchObject({ endpoint: 'count_tokens', refused: true });
  });

  it('should leave other models and preservedThinking: false as before', async () => {
    const a = await start({ preservedThinking: false });
    const c = client(a.url);
    await turns(c, 2);
    expect((c.messages[1]!.content as Block[])[0]!['type']).toBe('tool_use');
    const other = client(a.url, { model: 'claude-sonnet-4-5' });
    await turns(other, 1);
    expect(a.thinkingChecks).toEqual([]);
  });
});
