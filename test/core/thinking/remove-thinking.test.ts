import { describe, expect, it } from 'vitest';
import { applySplices, planSplices } from '../../../src/core/splices.js';
import { judgeThinking } from '../../../src/core/thinking/remove-thinking.js';
import { reinsertThinking } from '../../../src/core/thinking/reinsert-thinking.js';
import { freezeThinking, planThinking } from '../../../src/core/thinking/plan-thinking.js';
import { fromUtf8, mustIndex, sha256, utf8 } from '../bodies.js';
import { redactedBlock, thinkingBlock, thinkingLoop } from './thinking-bodies.js';

function removeAll(body: Uint8Array, frozen: Parameters<typeof judgeThinking>[2]): { out: Uint8Array; judged: ReturnType<typeof judgeThinking> } {
  const index = mustIndex(body);
  const judged = judgeThinking(body, index, frozen, { sha256 });
  const out = applySplices(
    body,
    planSplices(
      judged.splices.map((s) => s.splice),
      body.length,
    )!,
  );
  return { out, judged };
}

describe('planThinking', () => {
  it('should freeze every thinking and redacted_thinking block from the given position on', () => {
    // Arrange
    const body = thinkingLoop(4);
    const index = mustIndex(body);

    // Act: the change is the tool_result in message 2 (block 0): blocks from message 2, block 1 on.
    const plan = planThinking(body, index, { messageIndex: 2, blockIndex: 1 }, [], sha256);

    // Assert
    expect(plan.kind).toBe('planned');
    if (plan.kind !== 'planned') return;
    expect(plan.thinking.map((t) => [t.ordinal, t.messageIndex, t.blockIndex, t.type])).toEqual([
      [1, 3, 0, 'redacted_thinking'],
      [2, 5, 0, 'thinking'],
      [3, 7, 0, 'thinking'],
    ]);
    for (const t of plan.thinking) {
      expect(fromUtf8(t.bytes)).toBe(t.ordinal === 1 ? redactedBlock(1) : thinkingBlock(t.ordinal));
      expect(t.jsonBytes).toBe(t.bytes.length);
      expect(t.sha256).toBe(sha256(t.bytes));
    }
  });

  it('should leave out the blocks an earlier epoch froze', () => {
    const body = thinkingLoop(4);
    const index = mustIndex(body);
    const first = planThinking(body, index, { messageIndex: 4, blockIndex: 1 }, [], sha256);
    if (first.kind !== 'planned') throw new Error('expected a plan');
    const second = planThinking(body, index, { messageIndex: 2, blockIndex: 1 }, first.thinking.map(freezeThinking), sha256);
    expect(second.kind === 'planned' && second.thinking.map((t) => t.ordinal)).toEqual([1]);
  });

  it('should hold when removing a block would leave its message without content', () => {
    const body = utf8(
      `{"model":"claude-opus-5-5","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[${thinkingBlock(0)}]},{"role":"user","content":"go on"}]}`,
    );
    expect(planThinking(body, mustIndex(body), { messageIndex: 0, blockIndex: 0 }, [], sha256)).toEqual({ kind: 'lone_thinking', messageIndex: 1 });
  });
});

