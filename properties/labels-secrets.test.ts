/**
 * Secrets stay where they were: a secret planted in a tool result (or in a call's input) never
 * appears in any stub, and never in any byte of the rewritten body outside the places it
 * already held in the original. An eligible block holding a certain secret is stubbed, labelled
 * `drop` by the `secret` rule, with a local score.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderStub } from '../src/core/stub.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import { utf8 } from './support/bytes.js';
import { CERTAIN_FORMS, countOccurrences, labelledEpoch, mustIndex, secretOf, sessionBody, sessionSpecArb } from './support/labels-support.js';
import { elidedDirArb, policyArb } from './support/rewrite-support.js';
import { sha256 } from './support/sha256.js';

describe('labels and secrets', () => {
  it('should never quote a planted secret in any stub', () => {
    fc.assert(
      fc.property(sessionSpecArb, policyArb, elidedDirArb, fc.boolean(), (spec, policy, elidedDir, restoreTool) => {
        const body = sessionBody(spec);
        const { blocks } = labelledEpoch(body, policy, restoreTool);

        for (const block of blocks) expect(renderStub(block, elidedDir)).not.toContain(secretOf(spec));
      }),
    );
  });

  it('should label every eligible block holding a certain secret drop, by the secret rule, scored local', () => {
    fc.assert(
      fc.property(sessionSpecArb, policyArb, (spec, policy) => {
        const body = sessionBody(spec);
        const { plan, labels } = labelledEpoch(body, policy);
        const secret = utf8(secretOf(spec));

        plan.forEach((block, i) => {
          if (!CERTAIN_FORMS.includes(spec.form) || countOccurrences(block.text, secret) === 0) return;
          expect(labels[i]).toMatchObject({ label: 'drop', rule: 'secret', score: 'local' });
        });
      }),
    );
  });

  it('should leave a planted secret in the rewritten body only where the original already held it, outside stubbed blocks', () => {
    fc.assert(
      fc.property(sessionSpecArb, policyArb, elidedDirArb, (spec, policy, elidedDir) => {
        const body = sessionBody(spec);
        const index = mustIndex(body);
        const { blocks } = labelledEpoch(body, policy);
        const secret = utf8(secretOf(spec));

        const outcome = rewriteRequest(body, blocks, { elidedDir, sha256 });

        // The output is the input with the stubbed content values replaced by stubs that quote
        // nothing: so the secret's count is the input's, less what the stubbed values held.
        let inStubbed = 0;
        if (outcome.kind === 'applied') {
          for (const block of blocks) {
            const content = index.toolResults[block.ordinal]!.content;
            inStubbed += countOccurrences(body.subarray(content.start, content.end), secret);
          }
        }
        expect(countOccurrences(outcome.body, secret)).toBe(countOccurrences(body, secret) - inStubbed);
        // And the stubbed blocks that held it are gone from the output entirely.
        if (outcome.kind === 'applied') expect(outcome.stubs).toBe(blocks.length);
      }),
    );
  });
});
