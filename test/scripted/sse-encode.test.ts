import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../src/core/sse-parser.js';
import { assistantMessage, toolUse, type ReplyBlock } from '../../src/scripted/message.js';
import { decodeSse } from '../../src/scripted/sse-decode.js';
import { encodeSse, encodeSseEvent, messageEvents } from '../../src/scripted/sse-encode.js';

const USAGE = { input_tokens: 12, cache_creation_input_tokens: 3000, cache_read_input_tokens: 9000, output_tokens: 40 };
const MESSAGE = assistantMessage({
  content: [{ type: 'text', text: 'Reading it.' }, toolUse('Read', { file_path: '/tmp/x.txt' })],
  usage: USAGE,
});

type Data = Record<string, unknown> & { usage?: Record<string, unknown>; message?: { usage: Record<string, unknown>; content: unknown[] } };

describe('messageEvents', () => {
  it('should stream in the documented order: start, then per block start/deltas/stop, then delta and stop', () => {
    const names = messageEvents(MESSAGE).map((e) => e.event);

    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('should carry the event name as the data type, and each block index in order', () => {
    const events = messageEvents(MESSAGE);

    for (const e of events) expect((e.data as Data)['type']).toBe(e.event);
    const indexes = events.filter((e) => e.event.startsWith('content_block')).map((e) => (e.data as Data)['index']);
    expect(indexes).toEqual([0, 0, 0, 1, 1, 1, 1]);
  });

  it('should send the one ping after message_start when there is no content block', () => {
    const empty = assistantMessage({ content: [], usage: USAGE });

    expect(messageEvents(empty).map((e) => e.event)).toEqual(['message_start', 'ping', 'message_delta', 'message_stop']);
  });

  it('should put the input-side usage in message_start with output_tokens 1, and an empty message', () => {
    const start = messageEvents(MESSAGE)[0]!.data as Data;

    expect(start.message!.content).toEqual([]);
    expect(start.message).toMatchObject({ stop_reason: null, stop_sequence: null });
    expect(start.message!.usage).toEqual({
      input_tokens: 12,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 9000,
      cache_creation: { ephemeral_5m_input_tokens: 3000, ephemeral_1h_input_tokens: 0 },
      output_tokens: 1,
      service_tier: 'standard',
    });
  });

  it('should put the stop reason and the cumulative counts in message_delta', () => {
    const delta = messageEvents(MESSAGE).at(-2)!.data as Data;

    expect(delta['delta']).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
    expect(delta.usage).toEqual(USAGE);
  });

  it('should open a tool_use with empty input and an empty first partial_json, as the API does', () => {
    const events = messageEvents(MESSAGE).filter((e) => (e.data as Data)['index'] === 1);

    expect(events[0]!.data).toMatchObject({ content_block: { type: 'tool_use', name: 'Read', input: {} } });
    expect(events[1]!.data).toMatchObject({ delta: { type: 'input_json_delta', partial_json: '' } });
  });

  it('should cut long text into several deltas, never inside a surrogate pair', () => {
    const text = `${'😀'.repeat(100)}é`;
    const events = messageEvents(assistantMessage({ content: [{ type: 'text', text }], usage: USAGE }));

    const pieces = events.filter((e) => e.event === 'content_block_delta').map((e) => ((e.data as Data)['delta'] as { text: string }).text);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) expect(piece).toBe(Buffer.from(piece, 'utf8').toString('utf8'));
  });
});

describe('encodeSse', () => {
  it('should frame each event as event/data lines and a blank line, which the proxy parser reads back', () => {
    const text = encodeSse(MESSAGE);

    const parsed = createSseParser().push(text);
    expect(parsed.map((e) => e.event)).toEqual(messageEvents(MESSAGE).map((e) => e.event));
    expect(parsed.map((e) => JSON.parse(e.data) as unknown)).toEqual(messageEvents(MESSAGE).map((e) => e.data));
    expect(encodeSseEvent('ping', { type: 'ping' })).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });

  it('should always decode back to the message it came from', () => {
    const block: fc.Arbitrary<ReplyBlock> = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }).map((text) => ({ type: 'text' as const, text })),
      fc
        .record({ name: fc.string({ minLength: 1, maxLength: 10 }), input: fc.dictionary(fc.string(), fc.jsonValue()) })
        .map(({ name, input }) => toolUse(name, JSON.parse(JSON.stringify(input)) as Record<string, unknown>)),
      fc
        .record({ thinking: fc.string({ unit: 'grapheme', maxLength: 200 }), signature: fc.base64String() })
        .map(({ thinking, signature }) => ({ type: 'thinking' as const, thinking, signature })),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 4 }), (content) => {
        const message = assistantMessage({ content, usage: { input_tokens: 5, output_tokens: 9 } });

        expect(decodeSse(encodeSse(message)).message).toEqual(message);
      }),
    );
  });
});
