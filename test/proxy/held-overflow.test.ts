import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HeldResponse } from '../../src/proxy/forward.js';
import { CHAT_API } from '../../src/core/dialects/chat.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import { readHeldOverflow } from '../../src/proxy/held-overflow.js';

const TOO_LONG = JSON.stringify({
  type: 'error',
  error: { type: 'invalid_request_error', message: 'prompt is too long: 215000 tokens > 200000 maximum' },
  request_id: 'req_011',
});

function held(body: Buffer, encoding?: string, status = 400): HeldResponse {
  return {
    status,
    statusMessage: 'Bad Request',
    headers: { 'content-type': 'application/json', ...(encoding === undefined ? {} : { 'content-encoding': encoding }) },
    body,
  };
}

describe('readHeldOverflow', () => {
  it.each([
    ['identity', Buffer.from(TOO_LONG), undefined],
    ['gzip', zlib.gzipSync(TOO_LONG), 'gzip'],
    ['br', zlib.brotliCompressSync(TOO_LONG), 'br'],
    ['zlib deflate', zlib.deflateSync(TOO_LONG), 'deflate'],
    ['raw deflate', zlib.deflateRawSync(TOO_LONG), 'deflate'],
  ])('should read the refusal from a %s body', (_name, body, encoding) => {
    expect(readHeldOverflow(held(body, encoding), MESSAGES_API)).toEqual({ tokens: 215_000, limit: 200_000 });
  });

  it('should read nothing from another status, another error, an unknown coding or a corrupt body', () => {
    const other = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });

    expect(readHeldOverflow(held(Buffer.from(TOO_LONG), undefined, 413), MESSAGES_API)).toBeUndefined();
    expect(readHeldOverflow(held(Buffer.from(other)), MESSAGES_API)).toBeUndefined();
    expect(readHeldOverflow(held(Buffer.from(TOO_LONG), 'zstd'), MESSAGES_API)).toBeUndefined();
    expect(readHeldOverflow(held(Buffer.from('not gzip'), 'gzip'), MESSAGES_API)).toBeUndefined();
  });

  it("should read each API's refusal in its own words, and no other API's", () => {
    const responses = JSON.stringify({
      error: {
        message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        type: 'invalid_request_error',
        param: 'input',
        code: 'context_length_exceeded',
      },
    });
    const chat = JSON.stringify({
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    });

    expect(readHeldOverflow(held(Buffer.from(responses)), RESPONSES_API)).toEqual({});
    expect(readHeldOverflow(held(zlib.gzipSync(chat), 'gzip'), CHAT_API)).toEqual({ tokens: 130_532, limit: 128_000 });
    expect(readHeldOverflow(held(Buffer.from(TOO_LONG)), RESPONSES_API)).toBeUndefined();
    expect(readHeldOverflow(held(Buffer.from(chat)), MESSAGES_API)).toBeUndefined();
  });
});
