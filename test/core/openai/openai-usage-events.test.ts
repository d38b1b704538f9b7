import { describe, expect, it } from 'vitest';
import { CHAT_API } from '../../../src/core/dialects/chat.js';
import { RESPONSES_API } from '../../../src/core/dialects/responses.js';
import { toMessagesUsage } from '../../../src/core/dialects/openai-usage-events.js';
import type { SseEvent } from '../../../src/core/sse-parser.js';
import { CHAT_USAGE, READ_RESPONSES, RESPONSES_USAGE } from '../../support/openai-usage-fixtures.js';

const event = (name: string, data: unknown): SseEvent => ({ event: name, data: typeof data === 'string' ? data : JSON.stringify(data) });

describe('toMessagesUsage', () => {
  it('should put the cached part of the input total as the cache read, so the sum is the total', () => {
    // Arrange
    const reading = { contextTokens: 1000, cachedTokens: 900, outputTokens: 7 };

    // Act
    const usage = toMessagesUsage(reading);

    // Assert
    expect(usage).toEqual({ inputTokens: 100, cacheCreationInputTokens: 0, cacheReadInputTokens: 900, outputTokens: 7 });
  });
});

describe("the OpenAI dialects' JSON usage", () => {
  it('should read a response body and a chat completion body, each by its own dialect', () => {
    // Arrange
    const response = { object: 'response', model: 'gpt-x', usage: RESPONSES_USAGE };
    const completion = { object: 'chat.completion', usage: CHAT_USAGE };

    // Act
    const readings = [RESPONSES_API.usage.json(response), CHAT_API.usage.json(completion), RESPONSES_API.usage.json(completion)];

    // Assert
    expect(readings).toEqual([
      { usage: READ_RESPONSES },
      { usage: { inputTokens: 27, cacheCreationInputTokens: 0, cacheReadInputTokens: 98, outputTokens: 48 } },
      {},
    ]);
  });
});

describe("the OpenAI dialects' stream events", () => {
  it('should report an error event of a Responses stream and a chat stream', () => {
    // Arrange
    const responses = RESPONSES_API.usage.events();
    const chat = CHAT_API.usage.events();

    // Act
    responses.take(event('error', { type: 'error', code: 'server_error', message: 'boom' }));
    chat.take(event('message', { error: { type: 'rate_limit_exceeded', message: 'slow down' } }));

    // Assert
    expect(responses.read()).toEqual({ streamError: { type: 'server_error', message: 'boom' } });
    expect(chat.read()).toEqual({ streamError: { type: 'rate_limit_exceeded', message: 'slow down' } });
  });

  it('should keep the last usage a Responses stream carried, and parse no delta', () => {
    // Arrange
    const events = RESPONSES_API.usage.events();

    // Act
    events.take(event('response.output_text.delta', 'not json'));
    events.take(event('response.completed', { type: 'response.completed', response: { model: 'gpt-x', usage: RESPONSES_USAGE } }));

    // Assert
    expect(events.read()).toEqual({ usage: READ_RESPONSES });
  });
});
