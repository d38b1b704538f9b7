import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createUsageTap } from '../../src/proxy/usage-tap.js';
import type { UsageTapOptions } from '../../src/proxy/usage-tap.js';
import { assistantMessage } from '../../src/scripted/message.js';
import { encodeSse, encodeSseEvent } from '../../src/scripted/sse-encode.js';
import { MESSAGE_STREAM_USAGE, messageStream } from './harness.js';

async function tapAll(opts: UsageTapOptions, chunks: Buffer[]): Promise<{ usage: unknown; error: string | undefined; streamError: unknown }> {
  const tap = createUsageTap(opts);
  for (const chunk of chunks) tap.write(chunk);
  const usage = await tap.end();
  return { usage, error: tap.error, streamError: tap.streamError };
}

function bytewise(buffer: Buffer): Buffer[] {
  return [...buffer].map((b) => Buffer.from([b]));
}

const REPLY = {
  model: 'claude-opus-4-1',
  usage: {
    input_tokens: 3,
    cache_creation_input_tokens: 500,
    cache_read_input_tokens: 90000,
    output_tokens: 200,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 500 },
    server_tool_use: null,
  },
};
const REPLY_USAGE = {
  inputTokens: 3,
  cacheCreationInputTokens: 500,
  cacheReadInputTokens: 90000,
  outputTokens: 200,
  model: 'claude-opus-4-1',
  cacheCreation: { ephemeral5m: 0, ephemeral1h: 500 },
};

