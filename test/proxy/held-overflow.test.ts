import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HeldResponse } from '../../src/proxy/forward.js';
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
    expect(readHeldOverflow(held(body, encoding))).toEqual({ tokens: 215_000, limit: 200_000 });
  });

  it('should read nothing from another status, another error, an unknown coding or a corrupt body', () => {
    const other = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });

    expect(readHeldOverflow(held(Buffer.from(TOO_LONG), undefined, 413))).toBeUndefined();
    expect(readHeldOverflow(held(Buffer.from(other)))).toBeUndefined();
    expect(readHeldOverflow(held(Buffer.from(TOO_LONG), 'zstd'))).toBeUndefined();
    expect(readHeldOverflow(held(Buffer.from('not gzip'), 'gzip'))).toBeUndefined();
  });
});
