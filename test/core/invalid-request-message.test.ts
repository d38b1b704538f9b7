import { describe, expect, it } from 'vitest';
import { readInvalidRequestMessage } from '../../src/core/invalid-request-message.js';

describe('readInvalidRequestMessage', () => {
  it('should give the message of an invalid_request_error body', () => {
    const body = JSON.stringify({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 2 tokens > 1 maximum' },
      request_id: 'req_1',
    });

    expect(readInvalidRequestMessage(body)).toBe('prompt is too long: 2 tokens > 1 maximum');
  });

  it.each([
    ['not JSON', 'prompt is too long'],
    ['another error type', JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })],
    ['not an error', JSON.stringify({ type: 'message', error: { type: 'invalid_request_error', message: 'x' } })],
    ['no message', JSON.stringify({ type: 'error', error: { type: 'invalid_request_error' } })],
    ['a message that is no string', JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 7 } })],
  ])('should give nothing for %s', (_, body) => {
    expect(readInvalidRequestMessage(body)).toBeUndefined();
  });
});