describe('createUsageTap', () => {
  it.each([
    ['identity', undefined, (b: Buffer) => b],
    ['gzip', 'gzip', (b: Buffer) => zlib.gzipSync(b)],
    ['x-gzip', 'x-gzip', (b: Buffer) => zlib.gzipSync(b)],
    ['deflate (zlib)', 'deflate', (b: Buffer) => zlib.deflateSync(b)],
    ['deflate (raw)', 'deflate', (b: Buffer) => zlib.deflateRawSync(b)],
    ['br', 'br', (b: Buffer) => zlib.brotliCompressSync(b)],
  ])('should read usage and model from a %s JSON body fed byte by byte', async (_name, encoding, encode) => {
    const wire = encode(Buffer.from(JSON.stringify(REPLY)));

    const got = await tapAll({ contentType: 'application/json', contentEncoding: encoding }, bytewise(wire));

    expect(got.usage).toEqual(REPLY_USAGE);
    expect(got.error).toBeUndefined();
  });

  it('should count missing usage fields as 0 and leave out absent model and split', async () => {
    const got = await tapAll({ contentType: 'application/json; charset=utf-8' }, [Buffer.from('{"usage":{"input_tokens":5}}')]);

    expect(got.usage).toEqual({ inputTokens: 5, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 });
  });

  it('should give no usage and no error for a JSON body without usage (count_tokens, API errors)', async () => {
    const got = await tapAll({ contentType: 'application/json' }, [Buffer.from('{"input_tokens":1234}')]);

    expect(got).toEqual({ usage: undefined, error: undefined, streamError: undefined });
  });

  it('should take message_start usage and merge message_delta usage, later values winning', async () => {
    const stream =
      messageStream().join('') + encodeSseEvent('message_delta', { type: 'message_delta', usage: { output_tokens: 80, cache_read_input_tokens: null } });

    const got = await tapAll({ contentType: 'text/event-stream' }, bytewise(Buffer.from(stream)));

    expect(got.usage).toEqual({ ...MESSAGE_STREAM_USAGE, outputTokens: 80 });
  });

  it('should read a gzip SSE stream incrementally', async () => {
    const wire = zlib.gzipSync(Buffer.from(messageStream().join('')));

    const got = await tapAll({ contentType: 'text/event-stream', contentEncoding: 'gzip' }, bytewise(wire));

    expect(got.usage).toEqual(MESSAGE_STREAM_USAGE);
  });

  it('should record an error event and still give the usage seen', async () => {
    const [start = ''] = messageStream();
    const error = encodeSseEvent('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });

    const got = await tapAll({ contentType: 'text/event-stream' }, [Buffer.from(start + error)]);

    expect(got.usage).toEqual({ ...MESSAGE_STREAM_USAGE, outputTokens: 1 });
    expect(got.streamError).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(got.error).toBeUndefined();
  });

  it('should give up on a JSON body over the cap, with a reason', async () => {
    const got = await tapAll({ contentType: 'application/json', maxJsonBytes: 10 }, [Buffer.from('{"usage":{"input_tokens":5}}')]);

    expect(got.usage).toBeUndefined();
    expect(got.error).toMatch(/over 10 bytes/);
  });

  it('should stop reading an SSE stream whose event grows over the cap, keeping the usage seen', async () => {
    const [start = ''] = messageStream();

    const got = await tapAll({ contentType: 'text/event-stream', maxSsePendingChars: 100 }, [Buffer.from(start), Buffer.from(`data: ${'x'.repeat(200)}`)]);

    expect(got.usage).toEqual({ ...MESSAGE_STREAM_USAGE, outputTokens: 1 });
    expect(got.error).toMatch(/over 100 characters/);
  });

  it('should give undefined and a reason for a broken gzip copy', async () => {
    const got = await tapAll({ contentType: 'application/json', contentEncoding: 'gzip' }, [Buffer.from('this is not gzip at all')]);

    expect(got.usage).toBeUndefined();
    expect(got.error).toMatch(/could not decompress the gzip copy/);
  });

  it('should give undefined and a reason for unparseable JSON', async () => {
    const got = await tapAll({ contentType: 'application/json' }, [Buffer.from('{"usage":')]);

    expect(got.usage).toBeUndefined();
    expect(got.error).toMatch(/could not be parsed/);
  });

  it('should give a reason for an encoding it cannot decode', async () => {
    const got = await tapAll({ contentType: 'application/json', contentEncoding: 'zstd' }, [Buffer.from([0x28, 0xb5, 0x2f, 0xfd])]);

    expect(got.usage).toBeUndefined();
    expect(got.error).toBe('unsupported content-encoding: zstd');
  });

  it('should ignore other content types and empty bodies without a reason', async () => {
    expect(await tapAll({ contentType: 'text/html' }, [Buffer.from('<html>')])).toEqual({ usage: undefined, error: undefined, streamError: undefined });
    expect(await tapAll({ contentType: 'application/json', contentEncoding: 'gzip' }, [])).toEqual({
      usage: undefined,
      error: undefined,
      streamError: undefined,
    });
  });

  it('should not throw on writes after end, and end twice with the same answer', async () => {
    const tap = createUsageTap({ contentType: 'application/json' });
    tap.write(Buffer.from(JSON.stringify(REPLY)));

    const first = await tap.end();
    tap.write(Buffer.from('garbage'));
    const second = await tap.end();

    expect(first).toEqual(REPLY_USAGE);
    expect(second).toEqual(REPLY_USAGE);
  });
});

describe('createUsageTap, input_transformations', () => {
  const TRANSFORMATIONS = [
    { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
    { type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'prefix_binding_mismatch' },
    { type: 'thinking_dropped', path: 'messages.5.content.0', reason: 'model_binding_mismatch' },
    { type: 'thinking_mismatch_allowed', path: 'messages.7.content.0', reason: 'prefix_binding_mismatch' },
  ];
  const DROPPED = { count: 3, byReason: { prefix_binding_mismatch: 2, model_binding_mismatch: 1 } };
  const message = {
    ...assistantMessage({ content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 7, output_tokens: 2 }, model: 'claude-fable-5-1' }),
    input_transformations: TRANSFORMATIONS,
  };

  async function droppedOf(opts: UsageTapOptions, chunks: Buffer[]): Promise<{ dropped: unknown; usage: unknown; error: string | undefined }> {
    const tap = createUsageTap(opts);
    for (const chunk of chunks) tap.write(chunk);
    const usage = await tap.end();
    return { dropped: tap.thinkingDropped, usage, error: tap.error };
  }

  it.each([
    ['identity', undefined, (b: Buffer) => b],
    ['gzip', 'gzip', (b: Buffer) => zlib.gzipSync(b)],
    ['br', 'br', (b: Buffer) => zlib.brotliCompressSync(b)],
  ])('should count the dropped thinking blocks at the top level of a %s JSON body, byte by byte', async (_name, encoding, encode) => {
    const got = await droppedOf({ contentType: 'application/json', contentEncoding: encoding }, bytewise(encode(Buffer.from(JSON.stringify(message)))));

    expect(got.dropped).toEqual(DROPPED);
    expect(got.usage).toMatchObject({ inputTokens: 7, model: 'claude-fable-5-1' });
    expect(got.error).toBeUndefined();
  });

  it.each([
    ['identity', undefined, (b: Buffer) => b],
    ['gzip', 'gzip', (b: Buffer) => zlib.gzipSync(b)],
  ])("should count them on message_start's message of a %s SSE stream split byte by byte", async (_name, encoding, encode) => {
    const wire = encode(Buffer.from(encodeSse(message)));

    const got = await droppedOf({ contentType: 'text/event-stream', contentEncoding: encoding }, bytewise(wire));

    expect(got.dropped).toEqual(DROPPED);
    expect(got.error).toBeUndefined();
  });

  it('should count them in an SSE stream cut into uneven chunks across the message_start line', async () => {
    const wire = Buffer.from(encodeSse(message));
    const at = wire.indexOf('input_transformations') + 5;
    const chunks = [wire.subarray(0, 3), wire.subarray(3, at), wire.subarray(at, at + 1), wire.subarray(at + 1)];

    expect((await droppedOf({ contentType: 'text/event-stream' }, chunks)).dropped).toEqual(DROPPED);
  });

  it('should count them even when the message carries no usage', async () => {
    const { usage: _usage, ...bare } = message;

    const got = await droppedOf({ contentType: 'application/json' }, [Buffer.from(JSON.stringify(bare))]);

    expect(got.dropped).toEqual(DROPPED);
    expect(got.usage).toBeUndefined();
  });

  it.each([
    ['no input_transformations', { ...message, input_transformations: undefined }],
    ['an empty list', { ...message, input_transformations: [] }],
    ['only blocks let through', { ...message, input_transformations: [TRANSFORMATIONS[3]] }],
    ['not a list', { ...message, input_transformations: { type: 'thinking_dropped' } }],
  ])('should leave thinkingDropped absent for %s', async (_name, body: Record<string, unknown>) => {
    expect((await droppedOf({ contentType: 'application/json' }, [Buffer.from(JSON.stringify(body))])).dropped).toBeUndefined();
    const start = encodeSseEvent('message_start', { type: 'message_start', message: body });
    expect((await droppedOf({ contentType: 'text/event-stream' }, [Buffer.from(start)])).dropped).toBeUndefined();
  });

  it('should count a reason its docs do not name as other, never verbatim', async () => {
    const body = {
      ...message,
      input_transformations: [{ type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'x'.repeat(500) }, { type: 'thinking_dropped' }],
    };

    expect((await droppedOf({ contentType: 'application/json' }, [Buffer.from(JSON.stringify(body))])).dropped).toEqual({ count: 2, byReason: { other: 2 } });
  });

  it("should not read input_transformations of another API's response", async () => {
    const got = await droppedOf({ api: 'responses', contentType: 'application/json' }, [Buffer.from(JSON.stringify(message))]);

    expect(got.dropped).toBeUndefined();
  });
});
