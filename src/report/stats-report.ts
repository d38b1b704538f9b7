/**
 * `ctxshed stats`: request and shed totals per conversation and overall. Pure.
 *
 * Requests are counted from the wire log. Sheds are counted once per epoch (see
 * conversation-summary.ts); per-request figures are means over the rewritten requests, never sums.
 */
import { type EpochKindInfo, epochKindInfo, type EpochMode, kindOfMode, type Label } from '../core/index.js';
import { refaultRateOf, type ConversationSummary, type EpochSummary } from './conversation-summary.js';
import { shortId } from './resolve-id.js';
import { addRequestCounts, newRequestCounts, type RequestCounts, type WireTally } from './wire-tally.js';

/** Totals over some requests and the epochs of their conversations. */
export interface StatsTotals {
  readonly requests: number;
  readonly rewritten: number;
  readonly passedThrough: number;
  /** Requests sent unchanged, by pass-through reason (docs/reasons.md). */
  readonly passthrough: Readonly<Record<string, number>>;
  readonly skippedBlocks: Readonly<Record<string, number>>;
  /** Rewrites by how they ran: `incremental` (from the conversation's last rewrite) or `full`. */
  readonly rewritePaths: Readonly<Record<string, number>>;
  /** Refusals as too long, by what followed (wire-tally.ts, `overflow`). */
  readonly overflow: Readonly<Record<string, number>>;
  /** Requests over the threshold that latched no epoch, by hold reason (docs/reasons.md). */
  readonly holds: Readonly<Record<string, number>>;
  /** Requests by Claude Code's request class (`x-claude-code-request-class`), when the client named one. */
  readonly classes: Readonly<Record<string, number>>;
  /** Frozen thinking blocks requests went without, summed, and in how many requests (docs/rescue.md, "Preserved thinking"). */
  readonly thinkingRemoved: number;
  readonly thinkingRequests: number;
  /** Thinking blocks the API dropped instead of refusing the request (its `input_transformations`), in how many requests, by reason. */
  readonly thinkingDropped: number;
  readonly thinkingDroppedRequests: number;
  readonly thinkingDroppedBy: Readonly<Record<string, number>>;
  readonly errors: number;
  readonly epochs: number;
  /** Each rescue epoch's shed counted once (shed epochs add no blocks). */
  readonly blocksElided: number;
  readonly bytesElided: number;
  readonly tokensElided: number;
  /**
   * Means over the rewritten requests: what each one carried as stubs, and how much smaller it
   * went. Overall, over the rescue conversations' requests only; a shed conversation's own are
   * the span bytes its stubs stood for.
   */
  readonly perRequest: { readonly meanBytesElided: number; readonly meanTokensElided: number; readonly meanBytesSaved: number };
  /** Means over the rescue epochs. */
  readonly perEpoch: { readonly meanBytesElided: number; readonly meanTokensElided: number };
  /**
   * Shed epochs (docs/shed.md): how many, their spans and the whole messages in them. Counts
   * only: each epoch's bytes, tokens and per-turn price are in `epochs`, never summed here.
   */
  readonly shed: { readonly epochs: number; readonly spans: number; readonly messages: number };
  /** Correction epochs (trigger `prefix_check`, either mode): they only remove thinking blocks. */
  readonly corrections: number;
  /** Ledger rows by verdict over the epochs that keep a ledger (docs/labels.md). */
  readonly labels: Readonly<Record<Label, number>>;
  /** Reads of elided blocks by later tool calls, the blocks read back, and their share of the blocks elided. */
  readonly refaults: number;
  readonly blocksRefaulted: number;
  readonly refaultRate: number | null;
}

/** One conversation's line of the stats. */
export interface ConversationStats {
  readonly key: string;
  readonly shortKey: string;
  readonly agentId: string | null;
  readonly firstPrompt: string | null;
  readonly lastSeen: string | null;
  /** `shed` when its epochs shed spans of whole messages (docs/shed.md). */
  readonly mode: EpochMode;
  readonly tokensPerByte: number;
  readonly totals: StatsTotals;
  readonly epochs: readonly EpochSummary[];
}

/** The whole report. */
export interface StatsReport {
  readonly wire: {
    readonly lines: number;
    readonly records: number;
    readonly notes: number;
    readonly tornMarkers: number;
    readonly unreadable: number;
    readonly firstAt: string | null;
    readonly lastAt: string | null;
  };
  readonly overall: StatsTotals;
  readonly conversations: readonly ConversationStats[];
  /** Requests that belong to no conversation (not model calls, or bodies ctxshed could not read). */
  readonly unkeyed: { readonly requests: number; readonly passthrough: Readonly<Record<string, number>>; readonly errors: number };
  /** Side calls (`count_tokens`): keyed, but no conversation of their own; counted apart (wire-tally.ts). */
  readonly sideCalls: { readonly requests: number; readonly errors: number };
}

