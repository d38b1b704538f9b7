/**
 * `ctxshed status`: the conversations active lately, as the wire log and the state directory
 * tell them (never a running proxy's memory, so it reads the same during a session and after).
 * Pure.
 */
import { type EpochMode, tokenThresholdFor, type ThresholdSettings } from '../core/index.js';
import type { ConversationSummary } from './conversation-summary.js';
import { shortId } from './resolve-id.js';
import { addRequestCounts, newRequestCounts, type WireTally } from './wire-tally.js';

/** How to pick and judge the conversations to show. */
export interface StatusOptions {
  /** Show conversations seen within this long of the newest request in the log. */
  readonly recentMs: number;
  /**
   * The thresholds for conversations that have no epoch to say which one their proxy used: the
   * fraction (0..1) and `--rescue-tokens` (absent: the default for their window; 0: none).
   */
  readonly thresholds: ThresholdSettings;
}

/** One conversation's line. */
export interface StatusConversation {
  readonly key: string;
  readonly shortKey: string;
  readonly agentId: string | null;
  readonly firstPrompt: string | null;
  readonly lastSeen: string;
  readonly requests: number;
  readonly fullness: number | null;
  readonly window: number | null;
  /**
   * The fullness (0..1) at which the conversation latches: `--rescue-pct`, or lower when a token
   * threshold is in force on its window (N ÷ window, docs/rescue.md "Thresholds").
   */
  readonly threshold: number;
  /** `epoch`: the threshold the last epoch recorded; `default`: the --rescue-pct given to status. */
  readonly thresholdFrom: 'epoch' | 'default';
  readonly epochs: number;
  /**
   * The last epoch: its blocks and their text bytes, or for a shed epoch (`mode: "shed"`, no
   * blocks) the whole messages and exact bytes of its span.
   */
  readonly lastEpoch: {
    readonly n: number;
    readonly latchedAt: string | null;
    readonly blocks: number;
    readonly bytes: number;
    readonly mode: EpochMode;
    readonly span: { readonly messages: number; readonly bytes: number } | null;
  } | null;
  readonly lastRequest: {
    readonly t: string;
    readonly route: string | null;
    readonly status: number;
    readonly rescued: number;
    /** bytesIn - bytesOut of that request: how much lighter the context went upstream. */
    readonly bytesSaved: number;
    readonly reason: string | null;
  };
}

/**
 * Totals over the whole wire log and every record, counted as `stats` counts them (each epoch's
 * shed once). A proxy's `/_ctxshed/metrics` counts the same things since it started, so the two
 * agree when one proxy has run over the state directory since it was made (docs/metrics.md).
 */
export interface StatusTotals {
  readonly requests: number;
  /** Requests sent with stubs in them. */
  readonly rewritten: number;
  /** Requests sent unchanged, by pass-through reason (docs/reasons.md). */
  readonly passthrough: Readonly<Record<string, number>>;
  /** Responses with status 400 or more. */
  readonly errors: number;
  /** Side calls (`count_tokens`), counted in `requests` but in no conversation (wire-tally.ts). */
  readonly sideCalls: number;
  readonly epochs: number;
  /** Rescue epochs' blocks and their text bytes, each epoch's once (a shed epoch adds none). */
  readonly blocksElided: number;
  readonly bytesElided: number;
  /**
   * Shed epochs (docs/shed.md), kept apart from rescue's blocks: how many, their spans and whole
   * messages, and each one's span bytes on its own line (`perEpoch`), never summed here.
   */
  readonly shed: {
    readonly epochs: number;
    readonly spans: number;
    readonly messages: number;
    readonly perEpoch: ReadonlyArray<{ readonly key: string; readonly n: number; readonly messages: number; readonly bytes: number }>;
  };
}

/** The whole status. */
export interface StatusReport {
  readonly lastRequestAt: string | null;
  readonly recentMinutes: number;
  /** The threshold shown for conversations without an epoch. */
  readonly defaultThreshold: number;
  readonly conversations: readonly StatusConversation[];
  /** Set while the proxy's last note says the state directory is unavailable. */
  readonly stateUnavailable: { readonly since: string; readonly detail: string } | null;
  /** Originals the proxy found not to be what their names say (no stub named them), and the last one's note; null when none. */
  readonly originalsChanged?: { readonly count: number; readonly last: string; readonly at: string } | null;
  readonly wire: { readonly lines: number; readonly records: number };
  readonly totals: StatusTotals;
}

