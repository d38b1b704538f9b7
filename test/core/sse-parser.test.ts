import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../src/core/sse-parser.js';
import type { SseEvent } from '../../src/core/sse-parser.js';

function parseAll(chunks: Array<string | Uint8Array>): SseEvent[] {
  const parser = createSseParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

describe('createSseParser', () => {
  it('should dispatch named events on a blank line', () => {
    const events = parseAll(['event: message_start\ndata: {"a":1}\n\nevent: ping\ndata: {}\n\n']);

    expect(events).toEqual([
      { event: 'message_start', data: '{"a":1}' },
      { event: 'ping', data: '{}' },
    ]);
  });

  it('should accept CRLF, LF and CR line ends, even mixed', () => {
    const events = parseAll(['event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n']);

    expect(events.map((e) => `${e.event}=${e.data}`)).toEqual(['a=1', 'b=2', 'c=3']);
  });

  it('should treat a CR ending one chunk and an LF starting the next as one line end', () => {
    const events = parseAll(['data: x\r', '\n\r', '\ndata: y\r', '\r']);

    expect(events).toEqual([
      { event: 'message', data: 'x' },
      { event: 'message', data: 'y' },
    ]);
  });

  it('should join multi-line data with LF and strip one leading space only', () => {
    const events = parseAll(['data:  two spaces\ndata:none\ndata\ndata: \n\n']);

    expect(events).toEqual([{ event: 'message', data: ' two spaces\nnone\n\n' }]);
  });

  it('should ignore comments, unknown fields, id and retry, and drop events without data', () => {
    const events = parseAll([': keep-alive\nid: 7\nretry: 10\nfoo: bar\n\nevent: lonely\n\nevent: real\ndata: d\n\n']);

    expect(events).toEqual([{ event: 'real', data: 'd' }]);
  });

  it('should decode UTF-8 split inside a character across chunks, and drop a leading BOM', () => {
    const bytes = Buffer.from('\uFEFFdata: Héllo ✓ 🙂\n\n', 'utf8');
    const cut = bytes.indexOf(Buffer.from('🙂')) + 2; // inside the 4-byte emoji
    const chunks = [bytes.subarray(0, 5), bytes.subarray(5, cut), bytes.subarray(cut)];

    expect(parseAll(chunks)).toEqual([{ event: 'message', data: 'Héllo ✓ 🙂' }]);
  });

  it('should keep an unterminated event pending and count its characters', () => {
    const parser = createSseParser();

    expect(parser.push('event: message_delta\ndata: {"usage":')).toEqual([]);
    expect(parser.pendingChars).toBeGreaterThan(10);
    expect(parser.push('1}\n\n')).toEqual([{ event: 'message_delta', data: '{"usage":1}' }]);
    expect(parser.pendingChars).toBe(0);
  });
});
