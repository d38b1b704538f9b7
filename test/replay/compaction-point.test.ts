import { describe, expect, it } from 'vitest';
import { AUTOCOMPACT_BUFFER_TOKENS, CLIENT_OUTPUT_RESERVE_TOKENS } from '../../src/core/client-compaction.js';
import { findCompactionPoint, runwayConversation } from '../../src/replay/compaction-point.js';
import { rebuildConversations } from '../../src/replay/rebuild-conversations.js';
import { assistant, line, user } from './fixtures.js';

/** A main thread that compacts once (`trigger`, `preTokens`), then goes on. */
function compacted(trigger: string, preTokens?: number): string[] {
  return [
    user('first'),
    assistant('msg_1', { type: 'text', text: 'a' }),
    user('second'),
    assistant('msg_2', { type: 'text', text: 'b' }),
    line({
      type: 'system',
      subtype: 'compact_boundary',
      timestamp: '2026-02-10T23:00:00.000Z',
      compactMetadata: { trigger, ...(preTokens === undefined ? {} : { preTokens }) },
    }),
    user('summary of the conversation'),
    assistant('msg_3', { type: 'text', text: 'c' }),
  ];
}

describe('findCompactionPoint', () => {
  it("should take the margin of the transcript's auto compact_boundary", () => {
    // Arrange
    const conversations = rebuildConversations(compacted('auto', 167_094), 'x.jsonl');

    // Act
    const at200k = findCompactionPoint(conversations, 200_000, 200_000);
    const at60k = findCompactionPoint(conversations, 60_000, 200_000);

    // Assert: 32,906 below the window, at any window
    expect(at200k).toMatchObject({ tokens: 167_094, marginTokens: 32_906, source: 'transcript' });
    expect(at200k.recorded).toEqual({ preTokens: 167_094, trigger: 'auto', timeMs: Date.parse('2026-02-10T23:00:00.000Z'), conversation: 'x.jsonl#1' });
    expect(at60k.tokens).toBe(27_094);
  });

  it("should fall back to the client's rule after a manual compaction, and say so", () => {
    // Arrange
    const conversations = rebuildConversations(compacted('manual', 142_431), 'x.jsonl');

    // Act
    const point = findCompactionPoint(conversations, 200_000, 200_000);

    // Assert: window - 20,000 - 13,000; the manual compaction is still the recorded one
    expect(CLIENT_OUTPUT_RESERVE_TOKENS + AUTOCOMPACT_BUFFER_TOKENS).toBe(33_000);
    expect(point).toMatchObject({ tokens: 167_000, marginTokens: 33_000, source: 'rule' });
    expect(point.recorded?.trigger).toBe('manual');
  });

  it('should use the rule for a session that never compacted, and never go below one token', () => {
    // Arrange
    const conversations = rebuildConversations([user('q'), assistant('msg_1', { type: 'text', text: 'a' })], 'x.jsonl');

    // Act
    const point = findCompactionPoint(conversations, 20_000, 200_000);

    // Assert
    expect(point).toEqual({ tokens: 1, marginTokens: 33_000, source: 'rule' });
  });
});

describe('findCompactionPoint under CLAUDE_CODE_AUTO_COMPACT_WINDOW', () => {
  it("should compact below the variable's window where it is under the replay's, keeping the margin", () => {
    // Arrange
    const auto = rebuildConversations(compacted('auto', 167_094), 'x.jsonl');
    const never = rebuildConversations([user('q'), assistant('msg_1', { type: 'text', text: 'a' })], 'x.jsonl');

    // Act
    const ruled = findCompactionPoint(never, 1_000_000, 200_000, 400_000);
    const measured = findCompactionPoint(auto, 1_000_000, 200_000, 400_000);
    const over = findCompactionPoint(never, 200_000, 200_000, 400_000);

    // Assert: 400,000 less the margin; a variable over the window changes nothing and is not named
    expect(ruled).toEqual({ tokens: 367_000, marginTokens: 33_000, source: 'rule', autoCompactWindow: 400_000 });
    expect(measured).toMatchObject({ tokens: 367_094, marginTokens: 32_906, source: 'transcript', autoCompactWindow: 400_000 });
    expect(over).toEqual({ tokens: 167_000, marginTokens: 33_000, source: 'rule' });
  });
});

describe('runwayConversation', () => {
  it("should pick the main thread's first conversation, the one that compacted", () => {
    // Arrange
    const conversations = rebuildConversations(compacted('auto', 167_094), 'x.jsonl');

    // Act
    const c = runwayConversation(conversations);

    // Assert
    expect(c?.id).toBe('x.jsonl#1');
    expect(c?.compaction?.trigger).toBe('auto');
    expect(conversations[1]?.afterCompaction).toBe(true);
  });
});
