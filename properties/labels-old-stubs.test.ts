/**
 * Old epochs keep their bytes: a block frozen without a label (policy versions 1 and 2) gets
 * exactly the stub version 2 always wrote, here spelled out independently of the core, also
 * when a later labelled epoch's blocks are rewritten in the same request. And every stub of any
 * version is found and read back by inflate, which rebuilds the original byte for byte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyInflate, findStubs, restoredContent } from '../src/core/epochs/inflate.js';
import { freezeBlock } from '../src/core/plan-elision.js';
import { renderLabelStub, type LabelledBlock } from '../src/core/label-stub.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import type { FrozenBlock } from '../src/core/epoch-types.js';
import { concatBytes, sameBytes, utf8 } from './support/bytes.js';
import { labelledEpoch, mustIndex, sessionBody, sessionSpecArb } from './support/labels-support.js';
import { elidedDirArb, filesOf, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

/** The version 2 stub, as its bytes have been since it shipped (docs/core.md "The stub"). */
function v2Stub(block: FrozenBlock, dir: string): string {
  const raw = block.rawSha256 === undefined ? '' : `; exact original JSON in ${dir}/${block.rawSha256}.json`;
  return `[ctxshed: tool result moved out of the context to save space; ${block.bytes} bytes, sha256 ${block.sha256}; the full text is in ${dir}/${block.sha256}.txt, read that file to see it${raw}]`;
}

describe('stubs across policy versions', () => {
  it('should rewrite unlabelled blocks with the version 2 stub, byte for byte, beside labelled ones', () => {
    fc.assert(
      fc.property(sessionSpecArb, policyArb, elidedDirArb, fc.array(fc.boolean(), { maxLength: 12 }), (spec, policy, elidedDir, old) => {
        const body = sessionBody(spec);
        const index = mustIndex(body);
        const { plan, blocks } = labelledEpoch(body, policy);
        // Some blocks as an old epoch froze them (no label), the rest as a version 3 epoch did.
        const mixed = blocks.map((b, i) => (old[i] === true ? freezeBlock(plan.find((p) => p.ordinal === b.ordinal)!) : b));
        fc.pre(mixed.length > 0);

        const outcome = rewriteRequest(body, mixed, { elidedDir, sha256 });

        const parts: Uint8Array[] = [];
        let from = 0;
        for (const block of [...mixed].sort((a, b) => a.ordinal - b.ordinal)) {
          const content = index.toolResults[block.ordinal]!.content;
          const stub = block.label === undefined ? v2Stub(block, elidedDir) : renderLabelStub(block as LabelledBlock, elidedDir);
          parts.push(body.subarray(from, content.start), utf8(JSON.stringify(stub)));
          from = content.end;
        }
        parts.push(body.subarray(from));
        expect(outcome.kind).toBe('applied');
        expect(sameBytes(outcome.body, concatBytes(parts))).toBe(true);
      }),
    );
  });

  it('should let inflate find every stub of any version and rebuild the original', () => {
    fc.assert(
      fc.property(sessionSpecArb, policyArb, elidedDirArb, fc.array(fc.boolean(), { maxLength: 12 }), (spec, policy, elidedDir, old) => {
        const body = sessionBody(spec);
        const { plan, blocks } = labelledEpoch(body, policy);
        const frozenPlan = plan.filter((p) => blocks.some((b) => b.ordinal === p.ordinal));
        const mixed = blocks.map((b, i) => (old[i] === true ? freezeBlock(frozenPlan.find((p) => p.ordinal === b.ordinal)!) : b));
        const files = filesOf(frozenPlan);

        const outcome = rewriteRequest(body, mixed, { elidedDir, sha256 });
        const found = findStubs(outcome.body, mustIndex(outcome.body));
        const inflated = applyInflate(
          outcome.body,
          found.map((f) => ({
            found: f,
            content: restoredContent(
              f.stub,
              files.get(`${f.stub.sha256}.txt`)!,
              f.stub.rawSha256 === undefined ? undefined : files.get(`${f.stub.rawSha256}.json`),
            ),
          })),
        );

        expect(found).toHaveLength(mixed.length);
        expect(sameBytes(inflated, body)).toBe(true);
      }),
    );
  });
});
