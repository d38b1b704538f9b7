import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../src/scripted/client.js';
import { toolUse } from '../../src/scripted/message.js';
import { startMessagesApi, type MessagesApi, type Responder } from '../../src/scripted/messages-api.js';
import { isMessagesRequest } from '../../src/scripted/received-request.js';
import { toolOutput } from '../../src/scripted/tool-output.js';

const BREAKPOINT = ',"cache_control":{"type":"ephemeral"}';

let api: MessagesApi | undefined;
let client: ScriptedClient | undefined;
afterEach(async () => {
  client?.close();
  await api?.close();
  api = undefined;
  client = undefined;
});

async function session(respond?: Responder, options: ConstructorParameters<typeof ScriptedClient>[1] = {}): Promise<ScriptedClient> {
  api = await startMessagesApi(respond === undefined ? {} : { respond });
  client = new ScriptedClient(api.url, options);
  return client;
}

/** The body up to the end of its messages (exclusive of the closing bracket): the client puts `system` next. */
function messagesPrefix(body: Buffer): string {
  const text = body.toString('utf8');
  return text.slice(0, text.indexOf('],"system":'));
}

/** The client's between-turn edit (test/fixtures/real/README.md), done on the text: the old breakpoint goes, a lone prompt becomes a string. */
function asNextRequestSendsIt(prefix: string): string {
  const lone = /\[\{"type":"text","text":("(?:[^"\\]|\\.)*"),"cache_control":\{"type":"ephemeral"\}\}\]\}$/;
  if (lone.test(prefix)) return prefix.replace(lone, '$1}');
  const at = prefix.lastIndexOf(BREAKPOINT);
  return prefix.slice(0, at) + prefix.slice(at + BREAKPOINT.length);
}

describe('ScriptedClient', () => {
  it('should send the body keys in the client order, with one message-level breakpoint on the last block', async () => {
    const c = await session();

    await c.turnOnce();
    const body = JSON.parse(c.body().toString('utf8')) as { messages: Array<{ content: unknown }> };

    expect(Object.keys(body)).toEqual(['model', 'messages', 'system', 'tools', 'metadata', 'max_tokens', 'stream']);
    expect(JSON.stringify(body.messages).split('cache_control')).toHaveLength(2);
    expect(c.body().toString('utf8').split('cache_control')).toHaveLength(4);
    expect(body.messages.at(-1)!.content).toEqual([expect.objectContaining({ type: 'tool_result', cache_control: { type: 'ephemeral' } })]);
  });

  it('should change earlier bytes only at the old breakpoint from one request to the next', async () => {
    const c = await session(undefined, { firstContent: 'Please read the files.' });

    for (let i = 0; i < 4; i++) await c.turnOnce();

    expect(c.sent).toHaveLength(4);
    expect(c.sent[0]!.toString()).toContain('"content":[{"type":"text","text":"Please read the files.","cache_control":{"type":"ephemeral"}}]');
    expect(c.sent[1]!.toString()).toContain('{"role":"user","content":"Please read the files."}');
    for (let i = 1; i < c.sent.length; i++) {
      expect(messagesPrefix(c.sent[i]!).startsWith(asNextRequestSendsIt(messagesPrefix(c.sent[i - 1]!)))).toBe(true);
    }
  });

  it('should answer every tool_use of a reply with a tool_result of its id, in order', async () => {
    const c = await session((req) =>
      isMessagesRequest(req)
        ? {
            kind: 'message',
            content: [{ type: 'text', text: 'Two reads.' }, toolUse('Read', { file_path: '/a' }, 'toolu_A'), toolUse('Read', { file_path: '/b' }, 'toolu_B')],
          }
        : undefined,
    );

    const turn = await c.turnOnce();

    expect(turn.status).toBe(200);
    expect(turn.reply?.stopReason).toBe('tool_use');
    expect(c.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Two reads.' },
          { type: 'tool_use', id: 'toolu_A', name: 'Read', input: { file_path: '/a' } },
          { type: 'tool_use', id: 'toolu_B', name: 'Read', input: { file_path: '/b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_A', content: toolOutput(1, 3000) },
          { type: 'tool_result', tool_use_id: 'toolu_B', content: toolOutput(1, 3000) },
        ],
      },
    ]);
  });

  it('should read a streamed reply the same way, and say the next prompt when no tool was called', async () => {
    const c = await session((req) => (isMessagesRequest(req) ? { kind: 'message', content: [{ type: 'text', text: 'All done — ✓.' }] } : undefined), {
      stream: true,
      nextPrompt: (turn) => `prompt ${turn}`,
    });

    const turn = await c.turnOnce();

    expect(turn.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(turn.reply).toEqual({ content: [{ type: 'text', text: 'All done — ✓.' }], stopReason: 'end_turn' });
    expect(c.messages.at(-1)).toEqual({ role: 'user', content: 'prompt 1' });
    expect(c.body().toString()).toContain('{"role":"user","content":[{"type":"text","text":"prompt 1","cache_control":{"type":"ephemeral"}}]}]');
  });

  it('should run tools with the given runner and send its headers', async () => {
    const c = await session(undefined, {
      runTool: async (use, turn) => `ran ${String(use['name'])} on turn ${turn}`,
      headers: { 'x-claude-code-agent-id': 'a1' },
    });

    await c.turnOnce();

    expect(c.messages.at(-1)!.content).toEqual([expect.objectContaining({ content: 'ran Read on turn 1' })]);
    expect(api!.requests[0]!.headers['x-claude-code-agent-id']).toBe('a1');
    expect(api!.requests[0]!.headers['x-api-key']).toBe('sk-ant-test-000');
  });

  it('should not answer a failed request', async () => {
    const c = await session(() => ({ kind: 'json', status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }));

    const turn = await c.turnOnce();

    expect(turn.status).toBe(529);
    expect(turn.reply).toBeUndefined();
    expect(c.messages).toHaveLength(1);
    expect(turn.sent.equals(c.body())).toBe(true);
  });
});
