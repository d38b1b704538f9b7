import { describe, expect, it } from 'vitest';
import { readContextLengthExceeded } from '../../../src/core/openai/context-length-exceeded.js';

function openAiError(message: string, code: string | null = 'context_length_exceeded', param = 'messages'): string {
  return JSON.stringify({ error: { message, type: 'invalid_request_error', param, code } });
}

describe('readContextLengthExceeded', () => {
  it("should read both counts of a chat completion's refusal", () => {
    // Arrange: the shape Chat Completions answers a request over the window with.
    const text = openAiError(
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
    );

    // Act
    const refusal = readContextLengthExceeded(text);

    // Assert
    expect(refusal).toEqual({ tokens: 130_532, limit: 128_000 });
  });

  it('should read the first count of the older wording, which adds the completion', () => {
    const text = openAiError(
      "This model's maximum context length is 4097 tokens. However, you requested 4128 tokens (2128 in the messages, 2000 in the completion). Please reduce the length of the messages or completion.",
    );

    expect(readContextLengthExceeded(text)).toEqual({ tokens: 4128, limit: 4097 });
  });

  it("should read the Responses API's refusal, which names no count, as a refusal without counts", () => {
    const text = openAiError(
      'Your input exceeds the context window of this model. Please adjust your input and try again.',
      'context_length_exceeded',
      'input',
    );

    expect(readContextLengthExceeded(text)).toEqual({});
  });

  it('should read nothing from another error, another code, a Messages error or a body that is not JSON', () => {
    expect(readContextLengthExceeded(openAiError("Invalid value for 'model'", 'model_not_found'))).toBeUndefined();
    expect(readContextLengthExceeded(openAiError('maximum context length is 10 tokens', null))).toBeUndefined();
    expect(
      readContextLengthExceeded(
        JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 215000 tokens > 200000 maximum' } }),
      ),
    ).toBeUndefined();
    expect(readContextLengthExceeded('<html>Bad Request</html>')).toBeUndefined();
  });
});
