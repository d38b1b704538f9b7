import { describe, expect, it } from 'vitest';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { assistant, fixtureLines, line, user } from './fixtures.js';

describe('rebuildConversations', () => {
  it('should merge the records of one assistant message into one request', () => {
    // Arrange
    const lines = [
      user('hello'),
      assistant('msg_1', { type: 'thinking', thinking: 'hm', signature: 's' }, { output_tokens: 1 }),
      assistant('msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }, { output_tokens: 42 }),
      user([{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'file text' }]),
      assistant('msg_2', { type: 'text', text: 'done' }),
    ];

    // Act
    const [conversation, ...rest] = rebuildConversations(lines, 'x.jsonl');

    // Assert
    expect(rest).toEqual([]);
    expect(conversation?.requests).toHaveLength(2);
    expect(conversation?.requests[0]?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }]);
    expect(conversation?.requests[0]?.usage.output).toBe(42);
    expect(conversation?.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(conversation?.requests[1]?.messages[1]?.content).toHaveLength(2);
  });

  it('should start a new conversation at a compaction boundary', () => {
    // Arrange
    const lines = [
      user('first'),
      assistant('msg_1', { type: 'text', text: 'a' }),
      line({ type: 'system', subtype: 'compact_boundary' }),
      user('summary of the conversation'),
      assistant('msg_2', { type: 'text', text: 'b' }),
    ];

    // Act
    const conversations = rebuildConversations(lines, 'x.jsonl');

    // Assert
    expect(conversations.map((c) => c.requests.length)).toEqual([1, 1]);
    expect(conversations[0]?.endedInCompaction).toBe(true);
    expect(conversations[1]?.requests[0]?.messages[0]?.content).toEqual([{ type: 'text', text: 'summary of the conversation' }]);
  });

  it('should skip synthetic assistant records and unreadable lines', () => {
    // Arrange
    const synthetic = line({
      type: 'assistant',
      message: { model: '<synthetic>', id: 'x', role: 'assistant', content: [{ type: 'text', text: 'API Error' }] },
    });
    const lines = [user('q'), '{torn', synthetic, assistant('msg_1', { type: 'text', text: 'a' })];

    // Act
    const [conversation] = rebuildConversations(lines, 'x.jsonl');

    // Assert
    expect(conversation?.requests).toHaveLength(1);
    expect(conversation?.requests[0]?.messages).toHaveLength(1);
  });

  it('should rebuild a real transcript into requests that each end with a user message', () => {
    // Act
    const conversations = rebuildConversations(fixtureLines('subagent.jsonl'), 'subagent.jsonl');

    // Assert
    expect(conversations).toHaveLength(1);
    const requests = conversations[0]?.requests ?? [];
    expect(requests).toHaveLength(12);
    for (const r of requests) expect(r.messages.at(-1)?.role).toBe('user');
    for (const r of requests) expect(r.usage.input + r.usage.cacheRead + r.usage.cacheWrite).toBeGreaterThan(0);
  });

  it('should give each request its message id and the time the client sent it', () => {
    // Arrange: the tool result is written at :10, the response to it starts at :14
    const lines = [
      line({ type: 'user', timestamp: '2026-02-10T22:58:00.000Z', message: { role: 'user', content: 'go' } }),
      assistant('msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }, {}, '2026-02-10T22:58:03.000Z'),
      line({
        type: 'user',
        timestamp: '2026-02-10T22:58:10.000Z',
        message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: 'x' }] },
      }),
      assistant('msg_2', { type: 'text', text: 'done' }, {}, '2026-02-10T22:58:14.000Z'),
      // A request with no user record of its own: it left when its response began
      assistant('msg_3', { type: 'text', text: 'more' }, {}, '2026-02-10T22:58:20.000Z'),
    ];

    // Act
    const [conversation] = rebuildConversations(lines, 'x.jsonl');

    // Assert
    expect(conversation?.requests.map((r) => r.id)).toEqual(['msg_1', 'msg_2', 'msg_3']);
    expect(conversation?.requests.map((r) => new Date(r.sentMs).toISOString().slice(11, 19))).toEqual(['22:58:00', '22:58:10', '22:58:20']);
    expect(conversation?.requests.map((r) => new Date(r.timeMs).toISOString().slice(11, 19))).toEqual(['22:58:03', '22:58:14', '22:58:20']);
  });

  it('should rebuild sidechain records interleaved in the main file as conversations of their own', () => {
    // Arrange: an older client's file: a subagent's records between two main-thread turns
    const side = (record: Record<string, unknown>): string => line({ ...record, isSidechain: true });
    const lines = [
      line({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'main prompt' } }),
      side({ type: 'user', uuid: 's1', parentUuid: null, message: { role: 'user', content: 'subagent prompt' } }),
      side({ type: 'progress', uuid: 's2', parentUuid: 's1' }),
      side({
        type: 'assistant',
        uuid: 's3',
        parentUuid: 's2',
        message: { model: 'claude-opus-4-6', id: 'msg_s', role: 'assistant', content: [{ type: 'text', text: 'sub' }] },
      }),
      assistant('msg_m', { type: 'text', text: 'main' }),
    ];

    // Act
    const conversations = rebuildConversations(lines, 'x.jsonl');

    // Assert
    expect(conversations.map((c) => [c.kind, c.requests.map((r) => r.id)])).toEqual([
      ['main', ['msg_m']],
      ['subagent', ['msg_s']],
    ]);
    expect(conversations[0]?.requests[0]?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'main prompt' }] }]);
  });
});
