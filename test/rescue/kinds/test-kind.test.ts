/**
 * A kind added by its own folder and one registry line made through the test hook
 * (docs/adding-a-kind.md): the engine latches and applies it, and the properties hold through the
 * engine: the same transcript gives the same bytes, and a grown transcript keeps the prefix of what
 * was sent up to the first message where it differs.
 */
import fs from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrozenSpan } from '../../../src/core/shed/shed-types.js';
import type { TranscriptIndex } from '../../../src/core/transcript-index-types.js';
import { registerKind } from '../../../src/rescue/latch-kinds.js';
import { engineSettingsOf, type EngineSettings } from '../../../src/rescue/index.js';
import { checkSameBytesFromFreshEngine, messagesRequest, runThroughEngine } from '../../../properties/support/engine-run.js';
import { conversationArb } from '../../../properties/arbitraries/index.js';
import { commonPrefixLength } from '../../../properties/support/bytes.js';
import { indexOf } from '../../../properties/support/rewrite-support.js';
import { NARROW_SPANS_KIND, NARROW_SPANS_USE } from './narrow-spans/narrow-spans-kind.js';

const SETTINGS: EngineSettings = engineSettingsOf({ mode: 'shed', window: 1000, minGainFraction: 0 });
const _request = messagesRequest;

let unregister: () => void;
beforeAll(() => {
  unregister = registerKind(NARROW_SPANS_KIND);
});
afterAll(() => unregister());

const run = (requests: readonly { readonly bytes: Uint8Array }[]) => runThroughEngine(requests, SETTINGS, 'ctxshed-test-kind-');

/** The output offset where the output message standing for input message k-1 ends. */
function outputCut(out: TranscriptIndex, spans: readonly FrozenSpan[], k: number): number {
  const m = k - spans.reduce((n, s) => n + (s.last - s.first), 0);
  return m === 0 ? out.messagesSpan.start : out.messages[m - 1]!.end;
}

describe('a kind registered by the test hook', () => {
  it('should latch through the engine and give the same bytes for the same transcript, from a fresh engine too', async () => {
    let latched = 0;
    await fc.assert(
      fc.asyncProperty(conversationArb(8, 3), async (requests) => {
        latched += await checkSameBytesFromFreshEngine(requests, SETTINGS, 'ctxshed-test-kind-');
      }),
      { numRuns: 30 },
    );
    expect(NARROW_SPANS_USE.choices).toBeGreaterThan(0);
    expect(latched).toBeGreaterThan(0);
  });

  it('should keep what was sent up to the first message where a grown transcript differs, within an epoch', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(conversationArb(8, 3), async (requests) => {
        const { dir, sent } = await run(requests);
        for (let i = 1; i < sent.length; i++) {
          const [a, b] = [sent[i - 1]!, sent[i]!];
          const spans = b.conversation?.items.span ?? [];
          if (a.epochs !== b.epochs || a.outcome !== 'rewritten' || b.outcome !== 'rewritten' || spans.length === 0) continue;
          const inA = indexOf(requests[i - 1]!.bytes);
          const c = commonPrefixLength(requests[i - 1]!.bytes, requests[i]!.bytes);
          let k = 0;
          while (k < inA.messages.length && inA.messages[k]!.end <= c) k++;
          if (spans[spans.length - 1]!.last >= k) continue;
          const cut = outputCut(indexOf(a.body), spans, k);
          expect(commonPrefixLength(a.body, b.body)).toBeGreaterThanOrEqual(cut);
          compared += 1;
        }
        await fs.rm(dir, { recursive: true, force: true, maxRetries: 5 });
      }),
      { numRuns: 30 },
    );
    expect(compared).toBeGreaterThan(0);
  });
});
