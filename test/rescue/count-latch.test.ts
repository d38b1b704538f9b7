import { describe, expect, it } from 'vitest';
import type { FrozenBlock, Epoch } from '../../src/core/epoch-types.js';
import { countLatch } from '../../src/rescue/count-latch.js';
import { recordingMetrics } from '../support/recording-metrics.js';

function block(ordinal: number, bytes: number): FrozenBlock {
  return { ordinal, toolUseId: `toolu_${ordinal}`, bytes, sha256: 'a'.repeat(64), jsonBytes: bytes + 2, jsonSha256: 'b'.repeat(64) };
}

function epoch(blocks: FrozenBlock[]): Epoch {
  return {
    n: 2,
    latchedAt: '2026-02-03T04:05:06.000Z',
    reason: { fullness: 0.72, threshold: 0.7, window: 200_000, contextTokens: 144_000 },
    kind: 'tool_results',
    policy: { name: 'tool-results', version: 2, keepRecent: 6, minBytes: 1024 },
    items: { tool_results: blocks },
  };
}

describe('countLatch', () => {
  it("should report the epoch's own blocks and their text bytes, as a rescue epoch latched on the threshold", () => {
    const metrics = recordingMetrics();

    countLatch(metrics, [epoch([block(0, 1500), block(3, 2500), block(4, 10_000)])]);

    expect(metrics.calls).toEqual([['epochLatched', 'rescue', 'threshold', 3, 14_000]]);
  });

  it('should report an epoch without blocks as zero of each', () => {
    const metrics = recordingMetrics();

    countLatch(metrics, [epoch([])]);

    expect(metrics.calls).toEqual([['epochLatched', 'rescue', 'threshold', 0, 0]]);
  });

  it("should report a shed epoch as shed, with its span's bytes", () => {
    const metrics = recordingMetrics();
    const span = { first: 1, last: 8, sha256: 'c'.repeat(64), bytes: 31_492, pins: [] };

    countLatch(metrics, [{ ...epoch([]), kind: 'span', trigger: 'threshold', items: { span: [span] } }]);

    expect(metrics.calls).toEqual([['epochLatched', 'shed', 'threshold', 0, 31_492]]);
  });

  it('should report the trigger the record gives: an overflow epoch as overflow', () => {
    const metrics = recordingMetrics();

    countLatch(metrics, [{ ...epoch([block(0, 1500)]), trigger: 'overflow' }]);

    expect(metrics.calls).toEqual([['epochLatched', 'rescue', 'overflow', 1, 1500]]);
  });

  it("should report the last epoch under its conversation's mode: a shed conversation's correction as shed", () => {
    const metrics = recordingMetrics();
    const span = { first: 1, last: 8, sha256: 'c'.repeat(64), bytes: 31_492, pins: [] };
    const shed: Epoch = { ...epoch([]), n: 1, kind: 'span', items: { span: [span] } };

    countLatch(metrics, [shed, { ...epoch([]), kind: 'thinking_only', trigger: 'prefix_check', items: { thinking_only: [] } }]);

    expect(metrics.calls).toEqual([['epochLatched', 'shed', 'prefix_check', 0, 0]]);
  });
});