/** The stats of a folded wire log and the conversations summarized from it. */
export function buildStatsReport(tally: WireTally, summaries: readonly ConversationSummary[]): StatsReport {
  const conversations = summaries.map((s) => conversationStats(s));
  const counts = newRequestCounts();
  addRequestCounts(counts, tally.unkeyed);
  addRequestCounts(counts, tally.sideCalls);
  // Per-request means overall are rescue's: a shed request's stubs stand for spans, not blocks.
  const rescueRequests = newRequestCounts();
  let requestTokens = 0;
  for (const s of summaries) {
    if (s.tally === null) continue;
    addRequestCounts(counts, s.tally);
    if (kindOfMode(s.mode).counts !== 'blocks') continue;
    addRequestCounts(rescueRequests, s.tally);
    requestTokens += s.tally.rewrittenBytesElided * s.tokensPerByte;
  }
  const { lines, records, notes, tornMarkers, unreadable, firstAt, lastAt } = tally;
  return {
    wire: { lines, records, notes, tornMarkers, unreadable, firstAt, lastAt },
    overall: totalsOf(
      counts,
      summaries.flatMap((s) => s.epochs),
      perRequestOf(rescueRequests, requestTokens),
    ),
    conversations,
    unkeyed: { requests: tally.unkeyed.requests, passthrough: tally.unkeyed.passthrough, errors: tally.unkeyed.errors },
    sideCalls: { requests: tally.sideCalls.requests, errors: tally.sideCalls.errors },
  };
}

function conversationStats(s: ConversationSummary): ConversationStats {
  const counts = s.tally ?? newRequestCounts();
  return {
    key: s.key,
    shortKey: shortId(s.key),
    agentId: s.agentId,
    firstPrompt: s.firstPrompt,
    lastSeen: s.lastSeen,
    mode: s.mode,
    tokensPerByte: Math.round(s.tokensPerByte * 10_000) / 10_000,
    totals: totalsOf(counts, s.epochs, perRequestOf(counts, counts.rewrittenBytesElided * s.tokensPerByte)),
    epochs: s.epochs,
  };
}

function perRequestOf(counts: RequestCounts, rewrittenTokens: number): StatsTotals['perRequest'] {
  return {
    meanBytesElided: mean(counts.rewrittenBytesElided, counts.rewritten),
    meanTokensElided: mean(rewrittenTokens, counts.rewritten),
    meanBytesSaved: mean(counts.rewrittenBytesSaved, counts.rewritten),
  };
}

function totalsOf(counts: RequestCounts, epochs: readonly EpochSummary[], perRequest: StatsTotals['perRequest']): StatsTotals {
  const sum = (pick: (e: EpochSummary) => number): number => epochs.reduce((total, e) => total + pick(e), 0);
  // A correction epoch (thinking only) elides nothing: it is counted apart, never in a mean of what epochs elide.
  const rescueEpochs = epochs.filter((e) => countsOf(e) === 'blocks').length;
  const corrections = epochs.filter((e) => countsOf(e) === 'thinking').length;
  const spans = epochs.flatMap((e) => (e.span === null ? [] : [e.span]));
  const bytesElided = sum((e) => e.bytes);
  const tokensElided = sum((e) => e.tokens);
  const passedThrough = Object.values(counts.passthrough).reduce((total, n) => total + n, 0);
  const blocksElided = sum((e) => e.blocks);
  const blocksRefaulted = sum((e) => e.blocksRefaulted);
  return {
    requests: counts.requests,
    rewritten: counts.rewritten,
    passedThrough,
    passthrough: { ...counts.passthrough },
    skippedBlocks: { ...counts.skippedBlocks },
    rewritePaths: { ...counts.rewritePaths },
    overflow: { ...counts.overflow },
    holds: { ...counts.holds },
    classes: { ...counts.classes },
    thinkingRemoved: counts.thinkingRemoved,
    thinkingRequests: counts.thinkingRequests,
    thinkingDropped: counts.thinkingDropped,
    thinkingDroppedRequests: counts.thinkingDroppedRequests,
    thinkingDroppedBy: { ...counts.thinkingDroppedBy },
    errors: counts.errors,
    epochs: epochs.length,
    blocksElided,
    bytesElided,
    tokensElided,
    perRequest,
    perEpoch: { meanBytesElided: mean(bytesElided, rescueEpochs), meanTokensElided: mean(tokensElided, rescueEpochs) },
    shed: { epochs: spans.length, spans: spans.length, messages: spans.reduce((total, span) => total + span.messages, 0) },
    corrections,
    labels: { keep: sum((e) => e.labels?.keep ?? 0), pointer: sum((e) => e.labels?.pointer ?? 0), drop: sum((e) => e.labels?.drop ?? 0) },
    refaults: sum((e) => e.refaults),
    blocksRefaulted,
    refaultRate: refaultRateOf(blocksRefaulted, blocksElided),
  };
}

function mean(total: number, count: number): number {
  return count === 0 ? 0 : Math.round(total / count);
}

/** What the reports count of an epoch's kind (core/epochs/kind-record.ts `counts`); a tag no kind has reads as nothing counted. */
export function countsOf(e: EpochSummary): EpochKindInfo['counts'] | undefined {
  return epochKindInfo(e.kind)?.counts;
}
