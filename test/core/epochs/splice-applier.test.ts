import { describe, expect, it } from 'vitest';
import type { ApiDialect } from '../../../src/core/dialects/dialect.js';
import { MESSAGES_API } from '../../../src/core/dialects/messages.js';
import { applyEpochs } from '../../../src/core/epochs/apply.js';
import { checkSpliced } from '../../../src/core/epochs/check-spliced.js';
import type { ItemOptions } from '../../../src/core/epochs/epoch-applier.js';
import { judgeItems } from '../../../src/core/epochs/judge-items.js';
import { type SpliceKind, spliceApplier } from '../../../src/core/epochs/splice-applier.js';
import { applySplices, planSplices, type Splice } from '../../../src/core/splices.js';
import { freezeThinking, planThinking } from '../../../src/core/thinking/plan-thinking.js';
import { judgeThinking } from '../../../src/core/thinking/remove-thinking.js';
import type { FrozenThinking } from '../../../src/core/thinking/thinking-types.js';
import type { TranscriptIndex } from '../../../src/core/transcript-index-types.js';
import { validateMessagesRequest } from '../../support/messages-validator.js';
import { fromUtf8, mustIndex, sha256, utf8 } from '../bodies.js';
import { thinkingBlock, thinkingLoop } from '../thinking/thinking-bodies.js';

/** A toy splice kind's item: a block, replaced by what `make` gives for it. */
interface Place {
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly make?: (body: Uint8Array, index: TranscriptIndex) => Splice;
}

const STUB = '{"type":"text","text":"[stub]"}';

/** A text block's splice: the stub in its place. */
function stubAt(index: TranscriptIndex, place: Place): Splice {
  const block = index.messages[place.messageIndex]!.blocks[place.blockIndex]!;
  return { start: block.start, end: block.end, bytes: utf8(STUB) };
}

function toyKind(check?: SpliceKind<Place, { reason: string }, string, ItemOptions<Place>>['check']) {
  return spliceApplier<Place, { reason: string }, string, ItemOptions<Place>>({
    noun: 'places',
    fileMissing: { skip: 'file_missing', reason: 'elided_file_missing' },
    judge: (body, index, frozen, options) =>
      judgeItems(
        frozen,
        'stubbed',
        (p) =>
          index.messages[p.messageIndex]?.blocks[p.blockIndex] === undefined
            ? 'missing_block'
            : options.isAvailable?.(p) === false
              ? 'file_missing'
              : 'stubbed',
        (p) => {
          const splice = p.make?.(body, index) ?? stubAt(index, p);
          return { applied: splice, splice, bytes: splice.end - splice.start, messages: 0 };
        },
        (_p, reason) => ({ reason }),
      ),
    ...(check === undefined ? {} : { check }),
  });
}

/**
 * Three turns on a model that runs the prefix check: each assistant message is thinking (the 2nd
 * redacted), text, tool_use. The text of message 1 is the item; the thinking after it (messages 3
 * and 5, ordinals 1 and 2) is what its epoch froze.
 */
function fixture(): { body: Uint8Array; index: TranscriptIndex; thinking: FrozenThinking[] } {
  const body = thinkingLoop(3);
  const index = mustIndex(body);
  const plan = planThinking(body, index, { messageIndex: 1, blockIndex: 2 }, [], sha256);
  if (plan.kind !== 'planned') throw new Error('expected a plan');
  return { body, index, thinking: plan.thinking.map(freezeThinking) };
}

const TEXT: Place = { messageIndex: 1, blockIndex: 1 };

interface Parsed {
  messages: Array<{ content: Array<{ type: string; text?: string }> }>;
}

