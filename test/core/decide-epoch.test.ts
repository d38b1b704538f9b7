import { describe, expect, it } from 'vitest';
import { decideEpoch, type EpochInput } from '../../src/core/decide/decide-epoch.js';
import type { EpochTake } from '../../src/core/epoch-take.js';
import type { FrozenBlock } from '../../src/core/epoch-types.js';
import { HOLD_REASONS } from '../../src/core/decide/hold-reasons.js';
import type { FullnessReading } from '../../src/core/fullness-reading.js';
import { DEFAULT_LONG_WINDOW_RESCUE_TOKENS } from '../../src/core/latch-threshold.js';
import type { DecidedBlock } from '../../src/core/weigh-added.js';
import type { GateInput } from '../../src/core/break-even.js';
import type { PlannedSpan } from '../../src/core/shed/shed-types.js';

// 150k of a 200k window (75%), measured on a 600 KB request: 0.25 tokens per byte.
const READING: FullnessReading = { contextTokens: 150_000, window: 200_000, epochsApplied: 0, requestBytes: 600_000 };
const block = (ordinal: number, bytes: number): DecidedBlock => ({ ordinal, bytes });
const frozen = (ordinal: number): FrozenBlock => ({
  ordinal,
  toolUseId: `toolu_${ordinal}`,
  bytes: 1,
  sha256: '0'.repeat(64),
  jsonBytes: 3,
  jsonSha256: '1'.repeat(64),
});
const SPAN = { first: 1, last: 4, sha256: 'a'.repeat(64), bytes: 200_000, pins: [], text: new Uint8Array(0), windowStart: 5 } as PlannedSpan;
// Pays back at once: 50k tokens dropped, 10k to write again, turns ahead.
const PAYS: GateInput = { invalidatedSuffixTokens: 10_000, droppedCachedTokens: 50_000, turnsSoFar: 20, oneHourCache: false };
const NEVER: GateInput = { ...PAYS, horizon: 0 };

const input = (take: EpochTake<DecidedBlock>, over: Partial<EpochInput<DecidedBlock>> = {}): EpochInput<DecidedBlock> => ({
  reading: READING,
  thresholds: { threshold: 0.7 },
  epochCount: 0,
  take: () => take,
  ...over,
});
const blocks = (plan: readonly DecidedBlock[], more: Partial<Extract<EpochTake<DecidedBlock>, { kind: 'blocks' }>> = {}): EpochTake<DecidedBlock> => ({
  kind: 'blocks',
  frozen: [],
  plan,
  ...more,
});

