/**
 * A request's second phase (docs/request-path.md, step 3c): which kind the conversation latches,
 * which thresholds are in force, whether a latch may be due, and the request's index when there is
 * anything to do. A conversation without epochs that cannot latch one now goes no further.
 */
import {
  asksOneHourCache,
  hasFrozenItems,
  indexIncrementally,
  isPredictedCold,
  isSideCall,
  mayLatchOnThreshold,
  readsFullness,
  thresholdsFor,
  type IncrementalIndex,
  type RequestThresholds,
  type TranscriptIndex,
} from '../core/index.js';
import { commonPrefixLength } from './common-prefix-length.js';
import { viewOf, type ConversationEntry } from './conversation-table.js';
import type { EngineParts } from './engine-parts.js';
import type { EngineRequest } from './engine-types.js';
import type { LatchKind } from './latch-kind.js';
import { kindFor } from './latch-kinds.js';
import { isOverThreshold } from './maybe-latch.js';
import { doneWith, type Done, type ReadRequest } from './phase-read.js';

/** What the decide phase found: the kind, the clock reading, the thresholds, whether a latch may be due, and the index. */
export interface DecidedRequest {
  readonly kind: 'decided';
  /** The kind the conversation latches: its first epoch's, else the engine's `--mode`'s. */
  readonly latchKind: LatchKind;
  /** The engine's clock for this request, read once. */
  readonly nowMs: number;
  /** The thresholds in force for this request, asked once: the latch decides with the same. */
  readonly thresholds: RequestThresholds;
  /** The conversation's last reading passed the threshold, on a model call that may latch. */
  readonly mayLatch: boolean;
  readonly indexed: IncrementalIndex;
  readonly index: TranscriptIndex;
}

/** The decide phase: a pass-through, or what the latch and the apply work on. */
export function decideRequest(parts: EngineParts, request: EngineRequest, read: ReadRequest): DecidedRequest | Done {
  const { entry, meta, key } = read;
  // A conversation keeps the mode of its first epoch; a new one takes the engine's.
  const latchKind = kindFor(entry, parts.settings.mode, read.api);
  const nowMs = parts.now().getTime();
  parts.memos.prune(nowMs);
  parts.eligibility.prune(nowMs);
  const cold = readsFullness(meta.route) && !isSideCall(meta.requestClass) && comesBackCold(parts, entry, request.body, nowMs);
  const thresholds = thresholdsFor(parts.settings.latch.thresholds, cold);
  const mayLatch = readsFullness(meta.route) && mayLatchOnThreshold(meta.requestClass) && isOverThreshold(entry, thresholds);
  if (!hasFrozenItems(entry.items) && !mayLatch) return doneWith(request, meta, 'no_epoch', 'no epoch yet', { conversation: viewOf(entry), key });
  // The index resumes where this body stops being the one the conversation's last rewrite read:
  // the index a scan from scratch gives, for the cost of what is new. An OpenAI body comes
  // indexed already, from scratch: no memo resumes it.
  const indexed: IncrementalIndex =
    read.index === undefined
      ? indexIncrementally(request.body, parts.memos.get(key, nowMs), commonPrefixLength)
      : { outcome: { kind: 'indexed', index: read.index } };
  if (indexed.outcome.kind === 'failed') {
    const unread = mayLatch ? { hold: { reason: 'unreadable_body' as const, detail: indexed.outcome.detail } } : {};
    return doneWith(request, meta, indexed.outcome.reason, indexed.outcome.detail, {
      conversation: viewOf(entry),
      key,
      epochs: entry.record?.epochs.length ?? 0,
      ...unread,
    });
  }
  return { kind: 'decided', latchKind, nowMs, thresholds, mayLatch, indexed, index: indexed.outcome.index };
}

/**
 * Whether this model call of the conversation comes back to a cold cache (core/cache-cold.ts):
 * the gap since its last one, on the engine's clock, passes the TTL the body asks for. Notes
 * the call's time for the next, always; says cold only when a cold threshold is configured, and
 * reads the body for its TTL only after a gap over five minutes.
 */
function comesBackCold(parts: EngineParts, entry: ConversationEntry, body: Uint8Array, nowMs: number): boolean {
  const gapMs = entry.lastRequestMs === undefined ? undefined : nowMs - entry.lastRequestMs;
  entry.lastRequestMs = nowMs;
  if (parts.settings.latch.thresholds.coldThreshold === undefined || !isPredictedCold(gapMs, false)) return false;
  return isPredictedCold(gapMs, asksOneHourCache(body));
}
