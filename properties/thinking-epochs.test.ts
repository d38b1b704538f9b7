/**
 * Preserved thinking (docs/rescue.md): on a model that runs the prefix check, an epoch also
 * removes the thinking blocks after its first change. Over generated conversations (thinking with
 * signatures, redacted thinking, non-canonical whitespace), in both modes: the same transcript
 * gives the same bytes (determinism), a later request keeps the earlier one's output up to the
 * messages they share (shared prefix), and the original comes back byte for byte from the output,
 * the elided or span files and the thinking files (lossless).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyInflate, findStubs, restoredContent } from '../src/core/epochs/inflate.js';
import { findSpanStubs } from '../src/core/epochs/spans/find-span-stubs.js';
import { firstChangeOfEpoch } from '../src/core/epochs/first-change.js';
import { freezeThinking, planThinking } from '../src/core/thinking/plan-thinking.js';
import { reinsertThinking } from '../src/core/thinking/reinsert-thinking.js';
import { rewriteRequest } from '../src/core/epochs/tool-results/tool-results.js';
import { applyEpochs } from '../src/core/epochs/apply.js';
import { SPANS } from '../src/core/epochs/spans/spans.js';
import type { Epoch, FrozenBlock } from '../src/core/epoch-types.js';
import type { FrozenThinking, PlannedThinking } from '../src/core/thinking/thinking-types.js';
import { conversationArb, type ClientRequest } from './arbitraries/index.js';
import { sameBytes } from './support/bytes.js';
import { elidedDirArb, filesOf, frozenOf, indexOf, planOf, policyArb } from './support/rewrite-support.js';
import { frozenSpans, latchPointsArb, latchSpans, shedPolicyArb, spansDirArb } from './support/shed-support.js';
import { sha256 } from './support/sha256.js';

const EPOCH_BASE = {
  n: 1,
  latchedAt: '',
  reason: { fullness: 1, threshold: 1, window: 1, contextTokens: 1 },
  policy: { name: 'p', version: 2, keepRecent: 0, minBytes: 0 },
};

/** The thinking an epoch freezing `epoch` on `body` removes, after the ones frozen already. */
function thinkingOf(body: Uint8Array, epoch: Pick<Epoch, 'kind' | 'items'>, already: readonly FrozenThinking[]): PlannedThinking[] {
  const index = indexOf(body);
  // The property builds an epoch of either kind from its blocks or span alone.
  const from = firstChangeOfEpoch({ ...EPOCH_BASE, ...epoch }, index);
  if (from === undefined) return [];
  const plan = planThinking(body, index, from, already, sha256);
  return plan.kind === 'planned' ? [...plan.thinking] : [];
}

/** The output's messages that the two inputs share whole, at the same offsets. */
function sharedMessages(a: Uint8Array, b: Uint8Array): number {
  const ia = indexOf(a);
  const ib = indexOf(b);
  let k = 0;
  while (
    k < ia.messages.length &&
    k < ib.messages.length &&
    ia.messages[k]!.end === ib.messages[k]!.end &&
    sameBytes(a.subarray(0, ia.messages[k]!.end), b.subarray(0, ib.messages[k]!.end))
  )
    k++;
  return k;
}

/** The removed blocks of an output put back: those frozen and not left in. */
function putBack(out: Uint8Array, thinking: readonly PlannedThinking[], skipped: readonly { readonly ordinal: number }[]): Uint8Array {
  const left = new Set(skipped.map((s) => s.ordinal));
  const removed = thinking.filter((t) => !left.has(t.ordinal)).map((t) => ({ frozen: freezeThinking(t), bytes: t.bytes }));
  const back = reinsertThinking(out, indexOf(out), removed);
  expect(back).toBeDefined();
  return back!;
}

function rescueRewrite(body: Uint8Array, frozen: readonly FrozenBlock[], thinking: readonly FrozenThinking[], elidedDir: string) {
  return rewriteRequest(body, frozen, { elidedDir, sha256, thinking });
}

