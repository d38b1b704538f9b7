import { describe, expect, it } from 'vitest';
import { readPromptTooLong } from '../../src/core/prompt-too-long.js';

const apiError = (type: string, message: string): string =>
  JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_011CVjxiYzEFcAQC4Fk87zw2' });

describe('readPromptTooLong', () => {
  it("should read the tokens and the maximum of the API's exact refusal", () => {
    const body = apiError('invalid_request_error', 'prompt is too long: 219898 tokens > 200000 maximum');

    expect(readPromptTooLong(body)).toEqual({ tokens: 219_898, limit: 200_000 });
  });

  it('should read other spellings of the same refusal', () => {
    expect(readPromptTooLong(apiError('invalid_request_error', 'Prompt is too long: 203,073 tokens > 200,000 maximum'))).toEqual({
      tokens: 203_073,
      limit: 200_000,
    });
    expect(readPromptTooLong(apiError('invalid_request_error', 'prompt is too long: 1000001 tokens > 999999 maximum'))).toEqual({
      tokens: 1_000_001,
      limit: 999_999,
    });
    expect(readPromptTooLong(apiError('invalid_request_error', 'prompt is too long: 215000 tokens'))).toEqual({ tokens: 215_000 });
  });

  it.each([
    ['another invalid request', apiError('invalid_request_error', 'messages.1.content: tool_use ids must be unique')],
    ['another error type', apiError('overloaded_error', 'prompt is too long: 215000 tokens > 200000 maximum')],
    ['no token count', apiError('invalid_request_error', 'prompt is too long')],
    ['not JSON', 'prompt is too long: 215000 tokens > 200000 maximum'],
    ['JSON of another shape', JSON.stringify({ error: 'prompt is too long: 215000 tokens > 200000 maximum' })],
    ['an empty body', ''],
  ])('should read nothing from %s', (_name, body) => {
    expect(readPromptTooLong(body)).toBeUndefined();
  });
});
