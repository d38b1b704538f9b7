/**
 * The latch decision (docs/design.md "Epoch", core/decide/decide-epoch.ts) on a rescue take: an
 * epoch latches only at or above a threshold (the fraction of the window, or the token threshold
 * in force: core/latch-threshold.ts), only on a reading taken with every current epoch applied,
 * only when there is something new, and what it adds is never a block already frozen.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideEpoch, type EpochDecision } from '../src/core/decide/decide-epoch.js';
import { DEFAULT_MIN_GAIN_FRACTION } from '../src/core/weigh-added.js';
import { gainFloorTokens, tokenThresholdFor } from '../src/core/latch-threshold.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import type { FullnessReading } from '../src/core/fullness-reading.js';
import type { PlannedBlock } from '../src/core/plan-elision.js';

/** What one decision on a rescue take is given: the reading, the thresholds, the frozen blocks and the plan. */
interface LatchInput {
  readonly reading: FullnessReading | undefined;
  readonly threshold: number;
  readonly rescueTokens?: number;
  readonly frozen: readonly FrozenBlock[];
  readonly epochCount: number;
  readonly plan: readonly PlannedBlock[];
  readonly minGainFraction?: number;
}

/** The decision on `input`, its take the plan with the frozen blocks. */
function decide(input: LatchInput): EpochDecision<PlannedBlock> {
  const { frozen, plan, reading, threshold, rescueTokens, epochCount, minGainFraction } = input;
  return decideEpoch({
    reading,
    thresholds: { threshold, ...(rescueTokens === undefined ? {} : { rescueTokens }) },
    epochCount,
    ...(minGainFraction === undefined ? {} : { minGainFraction }),
    take: () => ({ kind: 'blocks', frozen, plan }),
  });
}

const hex = (n: number): string => n.toString(16).padStart(64, '0');

const plannedArb: fc.Arbitrary<PlannedBlock> = fc
  .record({ ordinal: fc.nat({ max: 60 }), bytes: fc.integer({ min: 1, max: 400_000 }) })
  .map(({ ordinal, bytes }) => ({
    ordinal,
    toolUseId: `toolu_${ordinal}`,
    bytes,
    sha256: hex(ordinal),
    jsonBytes: bytes + 2,
    jsonSha256: hex(ordinal),
    text: new Uint8Array(0),
  }));

const latchInputArb: fc.Arbitrary<LatchInput> = fc
  .record({
    reading: fc.option(
      fc.record({
        contextTokens: fc.nat({ max: 2_000_000 }),
        window: fc.constantFrom(200_000, 1_000_000, 1, 50_000),
        epochsApplied: fc.nat({ max: 6 }),
        requestBytes: fc.nat({ max: 8_000_000 }),
      }),
      { nil: undefined },
    ),
    threshold: fc.double({ min: 0.05, max: 1, noNaN: true }),
    frozenOrdinals: fc.uniqueArray(fc.nat({ max: 60 }), { maxLength: 30 }),
    epochCount: fc.nat({ max: 6 }),
    plan: fc.uniqueArray(plannedArb, { selector: (b) => b.ordinal, maxLength: 30 }).map((p) => p.sort((a, b) => a.ordinal - b.ordinal)),
    minGainFraction: fc.option(fc.double({ min: 0, max: 0.5, noNaN: true }), { nil: undefined }),
    rescueTokens: fc.option(fc.oneof(fc.constant(0), fc.nat({ max: 1_500_000 })), { nil: undefined }),
  })
  .map(({ reading, threshold, frozenOrdinals, epochCount, plan, minGainFraction, rescueTokens }) => {
    const frozen: FrozenBlock[] = frozenOrdinals.map((o) => ({
      ordinal: o,
      toolUseId: `toolu_${o}`,
      bytes: 2000,
      sha256: hex(o),
      jsonBytes: 2002,
      jsonSha256: hex(o),
    }));
    return {
      reading,
      threshold,
      frozen,
      epochCount,
      plan,
      ...(minGainFraction === undefined ? {} : { minGainFraction }),
      ...(rescueTokens === undefined ? {} : { rescueTokens }),
    };
  });

/** Whether the reading is at or over either threshold, as the input configures them. */
function isOver(input: LatchInput): boolean {
  const reading = input.reading!;
  const tokens = tokenThresholdFor(input, reading.window);
  return reading.contextTokens / reading.window >= input.threshold || (tokens !== undefined && reading.contextTokens >= tokens);
}

describe('decideEpoch on a rescue take', () => {
  it('should latch only at or above the threshold, on a fresh reading, with new blocks worth the re-write', () => {
    fc.assert(
      fc.property(latchInputArb, (input) => {
        const decision = decide(input);

        if (decision.kind !== 'latch') return;
        const reading = input.reading!;
        expect(isOver(input)).toBe(true);
        expect(decision.fullness).toBe(reading.contextTokens / reading.window);
        expect(reading.epochsApplied).toBeGreaterThanOrEqual(input.epochCount);
        expect(decision.added.length).toBeGreaterThan(0);
        expect(decision.estimatedTokensFreed).toBeGreaterThanOrEqual(gainFloorTokens(reading, input, input.minGainFraction ?? DEFAULT_MIN_GAIN_FRACTION));
        // The token threshold's floor is never above the window's.
        expect(gainFloorTokens(reading, input, 0.1)).toBeLessThanOrEqual(0.1 * reading.window);
      }),
    );
  });

  it('should add only planned blocks that no epoch froze yet, in plan order', () => {
    fc.assert(
      fc.property(latchInputArb, (input) => {
        const decision = decide(input);

        if (decision.kind !== 'latch') return;
        const frozen = new Set(input.frozen.map((b) => b.ordinal));
        expect(decision.added).toEqual(input.plan.filter((b) => !frozen.has(b.ordinal)));
      }),
    );
  });

  it('should say why it does not latch, in the order of the rule', () => {
    fc.assert(
      fc.property(latchInputArb, (input) => {
        const decision = decide(input);

        const { reading } = input;
        const frozen = new Set(input.frozen.map((b) => b.ordinal));
        if (reading === undefined || !isOver(input)) {
          expect(decision).toEqual({ kind: 'idle' });
          return;
        }
        let why: string | undefined;
        if (reading.epochsApplied < input.epochCount) why = 'stale_reading';
        else if (input.plan.every((b) => frozen.has(b.ordinal))) why = 'nothing_new';
        if (why !== undefined) expect(decision).toMatchObject({ kind: 'hold', reason: why });
        else expect(decision.kind === 'latch' || (decision.kind === 'hold' && decision.reason === 'gain_too_small')).toBe(true);
      }),
    );
  });

  it('should never latch twice on the same reading once the new epoch is counted', () => {
    fc.assert(
      fc.property(latchInputArb, (input) => {
        const first = decide(input);
        if (first.kind !== 'latch') return;
        const frozen = [...input.frozen, ...first.added];
        // The next request, before a reading that carried the new epoch: stale, never a churn.
        const next = decide({ ...input, frozen, epochCount: input.epochCount + 1, reading: { ...input.reading!, epochsApplied: input.epochCount } });
        expect(next).toMatchObject({ kind: 'hold', reason: 'stale_reading' });
        // Even with a fresh reading, the same plan has nothing new to add.
        const same = decide({ ...input, frozen, epochCount: input.epochCount + 1, reading: { ...input.reading!, epochsApplied: input.epochCount + 1 } });
        expect(same).toMatchObject({ kind: 'hold', reason: 'nothing_new' });
      }),
    );
  });
});
