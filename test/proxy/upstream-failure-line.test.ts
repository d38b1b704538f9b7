import { describe, expect, it } from 'vitest';
import { upstreamFailureLine, type UpstreamOutcome } from '../../src/proxy/upstream-failure-line.js';

const OK: UpstreamOutcome = { method: 'POST', target: '/v1/messages?beta=true', status: 200, result: {}, ms: 1234.4 };

describe('upstreamFailureLine', () => {
  it('should say nothing of a request the upstream answered', () => {
    expect(upstreamFailureLine(OK)).toBeUndefined();
    expect(upstreamFailureLine({ ...OK, status: 304 })).toBeUndefined();
  });

  it('should name the method, the path without its query, the status and the duration of an error status', () => {
    expect(upstreamFailureLine({ ...OK, status: 529 })).toBe('ctxshed: upstream request failed: POST /v1/messages -> 529 after 1234 ms');
  });

  it('should name the error code when the upstream gave no answer', () => {
    const line = upstreamFailureLine({
      ...OK,
      status: 502,
      result: { error: { code: 'UPSTREAM_CONNECT_FAILED', message: 'could not connect to upstream http://x: ECONNREFUSED' } },
    });

    expect(line).toBe('ctxshed: upstream request failed: POST /v1/messages -> 502, UPSTREAM_CONNECT_FAILED after 1234 ms');
  });

  it('should name an error event mid-stream, after a 200', () => {
    const line = upstreamFailureLine({ ...OK, result: { streamError: { type: 'overloaded_error', message: 'Overloaded' } } });

    expect(line).toBe('ctxshed: upstream request failed: POST /v1/messages -> 200, stream error overloaded_error after 1234 ms');
  });

  it('should say nothing when the client went away itself', () => {
    expect(upstreamFailureLine({ ...OK, status: 0, result: { error: { code: 'CLIENT_CLOSED', message: 'client closed' } } })).toBeUndefined();
  });

  it('should never carry a query string (it may hold a key), nor the error message, in any form of target', () => {
    const secret = 'sk-ant-api03-SECRET';
    for (const target of [`/v1/messages?key=${secret}`, `http://127.0.0.1:1/v1/messages?key=${secret}#x`, `/v1/messages#${secret}`]) {
      const line = upstreamFailureLine({ ...OK, target, status: 401, result: { error: { code: 'UPSTREAM_RESET', message: secret } } });

      expect(line).toContain('POST /v1/messages -> 401');
      expect(line).not.toContain(secret);
    }
  });
});
