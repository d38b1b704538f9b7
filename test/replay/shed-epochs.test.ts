import { describe, expect, it } from 'vitest';
import type { Epoch } from '../../src/core/epoch-types.js';
import { shedEpochFigure, type ShedLatchObservation } from '../../src/replay/shed-epochs.js';

const epoch: Epoch = {
  n: 2,
  latchedAt: '2026-02-10T23:00:00.000Z',
  kind: 'span',
  trigger: 'threshold',
  reason: { fullness: 0.71234, threshold: 0.7, window: 200_000, contextTokens: 142_468 },
  policy: { name: 'shed-stale-middle', version: 1, keepRecent: 6, minBytes: 0, keepPersonTurns: 2 },
  items: { span: [{ first: 9, last: 20, sha256: 'ab'.repeat(32), bytes: 41_000, pins: [] }] },
  gate: {
    writeMult: 1.25,
    readMult: 0.1,
    invalidatedSuffixTokens: 5000,
    droppedCachedTokens: 10_000,
    breakEvenTurns: 6,
    expectedRemainingTurns: 30,
    horizonFrom: 'turns_so_far',
    latch: true,
  },
};

const observation = (over: Partial<ShedLatchObservation> = {}): ShedLatchObservation => ({
  conversation: '/x/s.jsonl#1',
  request: 30,
  mainIndex: 28,
  epoch,
  model: 'claude-opus-4-6',
  ttl: '5m',
  tokensPerByte: 0.25,
  bytesSavedNow: 60_000,
  bytesSavedBefore: 20_000,
  warmTokens: 50_000,
  shedCacheWrite: 12_000,
  recordedCacheWrite: 2000,
  turnsAfter: 12,
  ...over,
});

describe('shedEpochFigure', () => {
  it('should price only what this epoch stops sending, warm at the cache-read marginal', () => {
    // Act
    const figure = shedEpochFigure(observation());

    // Assert: 40,000 bytes newly saved at a quarter token each; all warm; $5/MTok input
    expect(figure.perLaterTurn).toEqual({
      shedTokens: 10_000,
      warmTokens: 10_000,
      coldTokens: 0,
      inputTokenEquivalent: 1000,
      usd: 0.005,
      basis: 'cache_read_marginal',
    });
    expect(figure).toMatchObject({
      epoch: 2,
      request: 30,
      mainIndex: 28,
      fullness: 0.7123,
      turnsAfter: 12,
      span: { first: 9, last: 20, messages: 12, bytes: 41_000 },
    });
    expect(figure.gate).toEqual(epoch.gate);
  });

  it('should price the cold part at full input and stamp the blend', () => {
    // Act
    const blended = shedEpochFigure(observation({ warmTokens: 4000 }));
    const cold = shedEpochFigure(observation({ warmTokens: -10 }));

    // Assert
    expect(blended.perLaterTurn).toMatchObject({ warmTokens: 4000, coldTokens: 6000, inputTokenEquivalent: 6400, basis: 'blended' });
    expect(cold.perLaterTurn).toMatchObject({ warmTokens: 0, coldTokens: 10_000, inputTokenEquivalent: 10_000, usd: 0.05, basis: 'full_input' });
  });

  it("should charge the re-write at the cache-write rate of the request's TTL", () => {
    // Act
    const fiveMinutes = shedEpochFigure(observation());
    const oneHour = shedEpochFigure(observation({ ttl: '1h' }));
    const none = shedEpochFigure(observation({ shedCacheWrite: 1000 }));

    // Assert: 10,000 tokens beyond the recorded write, at 1.25x or 2x of $5/MTok
    expect(fiveMinutes.rewrite).toEqual({ cacheWriteTokens: 10_000, usd: 0.0625, basis: 'cache_write' });
    expect(oneHour.rewrite.usd).toBe(0.1);
    expect(none.rewrite.cacheWriteTokens).toBe(0);
  });

  it("should say in how many turns the saving covers the re-write's premium over a read, and whether the session ran that long", () => {
    // Act: 10,000 tokens written at 1.25x instead of read at 0.1x, against 1,000 a turn
    const figure = shedEpochFigure(observation());
    const short = shedEpochFigure(observation({ turnsAfter: 10 }));
    const nothing = shedEpochFigure(observation({ bytesSavedNow: 20_000 }));

    // Assert: 11,500 / 1,000 -> 12 turns, the latch's own first
    expect(figure.payback).toEqual({ turnsNeeded: 12, paidBack: true });
    expect(short.payback).toEqual({ turnsNeeded: 12, paidBack: false });
    expect(nothing.payback).toEqual({ turnsNeeded: null, paidBack: false });
  });
});
