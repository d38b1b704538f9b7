/**
 * The ledger is complete: every block an epoch considers gets exactly one row (kept ones too,
 * when the classifier keeps them), every frozen block's row agrees with it, and an epoch that
 * loses any row of a frozen block fails checkEpochLedger, which `verify` runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyClassifierScores } from '../src/core/labels/classifier-response.js';
import { checkEpochLedger } from '../src/core/labels/ledger.js';
import { freezeLabelled } from '../src/core/labels/freeze-labelled.js';
import { LABELS_POLICY_VERSION, type LedgerRow } from '../src/core/labels/label-types.js';
import type { Epoch, FrozenBlock } from '../src/core/epoch-types.js';
import { labelledEpoch, sessionBody, sessionSpecArb } from './support/labels-support.js';
import { policyArb } from './support/rewrite-support.js';

const scoreArb = fc.double({ min: 0, max: 1, noNaN: true });
const scoresArb = fc.array(fc.option(fc.record({ keep: scoreArb, drop: scoreArb, pointer: scoreArb }), { nil: undefined }), { maxLength: 12 });

function epochOf(blocks: FrozenBlock[], ledger: LedgerRow[]): Epoch {
  return {
    n: 1,
    latchedAt: '2026-09-19T00:00:00.000Z',
    reason: { fullness: 0.8, threshold: 0.7, window: 200000, contextTokens: 160000 },
    kind: 'tool_results',
    policy: { name: 'elide-old-tool-results', version: LABELS_POLICY_VERSION, keepRecent: 6, minBytes: 1024 },
    items: { tool_results: blocks },
    ledger,
  };
}

describe('the ledger', () => {
  it('should hold one row per considered block, agree with every frozen block, and pass the check', () => {
    fc.assert(
      fc.property(sessionSpecArb, policyArb, scoresArb, (spec, policy, scores) => {
        const body = sessionBody(spec);
        const { plan, labels } = labelledEpoch(body, policy);
        // Some chunks scored by a classifier: keep, pointer or drop by the thresholds.
        const scored = new Map(labels.flatMap((l, i) => (scores[i] === undefined ? [] : [[l.toolUseId, scores[i]!] as const])));
        const final = applyClassifierScores(labels, scored);

        const { blocks, ledger } = freezeLabelled(plan, final);

        expect(ledger.map((r) => r.ordinal)).toEqual(plan.map((b) => b.ordinal));
        expect(blocks.map((b) => b.ordinal)).toEqual(final.filter((l) => l.label !== 'keep').map((l) => l.ordinal));
        for (const row of ledger) expect(row.score === 'local').toBe(row.rule !== 'model');
        expect(checkEpochLedger(epochOf(blocks, ledger))).toEqual([]);
      }),
    );
  });

  it('should fail the check when the row of any frozen block is lost', () => {
    fc.assert(
      fc.property(sessionSpecArb, policyArb, fc.nat(), (spec, policy, pick) => {
        const { blocks, ledger } = labelledEpoch(sessionBody(spec), policy);
        fc.pre(blocks.length > 0);
        const lost = blocks[pick % blocks.length]!;

        const problems = checkEpochLedger(
          epochOf(
            blocks,
            ledger.filter((r) => r.ordinal !== lost.ordinal),
          ),
        );

        expect(problems).toContain(`epoch #1 ordinal ${lost.ordinal}: no ledger row`);
      }),
    );
  });
});
