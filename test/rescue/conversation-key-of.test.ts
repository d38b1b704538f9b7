import { describe, expect, it } from 'vitest';
import { CHAT_API } from '../../src/core/dialects/chat.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';
import { conversationKeyFor } from '../../src/rescue/conversation-key-of.js';
import type { RequestMeta } from '../../src/rescue/request-meta.js';
import { conversation, utf8 } from '../core/bodies.js';
import { chatBody, responsesBody } from '../core/openai/openai-bodies.js';

const META: RequestMeta = { route: 'responses', window: 200_000, agentId: undefined, sessionId: 'thread-1', encoding: undefined };

describe('conversationKeyFor', () => {
  it('should name a Messages call by its first message alone, without an index', () => {
    // Arrange
    const body = conversation(['a', 'b']);

    // Act
    const lookup = conversationKeyFor(body, MESSAGES_API, { ...META, route: 'messages' });

    // Assert
    expect(lookup).toMatchObject({ kind: 'found' });
    expect(lookup.kind === 'found' && lookup.index).toBeUndefined();
  });

  it('should name Responses and chat calls by their key, and hand on the index it took', () => {
    // Arrange
    const bodies = [
      [RESPONSES_API, responsesBody(['a'], { promptCacheKey: 'k' })],
      [CHAT_API, chatBody(['a'], { promptCacheKey: 'k' })],
    ] as const;

    // Act
    const lookups = bodies.map(([api, body]) => conversationKeyFor(body, api, META));

    // Assert
    for (const lookup of lookups) {
      expect(lookup.kind).toBe('found');
      expect(lookup.kind === 'found' && lookup.key).toMatch(/^[0-9a-f]{64}$/);
      expect(lookup.kind === 'found' && lookup.index?.toolResults).toHaveLength(1);
    }
    expect(lookups[0]).not.toEqual(lookups[1]);
  });

  it('should keep one key as a Responses transcript grows, and split threads by the session header', () => {
    // Arrange
    const short = responsesBody(['a'], { promptCacheKey: 'k' });
    const long = responsesBody(['a', 'b', 'c'], { promptCacheKey: 'k' });

    // Act
    const keys = [
      conversationKeyFor(short, RESPONSES_API, META),
      conversationKeyFor(long, RESPONSES_API, META),
      conversationKeyFor(long, RESPONSES_API, { ...META, sessionId: 'thread-2' }),
    ];

    // Assert
    const [a, b, c] = keys.map((k) => (k.kind === 'found' ? k.key : ''));
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it.each([
    ['an empty Messages body', MESSAGES_API, '{"messages":[]}', 'no_epoch'],
    ['a Messages body that is not JSON', MESSAGES_API, '{"messages":[{', 'not_json'],
    ['an empty input', RESPONSES_API, '{"input":[]}', 'no_epoch'],
    ['a Responses body with upstream state', RESPONSES_API, '{"previous_response_id":"r","input":[{"role":"user","content":"x"}]}', 'unknown_shape'],
    ['a chat body without messages', CHAT_API, '{"model":"m"}', 'not_messages_body'],
    ['an unreadable first item', RESPONSES_API, '{"input":[{"role":"user","content":"a\u0001"}]}', 'not_messages_body'],
  ])('should give no key for %s, and say why', (_what, api, text, reason) => {
    // Arrange
    const body = utf8(text);

    // Act
    const lookup = conversationKeyFor(body, api, META);

    // Assert
    expect(lookup).toMatchObject({ kind: 'none', reason });
  });
});
