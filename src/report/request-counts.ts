/** Request counts of the wire log (wire-tally.ts): what a set of requests did, in figures that add up across conversations. */
import { wireOutcomeOf, type WireRecord } from '../state/wire-record.js';

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
  /** Requests by Claude Code's request class (the wire records' `requestClass`); a request without one is not counted here. */
  classes: Record<string, number>;
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
    classes: countsByName(),
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
  addCountsByName(into.classes, from.classes);
}

/** Counts one request's record. */
export function countRequest(counts: RequestCounts, record: WireRecord): void {
  counts.requests += 1;
  if (record.status >= 400) counts.errors += 1;
  const outcome = wireOutcomeOf(record);
  // Refused by ctxshed, or answered by it (a WebSocket warm-up, a socket closed): nothing forwarded, nothing rewritten.
  if (outcome === 'refused' || outcome === 'own') return;
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
  const cls = record.requestClass as unknown;
  if (typeof cls === 'string' && /^[a-z_]{1,40}$/.test(cls)) counts.classes[cls] = (counts.classes[cls] ?? 0) + 1;
  const overflow = overflowOutcomeOf(record);
  if (overflow !== undefined) counts.overflow[overflow] = (counts.overflow[overflow] ?? 0) + 1;
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
