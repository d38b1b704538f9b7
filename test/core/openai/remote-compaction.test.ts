import { describe, expect, it } from 'vitest';
import { CHAT_API } from '../../../src/core/dialects/chat.js';
import { RESPONSES_API } from '../../../src/core/dialects/responses.js';
import { indexResponses } from '../../../src/core/openai/responses-index.js';
import { isCompactionTrigger, requestClassOfBody } from '../../../src/core/openai/remote-compaction.js';
import { planElision } from '../../../src/core/plan-elision.js';
import type { OpenAiIndex } from '../../../src/core/openai/openai-index.js';
import { sha256, utf8 } from '../bodies.js';

function mustIndex(value: unknown): { bytes: Uint8Array; index: OpenAiIndex } {
  const bytes = utf8(JSON.stringify(value));
  const outcome = indexResponses(bytes);
  if (outcome.kind !== 'indexed') throw new Error(`${outcome.reason}: ${outcome.detail}`);
  return { bytes, index: outcome.index };
}

const big = 'x'.repeat(4000);
const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Be brief.' }] };
const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look around.' }] };
const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: `gAAAAA${big}` };
const pair = (i: number) => [
  { type: 'function_call', name: 'exec_command', arguments: '{}', call_id: `c${i}` },
  { type: 'function_call_output', call_id: `c${i}`, output: `${i} ${big}` },
];

describe('remote compaction items', () => {
  it('should index a compaction item and a compaction_trigger as blocks of their own type, never as tool outputs', () => {
    // Arrange
    const input = [developer, user, compaction, ...pair(1), ...pair(2), { type: 'compaction_trigger' }];

    // Act
    const { bytes, index } = mustIndex({ model: 'm', input });
    const planned = planElision(bytes, index, { keepRecent: 0, minBytes: 1 }, sha256);

    // Assert
    expect(index.messages.map((m) => m.blocks[0]!.type)).toEqual([
      'message',
      'message',
      'compaction',
      'tool_use',
      'tool_result',
      'tool_use',
      'tool_result',
      'compaction_trigger',
    ]);
    expect(index.toolResults.map((t) => t.messageIndex)).toEqual([4, 6]);
    const compactionItem = index.messages[2]!;
    expect(planned.length).toBeGreaterThan(0);
    expect(planned.every((p) => index.toolResults[p.ordinal]!.content.start > compactionItem.end)).toBe(true);
  });

  it('should read a body whose last input item is compaction_trigger as a compaction request', () => {
    const trigger = mustIndex({ model: 'm', input: [developer, user, ...pair(1), { type: 'compaction_trigger' }] }).index;
    const after = mustIndex({ model: 'm', input: [developer, user, compaction, ...pair(1)] }).index;
    const earlier = mustIndex({ model: 'm', input: [developer, { type: 'compaction_trigger' }, user] }).index;

    expect(isCompactionTrigger(trigger)).toBe(true);
    expect(isCompactionTrigger(after)).toBe(false);
    expect(isCompactionTrigger(earlier)).toBe(false);
    expect(CHAT_API.requestClass(trigger)).toBeUndefined();
    expect(isCompactionTrigger(undefined)).toBe(false);
  });

  it('should keep the class the client named, and class a trigger request compaction only when it names none', () => {
    const trigger = mustIndex({ model: 'm', input: [developer, user, { type: 'compaction_trigger' }] }).index;
    const plain = mustIndex({ model: 'm', input: [developer, user] }).index;

    expect(requestClassOfBody(undefined, RESPONSES_API, trigger)).toBe('compaction');
    expect(requestClassOfBody('main', RESPONSES_API, trigger)).toBe('main');
    expect(requestClassOfBody(undefined, RESPONSES_API, plain)).toBeUndefined();
  });
});
