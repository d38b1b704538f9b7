import { describe, expect, it } from 'vitest';
import { CHAT_API } from '../../src/core/dialects/chat.js';
import { dialectOf, modelRouteOf, readsFullness } from '../../src/core/dialects/registry.js';
import { MESSAGES_API } from '../../src/core/dialects/messages.js';
import { RESPONSES_API } from '../../src/core/dialects/responses.js';

describe('modelRouteOf', () => {
  it.each([
    ['/v1/messages', 'messages'],
    ['/v1/messages?beta=true', 'messages'],
    ['/v1/messages/count_tokens?beta=true', 'count_tokens'],
    ['/v1/responses', 'responses'],
    ['/responses', 'responses'],
    ['/openai/v1/responses?api-version=1', 'responses'],
    ['/backend-api/codex/responses', 'responses'],
    ['/v1/chat/completions', 'chat'],
    ['/chat/completions', 'chat'],
  ])('should route POST %s to %s', (path, route) => {
    // Arrange: a POST to the path.

    // Act
    const got = modelRouteOf('POST', path);

    // Assert
    expect(got).toBe(route);
  });

  it.each([
    ['GET', '/v1/responses'],
    ['POST', '/v1/responses/compact'],
    ['POST', '/v1/responses/resp_1/cancel'],
    ['POST', '/v1/responses/input_tokens'],
    ['POST', '/v1/completions'],
    ['POST', '/v1/models'],
    ['GET', '/v1/messages'],
  ])('should not route %s %s', (method, path) => {
    // Arrange: the request line.

    // Act
    const got = modelRouteOf(method, path);

    // Assert
    expect(got).toBeUndefined();
  });
});

describe('readsFullness and dialectOf', () => {
  it('should read fullness on every model call but count_tokens, in the API of its route', () => {
    // Arrange
    const routes = ['messages', 'count_tokens', 'responses', 'chat'] as const;

    // Act
    const reads = routes.map(readsFullness);
    const dialects = routes.map(dialectOf);

    // Assert
    expect(reads).toEqual([true, false, true, true]);
    expect(dialects).toEqual([MESSAGES_API, MESSAGES_API, RESPONSES_API, CHAT_API]);
    expect(readsFullness(undefined)).toBe(false);
    expect(readsFullness(null)).toBe(false);
    expect(readsFullness('anything-else')).toBe(false);
  });
});