/** The status of a folded wire log and its conversations' summaries. */
export function buildStatusReport(tally: WireTally, summaries: readonly ConversationSummary[], options: StatusOptions): StatusReport {
  const newest = tally.lastAt === null ? null : Date.parse(tally.lastAt);
  const conversations = summaries.flatMap((s) => {
    if (newest === null || s.tally === null || newest - Date.parse(s.tally.lastSeen) > options.recentMs) return [];
    return [statusOf(s, s.tally, options)];
  });
  const note = tally.lastNote;
  return {
    lastRequestAt: tally.lastAt,
    recentMinutes: options.recentMs / 60_000,
    defaultThreshold: options.thresholds.threshold,
    conversations,
    stateUnavailable: note !== null && note.note === 'state_unavailable' ? { since: note.t, detail: note.detail } : null,
    originalsChanged:
      tally.lastOriginalChanged === null ? null : { count: tally.originalsChanged, last: tally.lastOriginalChanged.detail, at: tally.lastOriginalChanged.t },
    wire: { lines: tally.lines, records: tally.records },
    totals: totalsOf(tally, summaries),
  };
}

function totalsOf(tally: WireTally, summaries: readonly ConversationSummary[]): StatusTotals {
  const counts = newRequestCounts();
  addRequestCounts(counts, tally.unkeyed);
  addRequestCounts(counts, tally.sideCalls);
  let epochs = 0;
  let blocksElided = 0;
  let bytesElided = 0;
  const perEpoch: Array<StatusTotals['shed']['perEpoch'][number]> = [];
  for (const s of summaries) {
    if (s.tally !== null) addRequestCounts(counts, s.tally);
    epochs += s.epochs.length;
    blocksElided += s.blocksElided;
    bytesElided += s.bytesElided;
    for (const e of s.epochs) if (e.span !== null) perEpoch.push({ key: s.key, n: e.n, messages: e.span.messages, bytes: e.span.bytes });
  }
  return {
    requests: counts.requests,
    rewritten: counts.rewritten,
    passthrough: { ...counts.passthrough },
    errors: counts.errors,
    sideCalls: tally.sideCalls.requests,
    epochs,
    blocksElided,
    bytesElided,
    shed: { epochs: perEpoch.length, spans: perEpoch.length, messages: perEpoch.reduce((total, e) => total + e.messages, 0), perEpoch },
  };
}

function statusOf(s: ConversationSummary, tally: NonNullable<ConversationSummary['tally']>, options: StatusOptions): StatusConversation {
  const epoch = s.epochs[s.epochs.length - 1];
  const recordedEpoch = [...s.epochs].reverse().find((e) => e.threshold !== null);
  const recorded =
    recordedEpoch === undefined || recordedEpoch.threshold === null
      ? null
      : effectiveThreshold(recordedEpoch.threshold, recordedEpoch.fired?.thresholdTokens, recordedEpoch.window);
  const last = tally.last;
  return {
    key: s.key,
    shortKey: shortId(s.key),
    agentId: s.agentId,
    firstPrompt: s.firstPrompt,
    lastSeen: tally.lastSeen,
    requests: tally.requests,
    fullness: s.fullness,
    window: s.window,
    threshold: recorded ?? defaultThresholdFor(options, s.window),
    thresholdFrom: recorded === null ? 'default' : 'epoch',
    epochs: s.epochs.length,
    lastEpoch:
      epoch === undefined
        ? null
        : {
            n: epoch.n,
            latchedAt: epoch.latchedAt,
            blocks: epoch.blocks,
            bytes: epoch.bytes,
            mode: epoch.mode,
            span: epoch.span === null ? null : { messages: epoch.span.messages, bytes: epoch.span.bytes },
          },
    lastRequest: {
      t: last.t,
      route: last.route,
      status: last.status,
      rescued: last.rescued,
      bytesSaved: last.bytesIn - last.bytesOut,
      reason: last.reason,
    },
  };
}

// The fullness a token threshold stands for on this window, when it is lower than the percentage.
function effectiveThreshold(threshold: number, tokens: number | undefined, window: number | null): number {
  return tokens === undefined || window === null || window <= 0 ? threshold : Math.min(threshold, tokens / window);
}

function defaultThresholdFor(options: StatusOptions, window: number | null): number {
  const { thresholds } = options;
  if (window === null) return thresholds.threshold;
  return effectiveThreshold(thresholds.threshold, tokenThresholdFor(thresholds, window), window);
}