describe('decideEpoch', () => {
  it('should latch rescue blocks that free enough, with no gate unless asked', () => {
    expect(decideEpoch(input(blocks([block(0, 200_000)])))).toEqual({
      kind: 'latch',
      fullness: 0.75,
      estimatedTokensFreed: 50_000,
      added: [block(0, 200_000)],
    });
  });

  it('should be idle under the threshold and without a reading, and never ask for the take', () => {
    const take = (): EpochTake<DecidedBlock> => {
      throw new Error('asked');
    };

    expect(decideEpoch({ reading: READING, thresholds: { threshold: 0.8 }, epochCount: 0, take })).toEqual({ kind: 'idle' });
    expect(decideEpoch({ reading: undefined, thresholds: { threshold: 0.8 }, epochCount: 0, take })).toEqual({ kind: 'idle' });
  });

  it('should hold a stale reading before it plans anything', () => {
    const take = (): EpochTake<DecidedBlock> => {
      throw new Error('asked');
    };

    expect(decideEpoch({ reading: READING, thresholds: { threshold: 0.7 }, epochCount: 1, take })).toMatchObject({ kind: 'hold', reason: 'stale_reading' });
  });

  it.each([
    ['nothing_new', blocks([block(0, 200_000)], { frozen: [frozen(0)] })],
    ['gain_too_small', blocks([block(0, 1000)])],
    ['gate', blocks([block(0, 200_000)], { gate: () => NEVER })],
    ['too_few_messages', { kind: 'none', reason: 'too_few_messages', detail: 'no whole message' } as const],
    ['gain_too_small', { kind: 'span', span: SPAN, gate: { ...PAYS, droppedCachedTokens: 19_999 }, recentTokens: 14_000 } as const],
    ['gate', { kind: 'span', span: SPAN, gate: NEVER, recentTokens: 14_000 } as const],
  ])('should hold with %s', (reason, take) => {
    const decision = decideEpoch(input(take));

    expect(decision).toMatchObject({ kind: 'hold', reason });
    expect(Object.hasOwn(HOLD_REASONS, (decision as { reason: string }).reason)).toBe(true);
  });

  it("should latch a span that pays back, with the gate's figures", () => {
    expect(decideEpoch(input({ kind: 'span', span: SPAN, gate: PAYS, recentTokens: 14_000 }))).toMatchObject({
      kind: 'latch',
      span: SPAN,
      estimatedTokensFreed: 50_000,
      gate: { latch: true },
    });
  });

  it('should let the gate give way from 85% full, for either mode', () => {
    const full = { ...READING, contextTokens: 172_000 };

    expect(decideEpoch(input({ kind: 'span', span: SPAN, gate: NEVER, recentTokens: 14_000 }, { reading: full }))).toMatchObject({
      kind: 'latch',
      gate: { latch: true, forcedAt: 0.86 },
    });
    expect(decideEpoch(input(blocks([block(0, 200_000)], { gate: () => NEVER }), { reading: full }))).toMatchObject({
      kind: 'latch',
      gate: { latch: true, forcedAt: 0.86 },
    });
  });

  describe('on a model that runs the prefix check', () => {
    const midTurn = { prefixCheck: true, atPrompt: false, latchAt: 'prompt' } as const;
    const latching = blocks([block(0, 200_000)]);

    it('should hold mid_turn while the newest message is not a prompt, under the ceiling', () => {
      const decision = decideEpoch(input(latching, { turn: midTurn }));

      expect(decision).toMatchObject({ kind: 'hold', reason: 'mid_turn' });
      expect(Object.hasOwn(HOLD_REASONS, 'mid_turn')).toBe(true);
    });

    it("should hold a span mid_turn with the span, for the replay's sizes", () => {
      expect(decideEpoch(input({ kind: 'span', span: SPAN, gate: PAYS, recentTokens: 14_000 }, { turn: midTurn }))).toMatchObject({
        kind: 'hold',
        reason: 'mid_turn',
        span: SPAN,
      });
    });

    it('should latch at a prompt, and say nothing of the turn', () => {
      const decision = decideEpoch(input(latching, { turn: { ...midTurn, atPrompt: true } }));

      expect(decision).toMatchObject({ kind: 'latch' });
      expect(decision).not.toHaveProperty('midTurn');
    });

    it('should latch mid-turn at the 85% ceiling and record it', () => {
      expect(decideEpoch(input(latching, { turn: midTurn, reading: { ...READING, contextTokens: 170_000 } }))).toMatchObject({
        kind: 'latch',
        fullness: 0.85,
        midTurn: true,
      });
      expect(decideEpoch(input(latching, { turn: midTurn, reading: { ...READING, contextTokens: 169_999 } }))).toMatchObject({
        kind: 'hold',
        reason: 'mid_turn',
      });
    });

    it('should latch mid-turn with latchAt anywhere, and record it', () => {
      expect(decideEpoch(input(latching, { turn: { ...midTurn, latchAt: 'anywhere' } }))).toMatchObject({ kind: 'latch', midTurn: true });
    });

    it('should leave another model alone, mid-turn or not', () => {
      const decision = decideEpoch(input(latching, { turn: { ...midTurn, prefixCheck: false } }));

      expect(decision).toMatchObject({ kind: 'latch' });
      expect(decision).not.toHaveProperty('midTurn');
    });

    it('should name the hold that came first, not mid_turn, when the epoch would not latch anyway', () => {
      expect(decideEpoch(input(blocks([block(0, 1000)]), { turn: midTurn }))).toMatchObject({ kind: 'hold', reason: 'gain_too_small' });
    });
  });
});

describe('decideEpoch, the thresholds', () => {
  const latching = blocks([block(0, 200_000)]);

  it('should be idle just under the threshold, and latch exactly at it', () => {
    expect(decideEpoch(input(latching, { reading: { ...READING, contextTokens: 139_999 } }))).toEqual({ kind: 'idle' });
    expect(decideEpoch(input(latching, { reading: { ...READING, contextTokens: 140_000 } }))).toMatchObject({ kind: 'latch', fullness: 0.7 });
  });

  it('should latch on the token threshold before the percentage, at a 1M window', () => {
    // 130k of a 1M window is 13%, far under 70%, but over a 120k token threshold.
    const reading = { ...READING, contextTokens: 130_000, window: 1_000_000, requestBytes: 520_000 };

    expect(decideEpoch(input(latching, { reading, thresholds: { threshold: 0.7, rescueTokens: 120_000 } }))).toMatchObject({ kind: 'latch', fullness: 0.13 });
  });

  it('should take the default token threshold at a 1M window, and none when told 0', () => {
    const at = { ...READING, contextTokens: DEFAULT_LONG_WINDOW_RESCUE_TOKENS, window: 1_000_000 };
    const under = { ...at, contextTokens: DEFAULT_LONG_WINDOW_RESCUE_TOKENS - 1 };

    expect(decideEpoch(input(latching, { reading: under }))).toEqual({ kind: 'idle' });
    expect(decideEpoch(input(latching, { reading: at }))).toMatchObject({ kind: 'latch' });
    expect(decideEpoch(input(latching, { reading: at, thresholds: { threshold: 0.7, rescueTokens: 0 } }))).toEqual({ kind: 'idle' });
  });
});

