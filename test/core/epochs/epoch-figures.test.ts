import { describe, expect, it } from 'vitest';
import { figuresOfEpoch, registerEpochKind } from '../../../src/core/epochs/kind-info.js';
import type { FiguresAt } from '../../../src/core/epochs/epoch-figures.js';
import type { Epoch } from '../../../src/core/epoch-types.js';
import type { FrozenThinking } from '../../../src/core/thinking/thinking-types.js';
import { block, epoch, shedEpoch } from '../../report/report-fixtures.js';

const at = (e: Epoch, more: Partial<FiguresAt> = {}): FiguresAt => ({
  epoch: e,
  tokensPerByte: 0.5,
  readsOf: () => 0,
  restores: 0,
  cacheReadBefore: null,
  ...more,
});
const thinking = (ordinal: number): FrozenThinking => ({ ordinal, messageIndex: 3, blockIndex: 0, sha256: 'e'.repeat(64), jsonBytes: 300 }) as FrozenThinking;

describe("figuresOfEpoch: every kind's part of an epoch's figures, added up", () => {
  it('should count the tool results, their reads back and the thinking an epoch removed beside them', () => {
    const e: Epoch = {
      ...epoch(2, '2026-01-01T00:00:00.000Z', [block(1, 1000), block(4, 3000)]),
      items: { tool_results: [block(1, 1000), block(4, 3000)], thinking_only: [thinking(0), thinking(1)] },
    };

    const figures = figuresOfEpoch(at(e, { readsOf: (ordinal) => (ordinal === 4 ? 2 : 0) }));

    expect(figures).toEqual({ blocks: 2, bytes: 4000, tokens: 2000, refaults: 2, blocksRefaulted: 1, thinking: 2, span: null, bytesTaken: 4000 });
  });

  it("should give a shed epoch's span, priced when the cache read before the latch is known, and its bytes as taken", () => {
    const span = { first: 2, last: 9, sha256: 'd'.repeat(64), bytes: 8000, pins: [] };
    const e = shedEpoch(1, '2026-01-01T00:00:00.000Z', span, 3000);

    const unpriced = figuresOfEpoch(at(e, { restores: 2 }));
    const priced = figuresOfEpoch(at(e, { cacheReadBefore: 10_000 }));

    expect(unpriced).toMatchObject({
      blocks: 0,
      bytes: 0,
      bytesTaken: 8000,
      span: { first: 2, last: 9, messages: 8, tokens: 4000, restores: 2, perTurn: null },
    });
    expect(priced.span?.perTurn).not.toBeNull();
  });

  it("should add a registered kind's part by its hook, and nothing for a kind without one", () => {
    const base = { mode: undefined, counts: 'items' as const, byCommand: false, filesOf: () => [] };
    const off = [
      registerEpochKind({ ...base, tag: 'probe_figures', originals: 'probe_figures', figures: (items) => ({ bytesTaken: 10 * items.length }) }),
      registerEpochKind({ ...base, tag: 'probe_plain', originals: 'probe_plain' }),
    ];
    try {
      const e: Epoch = {
        ...epoch(1, '2026-01-01T00:00:00.000Z', [block(0, 500)]),
        items: { tool_results: [block(0, 500)], probe_figures: [{}, {}, {}], probe_plain: [{}] },
      };

      expect(figuresOfEpoch(at(e))).toMatchObject({ blocks: 1, bytes: 500, bytesTaken: 530 });
    } finally {
      for (const remove of off) remove();
    }
  });
});
