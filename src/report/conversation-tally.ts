/** One conversation of the wire log (wire-tally.ts): its requests' counts, its last readings, its latches and refaults. */
import { readsFullness } from '../core/index.js';
import type { WireRecord } from '../state/wire-record.js';
import type { RequestCounts } from './request-counts.js';
import { newRequestCounts } from './request-counts.js';

/** What one request's wire record says, kept for the last request and the last reading. */
export interface RequestFacts {
  readonly t: string;
  readonly route: string | null;
  readonly status: number;
  readonly rescued: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly bytesElided: number;
  readonly epochs: number;
  readonly reason: string | null;
  readonly fullness: number | null;
  readonly window: number | null;
}

/** One conversation as its wire records tell it. */
export interface ConversationTally extends RequestCounts {
  readonly key: string;
  agentId: string | null;
  model: string | null;
  firstSeen: string;
  lastSeen: string;
  /** Context tokens and bytes sent, over the messages requests that reported usage. */
  usageTokens: number;
  usageBytes: number;
  last: RequestFacts;
  /** The last messages request with a fullness reading. */
  lastReading: RequestFacts | null;
  /** Index n: the most text bytes any request carrying n epochs had stubbed. */
  maxBytesElidedByEpochs: number[];
  /** Index n: the most stubs any request carrying n epochs had. */
  maxRescuedByEpochs: number[];
  /**
   * Each `latched` a request reports, in log order, with the provider's cache-read tokens of the
   * conversation's last model call before it (what was warm when the epoch latched; null when no
   * earlier call reported usage): a shed epoch's warm part is priced from it (docs/shed.md).
   */
  latches: Array<{ readonly n: number; readonly t: string; readonly cacheReadBefore: number | null }>;
  /** The cache-read tokens of the last model call that reported usage. */
  lastCacheRead: number | null;
  /** Refaults the requests report (reads of elided blocks), in all. */
  refaults: number;
  /** By the epoch that froze the block, then by the block's ordinal: how often it was read back. */
  refaultsByEpoch: Map<number, Map<number, number>>;
  /** The calls counted (their hash), so one resent after a proxy restart is not counted again. */
  refaultCalls: Set<string>;
  /** By the epoch that shed the span: how often its span was read back (restored). Not in `refaults`. */
  spanRestoresByEpoch: Map<number, number>;
}

/** A new conversation's tally, from its first request. */
export function newConversationTally(key: string, facts: RequestFacts): ConversationTally {
  return {
    key,
    ...newRequestCounts(),
    agentId: null,
    model: null,
    firstSeen: facts.t,
    lastSeen: facts.t,
    usageTokens: 0,
    usageBytes: 0,
    last: facts,
    lastReading: null,
    maxBytesElidedByEpochs: [],
    maxRescuedByEpochs: [],
    latches: [],
    lastCacheRead: null,
    refaults: 0,
    refaultsByEpoch: new Map(),
    refaultCalls: new Set(),
    spanRestoresByEpoch: new Map(),
  };
}

/** What one request's record says, as kept for the last request and the last reading. */
export function factsOf(record: WireRecord): RequestFacts {
  return {
    t: record.t,
    route: record.route ?? null,
    status: record.status,
    rescued: record.rescued,
    bytesIn: record.bytesIn,
    bytesOut: record.bytesOut,
    bytesElided: record.bytesElided,
    epochs: record.epochs,
    reason: record.reason ?? null,
    fullness: record.fullness ?? null,
    window: record.window ?? null,
  };
}

/** Folds one request's record into its conversation (its counts aside: `countRequest`). */
export function foldConversation(c: ConversationTally, record: WireRecord, facts: RequestFacts): void {
  if (record.agentId !== undefined) c.agentId = record.agentId;
  if (record.model !== undefined) c.model = record.model;
  if (record.t < c.firstSeen) c.firstSeen = record.t;
  if (record.t > c.lastSeen) c.lastSeen = record.t;
  c.last = facts;
  // Every model call's reading counts, whatever its dialect; count_tokens' never does.
  const measured = readsFullness(record.route);
  if (measured && record.fullness !== undefined) c.lastReading = facts;
  // Taken before this request's own usage: the reading an epoch latches on is the call before it.
  const cacheReadBefore = c.lastCacheRead;
  if (measured && record.usage !== undefined) {
    c.usageTokens += record.usage.input + record.usage.cacheCreation + record.usage.cacheRead;
    c.usageBytes += record.bytesOut;
    c.lastCacheRead = record.usage.cacheRead;
  }
  raiseAt(c.maxBytesElidedByEpochs, record.epochs, record.bytesElided);
  raiseAt(c.maxRescuedByEpochs, record.epochs, record.rescued);
  // A latch number is an epoch number: a line claiming epoch 100,000,000 is not one to believe.
  if (record.latched !== undefined && Number.isInteger(record.latched) && record.latched >= 1 && record.latched <= MAX_EPOCHS_TRACKED) {
    c.latches.push({ n: record.latched, t: record.t, cacheReadBefore });
  }
  foldRefaults(c, record);
}

// Each block named is a read; a line from elsewhere may name anything, so only plausible ones count.
function foldRefaults(c: ConversationTally, record: WireRecord): void {
  if (!Array.isArray(record.refaulted)) return;
  for (const item of record.refaulted as readonly unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { epoch, ordinal, call, span } = item as { epoch?: unknown; ordinal?: unknown; call?: unknown; span?: unknown };
    if (!isCount(epoch) || epoch < 1 || epoch > MAX_EPOCHS_TRACKED || !isCount(ordinal)) continue;
    // Lines written before calls were named (or from elsewhere) count as they are.
    if (typeof call === 'string') {
      const seen = `${span === true ? 'span:' : ''}${epoch}:${ordinal}:${call}`;
      if (c.refaultCalls.has(seen)) continue;
      c.refaultCalls.add(seen);
    }
    if (span === true) {
      c.spanRestoresByEpoch.set(epoch, (c.spanRestoresByEpoch.get(epoch) ?? 0) + 1);
      continue;
    }
    let byOrdinal = c.refaultsByEpoch.get(epoch);
    if (byOrdinal === undefined) {
      byOrdinal = new Map();
      c.refaultsByEpoch.set(epoch, byOrdinal);
    }
    byOrdinal.set(ordinal, (byOrdinal.get(ordinal) ?? 0) + 1);
    c.refaults += 1;
  }
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

// A conversation never has this many epochs; a line claiming more is not grown into an array.
const MAX_EPOCHS_TRACKED = 10_000;

function raiseAt(values: number[], index: number, value: number): void {
  if (!Number.isInteger(index) || index < 0 || index > MAX_EPOCHS_TRACKED) return;
  while (values.length <= index) values.push(0);
  if (value > (values[index] ?? 0)) values[index] = value;
}