describe('decideEpoch: epochs only for new weight (issue 39)', () => {
  const span = (more: Partial<Extract<EpochTake<DecidedBlock>, { kind: 'span' }>>): EpochTake<DecidedBlock> => ({
    kind: 'span',
    span: SPAN,
    gate: PAYS,
    recentTokens: 14_000,
    ...more,
  });

  it('should hold as a thrash a span that would take out mostly what was brought back', () => {
    expect(decideEpoch(input(span({ broughtBackBytes: 100_001 })))).toMatchObject({ kind: 'hold', reason: 'working_set_thrash' });
    expect(decideEpoch(input(span({ broughtBackBytes: 100_000 })))).toMatchObject({ kind: 'latch', estimatedTokensFreed: 50_000 });
  });

  it('should weigh the gain on what was not brought back', () => {
    // 40% of the span brought back leaves 30,000 tokens of new weight: over the 20,000 asked.
    expect(decideEpoch(input(span({ broughtBackBytes: 80_000 })))).toMatchObject({ kind: 'latch' });
    // 30,000 tokens freed, 55% of them new: 16,500 of new weight, under the 20,000 asked: held as a thrash.
    expect(decideEpoch(input(span({ broughtBackBytes: 90_000, gate: { ...PAYS, droppedCachedTokens: 30_000 } })))).toMatchObject({
      kind: 'hold',
      reason: 'working_set_thrash',
    });
  });

  it('should let the window force out what it may, near the window', () => {
    expect(decideEpoch(input(span({ broughtBackBytes: 150_000, forcedWorkingSet: true })))).toMatchObject({ kind: 'latch' });
  });

  it("should let the window force out the older working set from the gate's ceiling on", () => {
    // 86% full: a span that is mostly what was brought back (before the latest prompt: no take holds what came back since) latches.
    const ceiling = { ...READING, contextTokens: 172_000 };
    expect(decideEpoch(input(span({ broughtBackBytes: 150_000 }), { reading: ceiling }))).toMatchObject({ kind: 'latch', estimatedTokensFreed: 50_000 });
    // The request being decided weighs, not only the last reading: one grown past the ceiling since.
    expect(decideEpoch(input(span({ broughtBackBytes: 150_000, reading: ceiling })))).toMatchObject({ kind: 'latch' });
    expect(decideEpoch(input(span({ broughtBackBytes: 150_000 })))).toMatchObject({ kind: 'hold', reason: 'working_set_thrash' });
  });

  it('should not take any gain within a tenth of the window while the model works from what it brought back', () => {
    const near = { ...READING, contextTokens: 185_000 };
    const small = { gate: { ...PAYS, droppedCachedTokens: 5_000 } };
    expect(decideEpoch(input(span(small), { reading: near }))).toMatchObject({ kind: 'latch' });
    expect(decideEpoch(input(span({ ...small, holdsWorkingSet: true }), { reading: near }))).toMatchObject({ kind: 'hold', reason: 'gain_too_small' });
  });

  it('should hold blocks that are mostly brought back, and weigh the rest alone', () => {
    const back = new Set([1]);
    expect(decideEpoch(input(blocks([block(0, 90_000), block(1, 110_000)], { broughtBack: back })))).toMatchObject({
      kind: 'hold',
      reason: 'working_set_thrash',
    });
    expect(decideEpoch(input(blocks([block(0, 110_000), block(1, 90_000)], { broughtBack: back })))).toMatchObject({ kind: 'latch' });
    expect(decideEpoch(input(blocks([block(0, 60_000), block(1, 50_000)], { broughtBack: back })))).toMatchObject({
      kind: 'hold',
      reason: 'working_set_thrash',
    });
  });

  it('should hold near the window as over it when the working set kept the blocks out', () => {
    expect(decideEpoch(input(blocks([block(0, 1_000)], { keptByWorkingSet: 3, nearWindow: true })))).toMatchObject({
      kind: 'hold',
      reason: 'working_set_exceeds_window',
    });
  });
});
