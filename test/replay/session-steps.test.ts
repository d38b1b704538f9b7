import { describe, expect, it } from 'vitest';
import type { CompactionPoint } from '../../src/replay/compaction-point.js';
import type { RebuiltConversation, RebuiltRequest } from '../../src/replay/rebuild-conversations.js';
import { inTimeOrder, isPriced } from '../../src/replay/session-steps.js';

function request(id: string, timeMs: number, sentMs = timeMs): RebuiltRequest {
  return {
    id,
    messages: [],
    model: 'claude-opus-4-6',
    timeMs,
    sentMs,
    usage: { input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0 },
    blocks: 0,
  };
}

function conversation(id: string, requests: RebuiltRequest[], more: Partial<RebuiltConversation> = {}): RebuiltConversation {
  return { id, kind: 'main', requests, endedInCompaction: false, ...more };
}

const POINT: CompactionPoint = {
  tokens: 167_000,
  marginTokens: 33_000,
  source: 'rule',
  recorded: { conversation: 'a#0', trigger: 'auto', timeMs: 1000 },
};

describe('inTimeOrder', () => {
  it('should interleave the conversations by time and keep each request its place', () => {
    // Arrange
    const a = conversation('a#0', [request('a1', 10), request('a2', 30)]);
    const b = conversation('b#0', [request('b1', 20)]);

    // Act
    const steps = inTimeOrder([a, b]);

    // Assert
    expect(steps.map((s) => [s.request.id, s.n])).toEqual([
      ['a1', 0],
      ['b1', 0],
      ['a2', 1],
    ]);
  });
});

describe('isPriced', () => {
  it('should price the conversation that compacted whole, and others only before the compaction', () => {
    // Arrange
    const compacted = conversation('a#0', [request('a1', 2000)]);
    const other = conversation('b#0', [request('b1', 500), request('b2', 1500)]);

    // Act
    const priced = [compacted, other].flatMap((c) => c.requests.map((r, n) => isPriced({ conversation: c, request: r, n }, POINT)));

    // Assert
    expect(priced).toEqual([true, true, false]);
  });

  it('should never price a conversation after a compaction, nor the compaction call', () => {
    // Arrange
    const after = conversation('c#0', [request('c1', 10)], { afterCompaction: true });
    const compactor = conversation('d#0', [request('d1', 10)], { kind: 'subagent', agentId: 'acompact-1234' });

    // Act
    const priced = [after, compactor].map((c) => isPriced({ conversation: c, request: c.requests[0]!, n: 0 }, POINT));

    // Assert
    expect(priced).toEqual([false, false]);
  });
});
