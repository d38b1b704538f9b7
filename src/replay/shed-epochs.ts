/**
 * Shed mode's epochs in a replay, one figure each (issue 12, point 7; seed 000's retraction): what
 * the epoch stops sending on every later turn, priced at what the provider would have billed for
 * it (the warm part at the cache-read marginal, the cold part at full input, the basis stamped),
 * and the cache re-write it cost at its request. Never summed over a session, never set against
 * the provider's cache reads. Pure.
 */
import { spanOf, priceShed, type Epoch, type GateDecision, type ShedBasis } from '../core/index.js';
import { CACHE_READ_MULTIPLIER, CACHE_WRITE_1H_MULTIPLIER, CACHE_WRITE_5M_MULTIPLIER, priceOf } from '../core/price-table.js';

/** One shed epoch of a replayed session. */
export interface ShedEpochFigure {
  /** The conversation's id (`<file>#<n>`). */
  readonly conversation: string;
  /** The epoch's number in its conversation. */
  readonly epoch: number;
  /** The request that latched it: its place in its conversation (0-based). */
  readonly request: number;
  /** Its place in the main-thread fullness series, when it is a main-thread request. */
  readonly mainIndex?: number;
  /** The reading it latched on, as a fraction of the window. */
  readonly fullness: number;
  /** The span: message ordinals (inclusive), messages, exact bytes and handle. */
  readonly span: { readonly first: number; readonly last: number; readonly messages: number; readonly bytes: number; readonly sha256: string };
  /** The burst gate's figures and decision, as the epoch recorded them. */
  readonly gate?: GateDecision;
  /** Requests the recorded conversation made after this one: the turns the burst had to pay back in. */
  readonly turnsAfter: number;
  /** Per later turn: tokens no longer sent (the span less its stub), warm and cold, priced, basis stamped. */
  readonly perLaterTurn: {
    readonly shedTokens: number;
    readonly warmTokens: number;
    readonly coldTokens: number;
    /** warm × 0.1 + cold: the full-price input tokens a later turn no longer pays for. */
    readonly inputTokenEquivalent: number;
    readonly usd: number;
    readonly basis: ShedBasis;
  };
  /**
   * The cache re-write at the latching request: what the model wrote there under shed beyond what
   * it wrote for the request as recorded (everything after the head is written again), priced at
   * the cache-write rate of the request's TTL.
   */
  readonly rewrite: { readonly cacheWriteTokens: number; readonly usd: number; readonly basis: 'cache_write' };
  /**
   * The gate's question answered with the replay's own figures: the turns (the latch's own
   * request first) whose saving covers the re-write's premium over reading those tokens, `null`
   * when nothing is saved; and whether the recorded conversation ran that long.
   */
  readonly payback: { readonly turnsNeeded: number | null; readonly paidBack: boolean };
}

/** What one latch looked like in the replay. */
export interface ShedLatchObservation {
  readonly conversation: string;
  readonly request: number;
  readonly mainIndex?: number;
  readonly epoch: Epoch;
  readonly model: string;
  readonly ttl: '5m' | '1h';
  readonly tokensPerByte: number;
  /** Body bytes the shed request was smaller by than the original, at the latch and at the request before it. */
  readonly bytesSavedNow: number;
  readonly bytesSavedBefore: number;
  /**
   * Tokens the provider was serving from its cache when the epoch latched: the recorded cache read
   * of the latching request, less the tokens earlier epochs already took out of it.
   */
  readonly warmTokens: number;
  /** Cache-write tokens the model charged at this request under shed, and as recorded. */
  readonly shedCacheWrite: number;
  readonly recordedCacheWrite: number;
  readonly turnsAfter: number;
}

/** The figure of one shed epoch. */
export function shedEpochFigure(o: ShedLatchObservation): ShedEpochFigure {
  const span = spanOf(o.epoch);
  const price = priceOf(o.model, o.warmTokens);
  const input = price?.input ?? 0;
  // The gate's turns are counted in input tokens: the model's own multipliers, the usual ones when it is unknown.
  const known = price !== undefined && input > 0;
  const readMult = known ? price.cacheRead / input : CACHE_READ_MULTIPLIER;
  const shed = priceShed({
    shedTokens: Math.round(Math.max(0, o.bytesSavedNow - o.bytesSavedBefore) * o.tokensPerByte),
    cacheReadTokens: Math.round(Math.max(0, o.warmTokens)),
    readMult,
    inputUsdPerMTok: input,
  });
  const rewriteTokens = Math.round(Math.max(0, o.shedCacheWrite - o.recordedCacheWrite));
  const defaultWrite = o.ttl === '1h' ? CACHE_WRITE_1H_MULTIPLIER : CACHE_WRITE_5M_MULTIPLIER;
  const writeMult = known ? (o.ttl === '1h' ? price.cacheWrite1h : price.cacheWrite5m) / input : defaultWrite;
  // Without the epoch those tokens would have been read: the premium is the write less that read.
  const premium = (writeMult - readMult) * rewriteTokens;
  const turnsNeeded = premium === 0 ? 0 : shed.inputTokenEquivalent > 0 ? Math.ceil(premium / shed.inputTokenEquivalent) : null;
  return {
    conversation: o.conversation,
    epoch: o.epoch.n,
    request: o.request,
    ...(o.mainIndex === undefined ? {} : { mainIndex: o.mainIndex }),
    fullness: round4(o.epoch.reason.fullness),
    span:
      span === undefined
        ? { first: 0, last: -1, messages: 0, bytes: 0, sha256: '' }
        : { first: span.first, last: span.last, messages: span.last - span.first + 1, bytes: span.bytes, sha256: span.sha256 },
    ...(o.epoch.gate === undefined ? {} : { gate: o.epoch.gate }),
    turnsAfter: o.turnsAfter,
    perLaterTurn: {
      shedTokens: shed.shedTokens,
      warmTokens: shed.warmTokens,
      coldTokens: shed.coldTokens,
      inputTokenEquivalent: Math.round(shed.inputTokenEquivalent),
      usd: round6(shed.usdPerTurn ?? 0),
      basis: shed.basis,
    },
    rewrite: { cacheWriteTokens: rewriteTokens, usd: round6((rewriteTokens * writeMult * input) / 1e6), basis: 'cache_write' },
    payback: { turnsNeeded, paidBack: turnsNeeded !== null && turnsNeeded <= o.turnsAfter + 1 },
  };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
