/** The epochs of a conversation known only from its wire log (conversation-summary.ts), estimated from what its requests stubbed. */
import { kindOfConversation, modeOfConversation } from '../core/index.js';
import type { EpochSummary } from './epoch-summary.js';
import type { ConversationTally } from './wire-tally.js';

/**
 * Without a record (deleted, or a wire log read on its own), an epoch's shed is what the
 * requests carrying it stubbed beyond the requests before it: the elided set only grows.
 */
export function epochsFromWire(tally: ConversationTally | null, tokensPerByte: number): EpochSummary[] {
  if (tally === null) return [];
  const count = Math.max(tally.maxBytesElidedByEpochs.length - 1, ...tally.latches.map((l) => l.n), 0);
  const epochs: EpochSummary[] = [];
  let bytesBefore = tally.maxBytesElidedByEpochs[0] ?? 0;
  let blocksBefore = tally.maxRescuedByEpochs[0] ?? 0;
  for (let n = 1; n <= count; n++) {
    const bytesNow = Math.max(bytesBefore, tally.maxBytesElidedByEpochs[n] ?? 0);
    const blocksNow = Math.max(blocksBefore, tally.maxRescuedByEpochs[n] ?? 0);
    const bytes = bytesNow - bytesBefore;
    epochs.push({
      n,
      // Without a record an epoch's kind is unknown: it reads as a conversation with no epoch of its
      // own kind does (tool-result stubs), a shed epoch too.
      mode: modeOfConversation([]),
      kind: kindOfConversation([]).tag,
      latchedAt: tally.latches.find((l) => l.n === n)?.t ?? null,
      trigger: null,
      fullness: null,
      threshold: null,
      window: null,
      contextTokens: null,
      limit: null,
      fired: null,
      policy: null,
      blocks: blocksNow - blocksBefore,
      thinking: 0,
      bytes,
      tokens: Math.round(bytes * tokensPerByte),
      ...wireRefaults(tally.refaultsByEpoch.get(n), blocksNow - blocksBefore),
      source: 'wire',
      labels: null,
      span: null,
    });
    bytesBefore = bytesNow;
    blocksBefore = blocksNow;
  }
  return epochs;
}

// Without a record the blocks are unknown: at most as many refaulted as the epoch stubbed.
function wireRefaults(byOrdinal: ReadonlyMap<number, number> | undefined, blocks: number): { refaults: number; blocksRefaulted: number } {
  if (byOrdinal === undefined) return { refaults: 0, blocksRefaulted: 0 };
  return { refaults: [...byOrdinal.values()].reduce((total, n) => total + n, 0), blocksRefaulted: Math.min(byOrdinal.size, blocks) };
}