describe('judgeThinking', () => {
  it('should remove each frozen block with one comma, leaving valid JSON and every other byte', () => {
    // Arrange
    const body = thinkingLoop(3);
    const plan = planThinking(body, mustIndex(body), { messageIndex: 0, blockIndex: 0 }, [], sha256);
    if (plan.kind !== 'planned') throw new Error('expected a plan');

    // Act
    const { out, judged } = removeAll(body, plan.thinking.map(freezeThinking));

    // Assert
    expect(judged.count).toBe(3);
    const text = fromUtf8(out);
    expect(text).not.toContain('"thinking","thinking"');
    expect(text).not.toContain('redacted_thinking');
    expect(text).toContain('"content":[{"type":"text","text":"step 0"}');
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    const original = JSON.parse(fromUtf8(body)) as { messages: Array<{ content: unknown }> };
    const expected = original.messages.map((m) =>
      Array.isArray(m.content) ? m.content.filter((b: { type: string }) => !b.type.includes('thinking')) : m.content,
    );
    expect((JSON.parse(text) as { messages: Array<{ content: unknown }> }).messages.map((m) => m.content)).toEqual(expected);
  });

  it('should remove runs of blocks at the start, in the middle and at the end of a content array', () => {
    for (const content of [
      `[${thinkingBlock(1)},${redactedBlock(2)},{"type":"text","text":"a"}]`,
      `[{"type":"text","text":"a"} , ${thinkingBlock(1)} , ${thinkingBlock(2)} ,{"type":"text","text":"b"}]`,
      `[{"type":"text","text":"a"},${thinkingBlock(1)},${redactedBlock(2)}]`,
    ]) {
      const body = utf8(`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":${content}}]}`);
      const plan = planThinking(body, mustIndex(body), { messageIndex: 0, blockIndex: 0 }, [], sha256);
      if (plan.kind !== 'planned') throw new Error('expected a plan');
      const { out } = removeAll(body, plan.thinking.map(freezeThinking));
      const parsed = JSON.parse(fromUtf8(out)) as { messages: Array<{ content: Array<{ type: string }> }> };
      expect(parsed.messages[1]!.content.every((b) => b.type === 'text')).toBe(true);
      expect(parsed.messages[1]!.content.length).toBe((JSON.parse(content) as unknown[]).length - 2);
    }
  });

  it('should skip a block that moved, changed or whose file is missing, with its reason', () => {
    const body = thinkingLoop(3);
    const plan = planThinking(body, mustIndex(body), { messageIndex: 0, blockIndex: 0 }, [], sha256);
    if (plan.kind !== 'planned') throw new Error('expected a plan');
    const frozen = plan.thinking.map(freezeThinking);
    const moved = [{ ...frozen[0]!, messageIndex: 3 }, { ...frozen[1]!, sha256: '0'.repeat(64) }, frozen[2]!, { ...frozen[2]!, ordinal: 9 }];
    const judged = judgeThinking(body, mustIndex(body), moved, { sha256, isAvailable: (t) => t.ordinal !== 2 });
    expect(judged.verdicts).toEqual(['thinking_mismatch', 'thinking_mismatch', 'thinking_file_missing', 'thinking_missing']);
    expect(judged.count).toBe(0);
    expect(judged.splices).toEqual([]);
  });

  it('should keep every block of a message that would be left empty', () => {
    const body = utf8(`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[${thinkingBlock(0)}]}]}`);
    const index = mustIndex(body);
    const block = index.messages[1]!.blocks[0]!;
    const bytes = body.subarray(block.start, block.end);
    const judged = judgeThinking(
      body,
      index,
      [{ ordinal: 0, messageIndex: 1, blockIndex: 0, type: 'thinking', jsonBytes: bytes.length, sha256: sha256(bytes) }],
      { sha256 },
    );
    expect(judged.verdicts).toEqual(['thinking_alone']);
    expect(judged.splices).toEqual([]);
  });
});

describe('reinsertThinking', () => {
  it('should put removed runs back byte for byte, whatever the whitespace around their commas', () => {
    for (const content of [
      `[${thinkingBlock(1)} ,\n ${redactedBlock(2)},  {"type":"text","text":"a"}]`,
      `[ {"type":"text","text":"a"} , ${thinkingBlock(1)}\t,${thinkingBlock(2)} ,{"type":"text","text":"b"} ]`,
      `[{"type":"text","text":"a"},${thinkingBlock(1)}, ${redactedBlock(2)}]`,
      `[${thinkingBlock(0)},{"type":"text","text":"a"},${thinkingBlock(1)},{"type":"tool_use","id":"t","name":"n","input":{}}]`,
    ]) {
      const body = utf8(`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":${content}}]}`);
      const plan = planThinking(body, mustIndex(body), { messageIndex: 0, blockIndex: 0 }, [], sha256);
      if (plan.kind !== 'planned') throw new Error('expected a plan');
      const { out } = removeAll(body, plan.thinking.map(freezeThinking));

      const back = reinsertThinking(
        out,
        mustIndex(out),
        plan.thinking.map((t) => ({ frozen: freezeThinking(t), bytes: t.bytes })),
      );

      expect(back === undefined ? undefined : fromUtf8(back)).toBe(fromUtf8(body));
    }
  });
});
