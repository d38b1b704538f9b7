import { describe, expect, it } from 'vitest';
import { CHAT_API } from '../../src/core/dialects/chat.js';
import { indexAnyApi } from '../../src/core/dialects/index-any-api.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import { conversation, utf8 } from './bodies.js';
import { chatBody, responsesBody } from './openai/openai-bodies.js';

describe('indexAnyApi', () => {
  it.each([
    ['a Messages body', conversation(['a']), MESSAGES_API],
    ['a Responses body', responsesBody(['a']), RESPONSES_API],
    ['a chat body', chatBody(['a']), CHAT_API],
  ])('should read %s with its own API', (_what, body, api) => {
    // Arrange: the body.

    // Act
    const read = indexAnyApi(body);

    // Assert
    expect(read.api).toBe(api);
    expect(read.outcome.kind).toBe('indexed');
  });

  it('should give the Messages failure for a body no API reads', () => {
    // Arrange
    const body = utf8('{"model":"m"}');

    // Act
    const read = indexAnyApi(body);

    // Assert
    expect(read.api).toBe(MESSAGES_API);
    expect(read.outcome).toMatchObject({ kind: 'failed', reason: 'not_messages_body', detail: 'no "messages" key' });
  });
});
