import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../src/core/sse-parser.js';
import type { SseEvent } from '../src/core/sse-parser.js';
import { createUsageTap } from '../src/proxy/usage-tap.js';
import { MESSAGE_STREAM_USAGE, messageStream } from '../test/proxy/harness.js';

/** A simpler whole-stream reading of the spec, to compare the incremental parser with. */
function referenceParse(text: string): SseEvent[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = body.split(/\r\n|\r|\n/);
  lines.pop(); // after the last line end: an unterminated line, discarded at end of stream
  const events: SseEvent[] = [];
  let event = '';
  let data: string[] = [];
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) events.push({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const match = /^([^:]*)(?::(.*))?$/s.exec(line);
    const field = match?.[1] ?? '';
    const value = (match?.[2] ?? '').replace(/^ /, '');
    if (field === 'event') event = value;
    if (field === 'data') data.push(value);
  }
  return events;
}

/** Splits `bytes` at the given positions (taken modulo its length, sorted, deduplicated). */
function chunkAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

const value = fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ''));
const line = fc.oneof(
  fc.constant(''),
  value.map((v) => `data: ${v}`),
  value.map((v) => `data:${v}`),
  fc.constant('data'),
  fc.constantFrom('message_start', 'message_delta', 'ping', 'error').map((e) => `event: ${e}`),
  value.map((v) => `: ${v}`),
  value.map((v) => `id: ${v}`),
  value,
);
const eol = fc.constantFrom('\n', '\r\n', '\r');
const streamText = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(line, eol), { maxLength: 40 }), value)
  .map(([bom, lines, tail]) => (bom ? '\uFEFF' : '') + lines.map(([l, e]) => l + e).join('') + tail);
const cuts = fc.array(fc.nat(), { maxLength: 30 });

describe('createSseParser', () => {
  it('should yield the same events as a whole-stream reading, for any chunking of the bytes', () => {
    fc.assert(
      fc.property(streamText, cuts, (text, at) => {
        const parser = createSseParser();
        const events = chunkAt(Buffer.from(text, 'utf8'), at).flatMap((chunk) => parser.push(chunk));

        expect(events).toEqual(referenceParse(text));
      }),
      {
        examples: [
          ['data: x\r\n\r\n', [8]], // CR ends one chunk, its LF starts the next
          ['data: x\r\r\n', [8]],
          ['data: é🙂\n\n', [7, 10]], // cuts inside multi-byte characters
        ],
      },
    );
  });

  it('should never throw, whatever bytes arrive in whatever chunks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), cuts, (bytes, at) => {
        const parser = createSseParser();
        for (const chunk of chunkAt(bytes, at)) parser.push(chunk);
      }),
    );
  });
});

describe('createUsageTap', () => {
  const plain = Buffer.from(messageStream().join(''), 'utf8');
  const gzipped = zlib.gzipSync(plain);

  it('should read the same usage from any chunking of an SSE stream, plain or gzip', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), cuts, async (compressed, at) => {
        const tap = createUsageTap({ contentType: 'text/event-stream', contentEncoding: compressed ? 'gzip' : undefined });
        for (const chunk of chunkAt(compressed ? gzipped : plain, at)) tap.write(Buffer.from(chunk));

        expect(await tap.end()).toEqual(MESSAGE_STREAM_USAGE);
        expect(tap.error).toBeUndefined();
      }),
    );
  });

  it('should never throw or reject on arbitrary bytes, whatever the content type and encoding', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        cuts,
        fc.constantFrom('text/event-stream', 'application/json', 'text/plain'),
        fc.constantFrom(undefined, 'gzip', 'deflate', 'br', 'zstd'),
        async (bytes, at, contentType, contentEncoding) => {
          const tap = createUsageTap({ contentType, contentEncoding });
          for (const chunk of chunkAt(bytes, at)) tap.write(Buffer.from(chunk));
          await tap.end();
        },
      ),
    );
  });
});
