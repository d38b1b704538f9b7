/**
 * The wire log folded into per-conversation tallies, one entry at a time, so a log of any length
 * is read in one pass and `status --follow` can fold in just the lines appended since its last
 * look. Pure: plain data in, plain data out; the fold updates the tally it is given.
 */
import type { WireNote, WireRecord } from '../state/wire-record.js';
import type { WireEntry } from '../state/wire-line.js';

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

/** Request counts that add up across conversations. */
export interface RequestCounts {
  requests: number;
  /** Requests sent with stubs in them (no pass-through reason). */
  rewritten: number;
  /** Requests sent unchanged, by their pass-through reason. */
  passthrough: Record<string, number>;
  /** Frozen blocks left alone in requests that were otherwise rewritten, by reason. */
  skippedBlocks: Record<string, number>;
  /** Rewrites by how they ran (`incremental`, `full`), as the wire records say (docs/state.md). */
  rewritePaths: Record<string, number>;
  /**
   * Refusals as too long (rescue on overflow), by what followed: `retried_ok` (the retry got a
   * 200), `retried_error` (it got another status), or the reason it was not sent (`nothing_new`, ...).
   */
  overflow: Record<string, number>;
  /** Requests over the threshold that latched no epoch, by why (docs/reasons.md, "Why no epoch latched"). */
  holds: Record<string, number>;
  /** Frozen thinking blocks requests went without (the wire records' `thinkingRemoved`, summed), and in how many requests. */
  thinkingRemoved: number;
  thinkingRequests: number;
  /**
   * Thinking blocks the API dropped instead of refusing the request (the wire records'
   * `thinkingDropped`, summed), in how many requests, and by the API's reason.
   */
  thinkingDropped: number;
  thinkingDroppedRequests: number;
  thinkingDroppedBy: Record<string, number>;
  /** Responses with status 400 or more (the API's errors and ctxshed's own). */
  errors: number;
  /** Sums over the rewritten requests, for per-request means (never a total saving). */
  rewrittenBytesElided: number;
  rewrittenBytesSaved: number;
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

/** The whole wire log, folded. */
export interface WireTally {
  lines: number;
  records: number;
  notes: number;
  lastNote: WireNote | null;
  tornMarkers: number;
  /** Lines that are not JSON or not a known shape (torn lines among them). */
  unreadable: number;
  firstAt: string | null;
  lastAt: string | null;
  /** Requests that belong to no conversation (not a model call, or a body ctxshed could not read). */
  unkeyed: RequestCounts;
  conversations: Map<string, ConversationTally>;
}

/** An empty tally. */
export function newWireTally(): WireTally {
  return {
    lines: 0,
    records: 0,
    notes: 0,
    lastNote: null,
    tornMarkers: 0,
    unreadable: 0,
    firstAt: null,
    lastAt: null,
    unkeyed: newRequestCounts(),
    conversations: new Map(),
  };
}

/** Zero counts. */
export function newRequestCounts(): RequestCounts {
  return {
    requests: 0,
    rewritten: 0,
    passthrough: countsByName(),
    skippedBlocks: countsByName(),
    rewritePaths: countsByName(),
    overflow: countsByName(),
    holds: countsByName(),
    thinkingRemoved: 0,
    thinkingRequests: 0,
    thinkingDropped: 0,
    thinkingDroppedRequests: 0,
    thinkingDroppedBy: countsByName(),
    errors: 0,
    rewrittenBytesElided: 0,
    rewrittenBytesSaved: 0,
  };
}

/** Folds one line's entry into `tally`. */
export function addWireEntry(tally: WireTally, entry: WireEntry): void {
  tally.lines += 1;
  switch (entry.kind) {
    case 'record':
      addWireRecord(tally, entry.record);
      return;
    case 'note':
      tally.notes += 1;
      tally.lastNote = entry.note;
      return;
    case 'torn-marker':
      tally.tornMarkers += 1;
      return;
    case 'unreadable':
      tally.unreadable += 1;
      return;
  }
}

/** Adds `from` into `into`. */
export function addRequestCounts(into: RequestCounts, from: RequestCounts): void {
  into.requests += from.requests;
  into.rewritten += from.rewritten;
  into.errors += from.errors;
  into.rewrittenBytesElided += from.rewrittenBytesElided;
  into.rewrittenBytesSaved += from.rewrittenBytesSaved;
  into.thinkingRemoved += from.thinkingRemoved;
  into.thinkingRequests += from.thinkingRequests;
  into.thinkingDropped += from.thinkingDropped;
  into.thinkingDroppedRequests += from.thinkingDroppedRequests;
  addCountsByName(into.thinkingDroppedBy, from.thinkingDroppedBy);
  addCountsByName(into.passthrough, from.passthrough);
  addCountsByName(into.skippedBlocks, from.skippedBlocks);
  addCountsByName(into.rewritePaths, from.rewritePaths);
  addCountsByName(into.overflow, from.overflow);
  addCountsByName(into.holds, from.holds);
}

function addWireRecord(tally: WireTally, record: WireRecord): void {
  tally.records += 1;
  if (tally.firstAt === null || record.t < tally.firstAt) tally.firstAt = record.t;
  if (tally.lastAt === null || record.t > tally.lastAt) tally.lastAt = record.t;
  const facts = factsOf(record);
  if (record.key === null) {
    countRequest(tally.unkeyed, record);
    return;
  }
  let conversation = tally.conversations.get(record.key);
  if (conversation === undefined) {
    conversation = newConversationTally(record.key, facts);
    tally.conversations.set(record.key, conversation);
  }
  countRequest(conversation, record);
  foldConversation(conversation, record, facts);
}

function countRequest(counts: RequestCounts, record: WireRecord): void {
  counts.requests += 1;
  if (record.status >= 400) counts.errors += 1;
  // Refused by ctxshed itself (a web page): an error, neither forwarded nor rewritten.
  if (record.refused !== undefined) return;
  if (record.reason === undefined) {
    counts.rewritten += 1;
    counts.rewrittenBytesElided += record.bytesElided;
    counts.rewrittenBytesSaved += record.bytesIn - record.bytesOut;
  } else {
    counts.passthrough[record.reason] = (counts.passthrough[record.reason] ?? 0) + 1;
  }
  if (record.skipped !== undefined) addCountsByName(counts.skippedBlocks, record.skipped);
  const thinking = record.thinkingRemoved;
  if (typeof thinking === 'number' && Number.isSafeInteger(thinking) && thinking > 0) {
    counts.thinkingRemoved += thinking;
    counts.thinkingRequests += 1;
  }
  countDropped(counts, record);
  if (record.rewritePath !== undefined) counts.rewritePaths[record.rewritePath] = (counts.rewritePaths[record.rewritePath] ?? 0) + 1;
  // A line from elsewhere may name anything: only a plausible reason's name is counted.
  const hold = record.hold as unknown;
  if (typeof hold === 'string' && /^[a-z_]{1,40}$/.test(hold)) counts.holds[hold] = (counts.holds[hold] ?? 0) + 1;
  const outcome = overflowOutcomeOf(record);
  if (outcome !== undefined) counts.overflow[outcome] = (counts.overflow[outcome] ?? 0) + 1;
}

// A line from elsewhere may hold anything: only a plausible retry record counts.
function overflowOutcomeOf(record: WireRecord): string | undefined {
  const retry = record.retry as unknown;
  if (typeof retry !== 'object' || retry === null) return undefined;
  const { reason, sent, status, why } = retry as { reason?: unknown; sent?: unknown; status?: unknown; why?: unknown };
  if (reason !== 'overflow' || typeof sent !== 'boolean') return undefined;
  if (sent) return status === 200 ? 'retried_ok' : 'retried_error';
  return typeof why === 'string' && /^[a-z_]{1,40}$/.test(why) ? why : 'not_sent';
}

function foldConversation(c: ConversationTally, record: WireRecord, facts: RequestFacts): void {
  if (record.agentId !== undefined) c.agentId = record.agentId;
  if (record.model !== undefined) c.model = record.model;
  if (record.t < c.firstSeen) c.firstSeen = record.t;
  if (record.t > c.lastSeen) c.lastSeen = record.t;
  c.last = facts;
  // Every model call's reading counts, Messages or OpenAI; count_tokens' never does.
  const measured = record.route === 'messages' || record.route === 'responses' || record.route === 'chat';
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

function newConversationTally(key: string, facts: RequestFacts): ConversationTally {
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

function factsOf(record: WireRecord): RequestFacts {
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

// A conversation never has this many epochs; a line claiming more is not grown into an array.
const MAX_EPOCHS_TRACKED = 10_000;

function raiseAt(values: number[], index: number, value: number): void {
  if (!Number.isInteger(index) || index < 0 || index > MAX_EPOCHS_TRACKED) return;
  while (values.length <= index) values.push(0);
  if (value > (values[index] ?? 0)) values[index] = value;
}

// Names come from the log: a prototype-less object keeps a name like "__proto__" a plain key.
function countsByName(): Record<string, number> {
  return Object.create(null) as Record<string, number>;
}

function addCountsByName(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [name, count] of Object.entries(from)) if (typeof count === 'number') into[name] = (into[name] ?? 0) + count;
}

// Counted whatever the request's fate: the API dropped them from what it answered.
function countDropped(counts: RequestCounts, record: WireRecord): void {
  const dropped = record.thinkingDropped as unknown;
  if (typeof dropped !== 'number' || !Number.isSafeInteger(dropped) || dropped <= 0) return;
  counts.thinkingDropped += dropped;
  counts.thinkingDroppedRequests += 1;
  const by = record.thinkingDroppedBy as unknown;
  if (typeof by !== 'object' || by === null) return;
  for (const [reason, n] of Object.entries(by as Record<string, unknown>)) {
    // A line from elsewhere may name anything: only a plausible reason's name is counted.
    if (/^[a-z_]{1,40}$/.test(reason) && typeof n === 'number' && Number.isSafeInteger(n) && n > 0)
      counts.thinkingDroppedBy[reason] = (counts.thinkingDroppedBy[reason] ?? 0) + n;
  }
}
