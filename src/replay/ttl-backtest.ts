/**
 * The cache-TTL back-test's figures over judged pairs: agreement, the confusion table, the
 * 5-15 minute band, the first turns after a resume, and the misses the clock cannot foresee. Pure.
 */
import type { RecordedUsage } from './rebuild-conversations.js';
import { BAND_FROM_MS, BAND_TO_MS, cachedPrefixTokens, WARM_READ_SHARE } from './ttl-rules.js';
import type { PairedRequests, SkipReason, TtlPair } from './ttl-pairs.js';

/** Predicted (rows) against billed (columns). */
export interface Confusion {
  readonly predictedWarm: { readonly billedWarm: number; readonly billedCold: number };
  readonly predictedCold: { readonly billedWarm: number; readonly billedCold: number };
}

/** Pairs in the band, and how many of them the provider still billed warm. */
export interface BandCount {
  readonly pairs: number;
  readonly billedWarm: number;
}

/** Tokens of the first turns after a resume that came back cold. */
export interface CarriedTokens {
  readonly turns: number;
  /** Their whole prompts: input + cache read + cache write. */
  readonly contextTokens: number;
  readonly cacheWriteTokens: number;
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  /** Shares of `contextTokens` (0 when there are none). */
  readonly cacheWriteShare: number;
  readonly inputShare: number;
  readonly cacheReadShare: number;
}