describe('preserved thinking, rescue mode', () => {
  it('should be deterministic, keep the shared prefix and inflate byte for byte', () => {
    fc.assert(
      fc.property(conversationArb(8, 3), fc.nat(), fc.nat(), policyArb, elidedDirArb, (requests: ClientRequest[], x, y, policy, elidedDir) => {
        const p = x % requests.length;
        const planned = planOf(requests[p]!.bytes, policy);
        const frozen = planned.map(frozenOf);
        const thinking = thinkingOf(requests[p]!.bytes, { kind: 'tool_results', items: { tool_results: frozen } }, []);
        const frozenThinking = thinking.map(freezeThinking);
        const files = filesOf(planned);
        let previous: { input: Uint8Array; output: Uint8Array } | undefined;
        for (const request of requests.slice(p, p + 1 + (y % 3))) {
          const out = rescueRewrite(request.bytes, frozen, frozenThinking, elidedDir);
          // Determinism: fresh copies of the records give the same bytes.
          const again = rescueRewrite(request.bytes.slice(), structuredClone(frozen), structuredClone(frozenThinking), elidedDir);
          expect(sameBytes(again.body, out.body)).toBe(true);
          if (out.kind !== 'applied') continue;
          // Lossless: the stubs' files, then the thinking files.
          const found = findStubs(out.body, indexOf(out.body));
          const unstubbed = applyInflate(
            out.body,
            found.map((f) => ({
              found: f,
              content: restoredContent(
                f.stub,
                files.get(`${f.stub.sha256}.txt`)!,
                f.stub.rawSha256 === undefined ? undefined : files.get(`${f.stub.rawSha256}.json`),
              ),
            })),
          );
          expect(sameBytes(putBack(unstubbed, thinking, out.thinkingSkipped), request.bytes)).toBe(true);
          // Shared prefix: the messages both inputs share whole come out the same.
          if (previous !== undefined) {
            const k = sharedMessages(previous.input, request.bytes);
            if (k > 0) {
              const end = indexOf(previous.output).messages[k - 1]!.end;
              expect(sameBytes(out.body.subarray(0, end), previous.output.subarray(0, end))).toBe(true);
            }
          }
          previous = { input: request.bytes, output: out.body };
        }
      }),
    );
  });
});

describe('preserved thinking, shed mode', () => {
  it('should be deterministic, keep the shared prefix and inflate byte for byte', () => {
    fc.assert(
      fc.property(conversationArb(8, 3), latchPointsArb, fc.nat(), shedPolicyArb, spansDirArb, (requests: ClientRequest[], points, x, policy, spansDir) => {
        const { planned, at } = latchSpans(requests, points, policy);
        const spans = frozenSpans(planned);
        // Each epoch's thinking, planned on its own latch request after the earlier epochs'.
        const thinking: PlannedThinking[] = [];
        for (const [i, span] of spans.entries())
          thinking.push(...thinkingOf(requests[at[i]!]!.bytes, { kind: 'span', items: { span: [span] } }, thinking.map(freezeThinking)));
        thinking.sort((a, b) => a.ordinal - b.ordinal);
        const frozenThinking = thinking.map(freezeThinking);
        const files = new Map(planned.map((s) => [s.sha256, s.text]));
        const first = Math.max(x % requests.length, at[at.length - 1] ?? 0);
        let previous: { input: Uint8Array; output: Uint8Array } | undefined;
        for (const request of requests.slice(first)) {
          const out = applyEpochs(SPANS, request.bytes, spans, { spansDir, sha256, thinking: frozenThinking });
          const again = applyEpochs(SPANS, request.bytes.slice(), structuredClone(spans), { spansDir, sha256, thinking: structuredClone(frozenThinking) });
          expect(sameBytes(again.body, out.body)).toBe(true);
          if (out.kind !== 'applied') continue;
          const found = findSpanStubs(out.body, indexOf(out.body));
          const unshed = applyInflate(
            out.body,
            found.map((f) => ({ found: f, content: files.get(f.stub.sha256)! })),
          );
          // Blocks inside an applied span came back with it; the rest are put back from their files.
          const inSpan = new Set(out.thinkingSkipped.map((s) => s.ordinal));
          expect(
            sameBytes(
              putBack(
                unshed,
                thinking,
                [...inSpan].map((ordinal) => ({ ordinal })),
              ),
              request.bytes,
            ),
          ).toBe(true);
          if (previous !== undefined) {
            const k = sharedMessages(previous.input, request.bytes);
            // Whole messages shared by both inputs: their output (after the spans' stubs) is the same.
            const lastSpanEnd = spans[spans.length - 1]!.last;
            if (k > lastSpanEnd + 1) {
              const outIndex = indexOf(previous.output);
              const kept = k - planned.reduce((n, s) => n + (s.last - s.first), 0);
              const end = outIndex.messages[kept - 1]!.end;
              expect(sameBytes(out.body.subarray(0, end), previous.output.subarray(0, end))).toBe(true);
            }
          }
          previous = { input: request.bytes, output: out.body };
        }
      }),
    );
  });
});
