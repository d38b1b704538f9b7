import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstChangeOfEpoch, firstChangeOfItems } from '../../../src/core/epochs/first-change.js';
import { registerEpochKind } from '../../../src/core/epochs/kind-info.js';
import { NO_ITEMS, type FrozenItems } from '../../../src/core/epochs/frozen-items.js';
import type { Epoch, FrozenBlock } from '../../../src/core/epoch-types.js';
import type { FrozenSpan } from '../../../src/core/shed/shed-types.js';
import type { FrozenThinking } from '../../../src/core/thinking/thinking-types.js';
import { conversation, mustIndex } from '../bodies.js';

// A prompt, then four tool turns (assistant tool_use, user tool_result: toolu_i's result is message 2i+2), then a closing prompt.
const index = mustIndex(conversation(['a', 'b', 'c', 'd']));
const block = (ordinal: number, toolUseId = `toolu_${ordinal}`): FrozenBlock => ({
  ordinal,
  toolUseId,
  bytes: 1,
  sha256: 'a'.repeat(64),
  jsonBytes: 3,
  jsonSha256: 'b'.repeat(64),
});
const items = (parts: Partial<Record<string, readonly unknown[]>>): FrozenItems => ({ ...NO_ITEMS, ...parts }) as FrozenItems;

describe('firstChangeOfItems', () => {
  it('should place a stubbed tool_result just after it, and skip one whose place holds another call now', () => {
    expect(firstChangeOfItems(index, items({ tool_results: [block(2)] }))).toEqual({ messageIndex: 6, blockIndex: 1 });
    expect(firstChangeOfItems(index, items({ tool_results: [block(1, 'toolu_9'), block(3)] }))).toEqual({ messageIndex: 8, blockIndex: 1 });
  });

  it('should take the earliest over every built-in kind: a span just after its last message, a removed thinking block just after it', () => {
    const span = { first: 3, last: 4 } as FrozenSpan;
    const thinking = { messageIndex: 5, blockIndex: 0 } as FrozenThinking;

    expect(firstChangeOfItems(index, items({ tool_results: [block(2)], thinking_only: [thinking] }))).toEqual({ messageIndex: 5, blockIndex: 1 });
    // The thinking inside a span goes with its bytes: what it invalidates begins after it.
    expect(firstChangeOfItems(index, items({ tool_results: [block(2)], span: [span], thinking_only: [thinking] }))).toEqual({ messageIndex: 5, blockIndex: 0 });
  });

  it('should find no change when nothing frozen is in the body', () => {
    expect(firstChangeOfItems(index, NO_ITEMS)).toBeUndefined();
    expect(firstChangeOfItems(index, items({ span: [{ first: 40, last: 41 } as FrozenSpan], tool_results: [block(30)] }))).toBeUndefined();
  });

  describe('with a registered kind', () => {
    const unregister: Array<() => void> = [];
    const kind = (tag: string, changes: boolean) =>
      registerEpochKind({
        tag,
        mode: undefined,
        counts: 'items',
        byCommand: false,
        originals: tag,
        filesOf: () => [],
        ...(changes ? { changesAt: (item: { at: number }) => ({ messageIndex: item.at, blockIndex: 1 }) } : {}),
      });
    beforeAll(() => unregister.push(kind('probe_changes', true), kind('probe_silent', false)));
    afterAll(() => {
      for (const remove of unregister) remove();
    });

    it("should count its items' changes by its changesAt, and none of a kind without one", () => {
      const frozen = items({ tool_results: [block(2)], probe_changes: [{ at: 4 }], probe_silent: [{ at: 1 }] });

      expect(firstChangeOfItems(index, frozen)).toEqual({ messageIndex: 4, blockIndex: 1 });
    });

    it("should place one epoch's change by its own items, a registered kind's as a built-in's, so its latch freezes the thinking after it", () => {
      const epoch = (items: Epoch['items']): Epoch => ({
        n: 2,
        latchedAt: '2026-01-01T00:00:00.000Z',
        kind: 'probe_changes',
        reason: { fullness: 0.8, threshold: 0.7, window: 1000, contextTokens: 800 },
        policy: { name: 'probe', version: 1, keepRecent: 0, minBytes: 0 },
        items,
      });

      expect(firstChangeOfEpoch(epoch({ probe_changes: [{ at: 4 }, { at: 3 }] }), index)).toEqual({ messageIndex: 3, blockIndex: 1 });
      expect(firstChangeOfEpoch(epoch({ probe_changes: [{ at: 4 }], tool_results: [block(0)] }), index)).toEqual({ messageIndex: 2, blockIndex: 1 });
      expect(firstChangeOfEpoch(epoch({ probe_silent: [{ at: 1 }] }), index)).toBeUndefined();
    });
  });
});
