import { describe, expect, it } from 'vitest';
import { CLEAR_PLACEHOLDER, CLEAR_TRIGGER_TOKENS, clearToolUses } from '../../src/replay/clear-tool-uses.js';
import type { ApiMessage } from '../../src/replay/rebuild-conversations.js';

const results = (n: number): ApiMessage[] =>
  Array.from({ length: n }, (_, i) => ({ role: 'user' as const, content: [{ tool_use_id: `t${i}`, type: 'tool_result', content: `result ${i}` }] }));

describe('clearToolUses', () => {
  it('should leave the messages alone under the trigger', () => {
    // Arrange
    const messages = results(5);

    // Act
    const outcome = clearToolUses(messages, CLEAR_TRIGGER_TOKENS);

    // Assert
    expect(outcome.messages).toBe(messages);
    expect(outcome.cleared.size).toBe(0);
  });

  it('should clear all but the 3 newest tool results over the trigger', () => {
    // Arrange
    const messages = results(5);

    // Act
    const outcome = clearToolUses(messages, CLEAR_TRIGGER_TOKENS + 1);

    // Assert
    expect([...outcome.cleared.keys()]).toEqual(['t0', 't1']);
    expect(outcome.cleared.get('t0')).toBe('result 0'.length);
    expect(outcome.messages[0]?.content[0]).toEqual({ tool_use_id: 't0', type: 'tool_result', content: CLEAR_PLACEHOLDER });
    expect(outcome.messages[2]).toBe(messages[2]);
  });
});
