import { describe, expect, it } from 'vitest';
import { parseEventData, readChatUsage, readResponsesUsage } from '../../../src/core/openai/openai-usage.js';

const USAGE = {
  input_tokens: 12033,
  input_tokens_details: { cached_tokens: 11904 },
  output_tokens: 44,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 12077,
};

describe('readResponsesUsage', () => {
  it('should read a response.completed event: the context is input_tokens, cached tokens included', () => {
    // Arrange
    const event = { type: 'response.completed', sequence_number: 9, response: { object: 'response', model: 'gpt-x', usage: USAGE } };

    // Act
    const usage = readResponsesUsage(event);

    // Assert
    expect(usage).toEqual({ contextTokens: 12033, cachedTokens: 11904, outputTokens: 44, model: 'gpt-x' });
  });

  it('should read a JSON response body, and the incomplete and failed events', () => {
    // Arrange
    const values = [
      { id: 'resp_1', object: 'response', usage: USAGE },
      { type: 'response.incomplete', response: { usage: USAGE } },
      { type: 'response.failed', response: { usage: USAGE } },
    ];

    // Act
    const readings = values.map(readResponsesUsage);

    // Assert
    expect(readings.map((r) => r?.contextTokens)).toEqual([12033, 12033, 12033]);
  });

  it.each([
    ['another event', { type: 'response.created', response: { usage: USAGE } }],
    ['a body of another object', { object: 'chat.completion', usage: USAGE }],
    ['a response without usage', { object: 'response' }],
    ['a usage without input_tokens', { object: 'response', usage: { output_tokens: 3 } }],
    ['a negative count', { object: 'response', usage: { input_tokens: -1 } }],
    ['a fractional count', { object: 'response', usage: { input_tokens: 1.5 } }],
    ['a string count', { object: 'response', usage: { input_tokens: '12' } }],
    ['null', null],
    ['an array', [USAGE]],
  ])('should read nothing from %s', (_what, value) => {
    // Arrange: the value.

    // Act
    const usage = readResponsesUsage(value);

    // Assert
    expect(usage).toBeUndefined();
  });

  it('should read missing details as 0 and never count more cached tokens than input tokens', () => {
    // Arrange
    const values = [
      { object: 'response', usage: { input_tokens: 10 } },
      { object: 'response', usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 50 } } },
    ];

    // Act
    const readings = values.map(readResponsesUsage);

    // Assert
    expect(readings).toEqual([
      { contextTokens: 10, cachedTokens: 0, outputTokens: 0 },
      { contextTokens: 10, cachedTokens: 10, outputTokens: 0 },
    ]);
  });
});

describe('readChatUsage', () => {
  it('should read a chat.completion body and the last chunk of a stream', () => {
    // Arrange
    const usage = { prompt_tokens: 125, completion_tokens: 48, total_tokens: 173, prompt_tokens_details: { cached_tokens: 98 } };
    const values = [
      { object: 'chat.completion', model: 'gpt-x', usage },
      { object: 'chat.completion.chunk', choices: [], usage },
    ];

    // Act
    const readings = values.map(readChatUsage);

    // Assert
    expect(readings).toEqual([
      { contextTokens: 125, cachedTokens: 98, outputTokens: 48, model: 'gpt-x' },
      { contextTokens: 125, cachedTokens: 98, outputTokens: 48 },
    ]);
  });

  it('should read nothing from a chunk whose usage is null, or without prompt_tokens', () => {
    // Arrange
    const values = [{ object: 'chat.completion.chunk', choices: [{ delta: {} }], usage: null }, { usage: { completion_tokens: 3 } }, 'x'];

    // Act
    const readings = values.map(readChatUsage);

    // Assert
    expect(readings).toEqual([undefined, undefined, undefined]);
  });
});

describe('parseEventData', () => {
  it('should parse JSON data and give undefined for [DONE] and broken data', () => {
    // Arrange
    const data = ['{"a":1}', '[DONE]', '{"a":'];

    // Act
    const values = data.map(parseEventData);

    // Assert
    expect(values).toEqual([{ a: 1 }, undefined, undefined]);
  });
});