/** One first turn after a resume. */
export interface ResumeTurn {
  readonly session: string;
  /** `newFile`: a transcript continuing another one; `afterGap`: a gap over the TTL, then a re-write. */
  readonly kind: 'newFile' | 'afterGap';
  readonly sentAt: string;
  readonly gapMinutes: number;
  readonly billedWarm: boolean;
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** A pair where the clock and the bill disagree, for looking into. */
export interface Disagreement {
  readonly session: string;
  readonly sentAt: string;
  readonly gapMinutes: number;
  readonly ttl: '5m' | '1h';
  readonly predictedWarm: boolean;
  readonly previousPrefixTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

/** The back-test's report. */
export interface TtlReport {
  readonly sessions: number;
  readonly conversations: number;
  readonly requests: number;
  readonly pairs: number;
  /** Pairs where the prediction matched the bill, as a fraction (0 when there are no pairs). */
  readonly agreement: number;
  readonly confusion: Confusion;
  readonly rule: { readonly warmReadShare: number; readonly ttl5mMinutes: number; readonly ttl1hMinutes: number };
  /** Pairs by the TTL of their entry. */
  readonly byTtl: { readonly ttl5m: number; readonly ttl1h: number };
  readonly band: { readonly fromMinutes: number; readonly toMinutes: number; readonly ttl5m: BandCount; readonly ttl1h: BandCount };
  /** Predicted warm, billed cold: the clock cannot see these (a changed system prompt, an eviction). */
  readonly unforeseeable: { readonly pairs: number; readonly cacheWriteTokens: number };
  readonly resumes: {
    readonly turns: number;
    readonly newFile: number;
    readonly afterGap: number;
    readonly billedWarm: number;
    readonly cold: CarriedTokens;
    readonly list: ResumeTurn[];
  };
  readonly skipped: Record<SkipReason, number>;
  readonly disagreements: Disagreement[];
}

/** Sums the judged pairs of every session given. */
export function backtestTtl(paired: PairedRequests, sessions: number): TtlReport {
  const { pairs } = paired;
  const cell = (p: boolean, b: boolean): number => pairs.filter((x) => x.predictedWarm === p && x.billedWarm === b).length;
  const confusion: Confusion = {
    predictedWarm: { billedWarm: cell(true, true), billedCold: cell(true, false) },
    predictedCold: { billedWarm: cell(false, true), billedCold: cell(false, false) },
  };
  const agreed = confusion.predictedWarm.billedWarm + confusion.predictedCold.billedCold;
  const inBand = (ttl: '5m' | '1h'): BandCount => {
    const band = pairs.filter((x) => x.ttl === ttl && x.gapMs > BAND_FROM_MS && x.gapMs <= BAND_TO_MS);
    return { pairs: band.length, billedWarm: band.filter((x) => x.billedWarm).length };
  };
  const misses = pairs.filter((x) => x.predictedWarm && !x.billedWarm);
  const resumes = pairs.filter(isResume);
  return {
    sessions,
    conversations: paired.conversations,
    requests: paired.requests,
    pairs: pairs.length,
    agreement: pairs.length > 0 ? round4(agreed / pairs.length) : 0,
    confusion,
    rule: { warmReadShare: WARM_READ_SHARE, ttl5mMinutes: 5, ttl1hMinutes: 60 },
    byTtl: { ttl5m: pairs.filter((x) => x.ttl === '5m').length, ttl1h: pairs.filter((x) => x.ttl === '1h').length },
    band: { fromMinutes: BAND_FROM_MS / 60_000, toMinutes: BAND_TO_MS / 60_000, ttl5m: inBand('5m'), ttl1h: inBand('1h') },
    unforeseeable: { pairs: misses.length, cacheWriteTokens: misses.reduce((a, x) => a + x.next.usage.cacheWrite, 0) },
    resumes: {
      turns: resumes.length,
      newFile: resumes.filter((x) => x.kind === 'resume').length,
      afterGap: resumes.filter((x) => x.kind !== 'resume').length,
      billedWarm: resumes.filter((x) => x.billedWarm).length,
      cold: carried(resumes.filter((x) => !x.billedWarm).map((x) => x.next.usage)),
      list: resumes.map(resumeTurn),
    },
    skipped: paired.skipped,
    disagreements: pairs.filter((x) => x.predictedWarm !== x.billedWarm).map(disagreement),
  };
}

/**
 * A first turn after a resume: the first new request of a file that continues another, or a
 * turn of a conversation that came back after a gap over the TTL and was billed cold.
 */
export function isResume(pair: TtlPair): boolean {
  return pair.kind === 'resume' || (pair.kind === 'turn' && !pair.predictedWarm && !pair.billedWarm);
}

function carried(usages: readonly RecordedUsage[]): CarriedTokens {
  const write = usages.reduce((a, u) => a + u.cacheWrite, 0);
  const input = usages.reduce((a, u) => a + u.input, 0);
  const read = usages.reduce((a, u) => a + u.cacheRead, 0);
  const all = write + input + read;
  const share = (n: number): number => (all > 0 ? round4(n / all) : 0);
  return {
    turns: usages.length,
    contextTokens: all,
    cacheWriteTokens: write,
    inputTokens: input,
    cacheReadTokens: read,
    cacheWriteShare: share(write),
    inputShare: share(input),
    cacheReadShare: share(read),
  };
}

function resumeTurn(pair: TtlPair): ResumeTurn {
  const u = pair.next.usage;
  return {
    session: pair.session,
    kind: pair.kind === 'resume' ? 'newFile' : 'afterGap',
    sentAt: new Date(pair.next.sentMs).toISOString(),
    gapMinutes: minutes(pair.gapMs),
    billedWarm: pair.billedWarm,
    inputTokens: u.input,
    cacheReadTokens: u.cacheRead,
    cacheWriteTokens: u.cacheWrite,
  };
}

function disagreement(pair: TtlPair): Disagreement {
  const u = pair.next.usage;
  return {
    session: pair.session,
    sentAt: new Date(pair.next.sentMs).toISOString(),
    gapMinutes: minutes(pair.gapMs),
    ttl: pair.ttl,
    predictedWarm: pair.predictedWarm,
    previousPrefixTokens: cachedPrefixTokens(pair.previous.usage),
    cacheReadTokens: u.cacheRead,
    cacheWriteTokens: u.cacheWrite,
  };
}

function minutes(ms: number): number {
  return Math.round(ms / 6_000) / 10;
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