describe('spliceApplier', () => {
  it("should apply the kind's splices and remove the frozen thinking in one pass, the output valid", () => {
    // Arrange
    const { body, thinking } = fixture();

    // Act
    const outcome = applyEpochs(toyKind(), body, [TEXT], { sha256, thinking, isThinkingAvailable: () => true });

    // Assert
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 1, thinkingRemoved: 2, thinkingSkipped: [] });
    const out = JSON.parse(fromUtf8(outcome.body)) as Parsed;
    expect(out.messages[1]!.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(out.messages[1]!.content[1]!.text).toBe('[stub]');
    expect(out.messages[3]!.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(out.messages[5]!.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(fromUtf8(outcome.body)).toContain(thinkingBlock(0));
    expect(validateMessagesRequest(outcome.body)).toEqual([]);
  });

  it('should leave a frozen thinking block whose file is missing, and say why', () => {
    // Arrange
    const { body, thinking } = fixture();

    // Act
    const outcome = applyEpochs(toyKind(), body, [TEXT], { sha256, thinking, isThinkingAvailable: (t) => t.ordinal !== 2 });

    // Assert
    expect(outcome).toMatchObject({ kind: 'applied', stubs: 1, thinkingRemoved: 1, thinkingSkipped: [{ ordinal: 2, reason: 'thinking_file_missing' }] });
    expect(fromUtf8(outcome.body)).toContain(thinkingBlock(2));
    expect(fromUtf8(outcome.body)).not.toContain('redacted_thinking');
    expect(validateMessagesRequest(outcome.body)).toEqual([]);
  });

  it.each([
    [
      'does not index',
      (_b: Uint8Array, index: TranscriptIndex) => ({ ...stubAt(index, TEXT), bytes: utf8('{"type":"text","text":') }),
      'output does not index',
    ],
    [
      'lost a message',
      (_b: Uint8Array, index: TranscriptIndex) => ({ start: index.messages[1]!.end, end: index.messages[2]!.end, bytes: utf8('') }),
      'output has 6 messages, not 7',
    ],
    [
      'changed a thinking block it keeps',
      (_b: Uint8Array, index: TranscriptIndex) => {
        const block = index.messages[1]!.blocks[0]!;
        return { start: block.start, end: block.end, bytes: utf8(thinkingBlock(9)) };
      },
      'thinking block 0 (message 1 block 0) is not its input bytes',
    ],
  ] as const)('should pass the body through untouched when the output %s (self_check_failed)', (_name, make, detail) => {
    // Arrange
    const { body, thinking } = fixture();

    // Act
    const outcome = applyEpochs(toyKind(), body, [{ ...TEXT, make }], { sha256, thinking, isThinkingAvailable: () => true });

    // Assert
    expect(outcome).toMatchObject({ kind: 'passthrough', reason: 'self_check_failed' });
    expect(outcome.kind === 'passthrough' && outcome.detail).toContain(detail);
    expect(outcome.body).toBe(body);
  });

  it("should re-index the output with the request's API", () => {
    // Arrange: an API whose index knows the input only.
    const { body, index, thinking } = fixture();
    const api: ApiDialect = {
      ...MESSAGES_API,
      index: (b) => (b === body ? MESSAGES_API.index(b) : { kind: 'failed', reason: 'unknown_shape', detail: 'planted' }),
    };

    // Act
    const outcome = applyEpochs(toyKind(), body, [TEXT], { sha256, index, api, thinking, isThinkingAvailable: () => true });

    // Assert
    expect(outcome).toMatchObject({ kind: 'passthrough', reason: 'self_check_failed', detail: 'output does not index: unknown_shape: planted' });
  });

  it("should run the kind's own check on an output the shared one passed, with the output's index", () => {
    // Arrange
    const { body, thinking } = fixture();
    const seen: number[] = [];
    const kind = toyKind((_body, _index, _out, after) => {
      seen.push(after.messages[3]!.blocks.length);
      return 'the kind says no';
    });

    // Act
    const outcome = applyEpochs(kind, body, [TEXT], { sha256, thinking, isThinkingAvailable: () => true });

    // Assert
    expect(outcome).toMatchObject({ kind: 'passthrough', reason: 'self_check_failed', detail: 'the kind says no' });
    expect(seen).toEqual([2]);
  });

  it('should pass through with the missing-file reason when every item is skipped for its file and no thinking goes', () => {
    // Arrange
    const { body } = fixture();

    // Act
    const outcome = applyEpochs(toyKind(), body, [TEXT], { sha256, isAvailable: () => false });

    // Assert
    expect(outcome).toMatchObject({ kind: 'passthrough', reason: 'elided_file_missing', skipped: [{ reason: 'file_missing' }] });
  });
});

describe('checkSpliced', () => {
  it('should fail an output that still holds a thinking block judged removed', () => {
    // Arrange: the kind's splice made, the judged removals not.
    const { body, index, thinking } = fixture();
    const judged = judgeThinking(body, index, thinking, { sha256 });
    const splices = [stubAt(index, TEXT)];
    const out = applySplices(body, planSplices(splices, body.length)!);

    // Act
    const check = checkSpliced(body, index, out, splices, { ...judged, splices: [] });

    // Assert
    expect(judged.count).toBe(2);
    expect(check).toEqual({ ok: false, failure: 'output has 3 thinking blocks, not 1' });
  });

  it('should fail a splice that lies between messages', () => {
    // Arrange: a comma between messages 1 and 2 made a space.
    const { body, index } = fixture();
    const at = index.messages[1]!.end;
    const splices = [{ start: at, end: at + 1, bytes: utf8(', ') }];
    const out = applySplices(body, splices);

    // Act
    const check = checkSpliced(body, index, out, splices, judgeThinking(body, index, [], { sha256 }));

    // Assert
    expect(check).toEqual({ ok: false, failure: `a splice at byte ${at} lies outside every message` });
  });
});
