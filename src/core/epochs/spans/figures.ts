/** The span kind's figures in the reports (src/report/epoch-summary.ts): its epoch's span, priced per later turn (docs/shed.md). */
import type { Epoch } from '../../epoch-types.js';
import type { FrozenSpan } from '../../shed/shed-types.js';
import { priceShed, type ShedPrice } from '../../shed/price-shed.js';

/**
 * What a shed epoch shed (docs/shed.md): one span of whole messages. Its figures are the epoch's
 * own and are never added to rescue's blocks, nor summed over epochs into a session total.
 */
export interface SpanSummary {
  readonly first: number;
  readonly last: number;
  readonly messages: number;
  /** The span's exact bytes (`spans/<sha256>.json`). */
  readonly bytes: number;
  /** `bytes` in estimated tokens, at the conversation's tokens per byte. */
  readonly tokens: number;
  /** The handle: the sha256 of those bytes. */
  readonly sha256: string;
  readonly pins: number;
  readonly tombstone: boolean;
  /**
   * How often the span was read back by its handle (restore, or a Read of its file): a refault of
   * the span. Twice or more means the policy cut too close (docs/shed.md).
   */
  readonly restores: number;
  /**
   * What each later turn no longer pays for, priced as the provider would have billed it, with
   * its basis (`priceShed`); null when the wire log has no cache reading from before the latch.
   */
  readonly perTurn: ShedPrice | null;
}

/** What the span's figures need of the reports' `FiguresAt` (epoch-figures.ts, which imports this file's types). */
interface SpanFiguresAt {
  readonly epoch: Epoch;
  readonly tokensPerByte: number;
  readonly restores: number;
  readonly cacheReadBefore: number | null;
}

/**
 * A shed epoch's span, priced per later turn: what it stops sending (the gate's dropped tokens,
 * the span less its stub), warm up to the cache read of the call it latched after (seed 000).
 */
export function spanFigures(spans: readonly FrozenSpan[], at: SpanFiguresAt): { readonly bytesTaken?: number; readonly span?: SpanSummary } {
  const span = spans[0];
  if (span === undefined) return {};
  const tokens = Math.round(span.bytes * at.tokensPerByte);
  const { cacheReadBefore } = at;
  return {
    bytesTaken: span.bytes,
    span: {
      first: span.first,
      last: span.last,
      messages: span.last - span.first + 1,
      bytes: span.bytes,
      tokens,
      sha256: span.sha256,
      pins: span.pins.length,
      tombstone: span.tombstone !== undefined,
      restores: at.restores,
      perTurn: cacheReadBefore === null ? null : pricedPerTurn(at.epoch.gate?.droppedCachedTokens ?? tokens, cacheReadBefore),
    },
  };
}

// Rounded to a tenth of a token: 0.1 x 7,744 is 774.4, not 774.4000000000001.
function pricedPerTurn(shedTokens: number, cacheReadTokens: number): ShedPrice {
  const price = priceShed({ shedTokens, cacheReadTokens });
  return { ...price, inputTokenEquivalent: Math.round(price.inputTokenEquivalent * 10) / 10 };
}
