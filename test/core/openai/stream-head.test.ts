import { describe, expect, it } from 'vitest';
import { decideStreamHead, streamedFailureBody } from '../../../src/core/openai/stream-head.js';

const event = (type: string, extra: Record<string, unknown> = {}): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...extra })}\n\n`;
const failed = event('response.failed', {
  response: { status: 'failed', error: { code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' } },
});

describe('decideStreamHead', () => {
  it('should wait through response.created and response.in_progress, and through an event not yet complete', () => {
    expect(decideStreamHead('')).toBe('wait');
    expect(decideStreamHead(event('response.created') + event('response.in_progress'))).toBe('wait');
    expect(decideStreamHead(`${event('response.created')}event: response.fai`)).toBe('wait');
  });

  it('should say failed for a response.failed after them, and relay for any other first event', () => {
    expect(decideStreamHead(event('response.created') + event('response.in_progress') + failed)).toBe('failed');
    expect(decideStreamHead(event('response.created') + event('response.output_item.added'))).toBe('relay');
    expect(decideStreamHead('data: {"choices":[]}\n\n')).toBe('relay');
    expect(decideStreamHead('not sse at all\n\n')).toBe('relay');
  });

  it('should read an unnamed event by its data type, and skip comments', () => {
    expect(decideStreamHead(`: keep-alive\n\ndata: ${JSON.stringify({ type: 'response.created' })}\r\n\r\n`)).toBe('wait');
  });
});

describe('streamedFailureBody', () => {
  it("should give the failure's error in the 400's shape, and nothing for a stream without one", () => {
    expect(JSON.parse(streamedFailureBody(event('response.created') + failed)!)).toEqual({
      error: { code: 'context_length_exceeded', message: 'Your input exceeds the context window of this model.' },
    });
    expect(streamedFailureBody(event('response.created') + event('response.completed'))).toBeUndefined();
  });
});
