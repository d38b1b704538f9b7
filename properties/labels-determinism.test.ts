/**
 * Labels are deterministic: the same body gives the same labels, frozen blocks and ledger in
 * any process (no hidden state between calls), and frozen labelled blocks give the same stub
 * bytes after the JSON round trip of the state directory. On any body the generators make
 * (hostile text, odd tool names and inputs) the labeller never throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { labelBlocks } from '../src/core/labels/label-blocks.js';
import { renderStub } from '../src/core/stub.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { requestBodyArb } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { labelledEpoch, sessionBody, sessionSpecArb } from './support/labels-support.js';
import { elidedDirArb, indexOf, planOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

describe('labelBlocks', () => {
  it('should give the same labels, blocks and ledger for the same body, whatever ran in between', () => {
    fc.assert(
      fc.property(sessionSpecArb, sessionSpecArb, policyArb, (spec, other, policy) => {
        const body = sessionBody(spec);

        const first = labelledEpoch(body, policy);
        labelledEpoch(sessionBody(other), policy);
        const again = labelledEpoch(body, policy);

        expect(again.labels).toEqual(first.labels);
        expect(again.blocks).toEqual(first.blocks);
        expect(again.ledger).toEqual(first.ledger);
      }),
    );
  });

  it('should give the same stubs and rewrite after the frozen blocks pass through JSON', () => {
    fc.assert(
      fc.property(sessionSpecArb, policyArb, elidedDirArb, (spec, policy, elidedDir) => {
        const body = sessionBody(spec);
        const { blocks } = labelledEpoch(body, policy);
        const restored = JSON.parse(JSON.stringify(blocks)) as FrozenBlock[];

        expect(restored.map((b) => renderStub(b, elidedDir))).toEqual(blocks.map((b) => renderStub(b, elidedDir)));
        const a = rewriteRequest(body, blocks, { elidedDir, sha256 });
        const b = rewriteRequest(body, restored, { elidedDir, sha256 });
        expect(b.kind).toBe(a.kind);
        expect(sameBytes(a.body, b.body)).toBe(true);
      }),
    );
  });

  it('should label every block of any generated request, the same way twice, and never throw', () => {
    fc.assert(
      fc.property(requestBodyArb(8, 2), policyArb, (request, policy) => {
        const plan = planOf(request.bytes, policy);
        const input = { body: request.bytes, index: indexOf(request.bytes), candidates: plan, sha256 };

        const first = labelBlocks(input);
        const again = labelBlocks(input);

        expect(first.map((l) => l.ordinal)).toEqual(plan.map((b) => b.ordinal));
        expect(again).toEqual(first);
        for (const label of first) expect(label.label === 'drop' ? label.rule !== 'default' : label.rule === 'default').toBe(true);
      }),
    );
  });
});
