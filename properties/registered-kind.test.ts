/**
 * The properties through the engine for a kind with a new tag, registered by one call
 * (test/rescue/kinds/assistant-text/, docs/adding-a-kind.md): the same transcript gives the same
 * bytes, from a fresh engine on the same state too; and within an epoch a grown transcript keeps
 * what was sent up to the first message where it differs.
 */
import fs from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexTranscript } from '../src/core/messages/transcript-index.js';
import { registerKind } from '../src/rescue/latch-kinds.js';
import { engineSettingsOf, type EngineSettings } from '../src/rescue/index.js';
import { ASSISTANT_TEXT_KIND } from '../test/rescue/kinds/assistant-text/kind-record.js';
import { candidatesOf } from '../test/rescue/kinds/assistant-text/frozen-text.js';
import { checkSameBytesFromFreshEngine, messagesRequest, runThroughEngine } from './support/engine-run.js';
import { conversationArb } from './arbitraries/index.js';
import { commonPrefixLength } from './support/bytes.js';
import { indexOf } from './support/rewrite-support.js';

/** The kind's own `--mode` word selects it; the word is known once the kind is registered (`beforeAll`). */
let SETTINGS: EngineSettings;
const _request = messagesRequest;

/**
 * Conversations with something for the kind to take in some request: about one generated
 * conversation in eleven has an old assistant text block, and 30 runs of the unfiltered arbitrary
 * latched none in one CI run.
 */
const takeableArb = conversationArb(8, 3).filter((requests) =>
  requests.some((r) => {
    const indexed = indexTranscript(r.bytes);
    return indexed.kind === 'indexed' && candidatesOf(r.bytes, indexed.index, []).length > 0;
  }),
);

let unregister: () => void;
beforeAll(() => {
  unregister = registerKind(ASSISTANT_TEXT_KIND);
  SETTINGS = engineSettingsOf({ mode: 'assistant-text', window: 1000, minGainFraction: 0 });
});
afterAll(() => unregister());

const run = (requests: readonly { readonly bytes: Uint8Array }[]) => runThroughEngine(requests, SETTINGS, 'ctxshed-registered-kind-');

describe('a kind with a new tag, through the engine', () => {
  it('should give the same bytes for the same transcript, from a fresh engine on the same state too', async () => {
    let latched = 0;
    await fc.assert(
      fc.asyncProperty(takeableArb, async (requests) => {
        latched += await checkSameBytesFromFreshEngine(requests, SETTINGS, 'ctxshed-registered-kind-');
      }),
      { numRuns: 30 },
    );
    expect(latched).toBeGreaterThan(0);
  });

  it('should keep what was sent up to the first message where a grown transcript differs, within an epoch', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(takeableArb, async (requests) => {
        const { dir, sent } = await run(requests);
        for (let i = 1; i < sent.length; i++) {
          const [a, b] = [sent[i - 1]!, sent[i]!];
          if (a.epochs !== b.epochs || a.outcome !== 'rewritten' || b.outcome !== 'rewritten') continue;
          const inA = indexOf(requests[i - 1]!.bytes);
          const c = commonPrefixLength(requests[i - 1]!.bytes, requests[i]!.bytes);
          let k = 0;
          while (k < inA.messages.length && inA.messages[k]!.end <= c) k++;
          // The kind stubs blocks in place: message k-1 of the output stands for message k-1 of the input.
          const out = indexOf(a.body);
          const cut = k === 0 ? out.messagesSpan.start : out.messages[k - 1]!.end;
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
