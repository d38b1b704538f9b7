/**
 * The record a latch writes, of either kind: the conversation's record with one more epoch, and
 * the files that epoch names (elided texts, or a shed span). The shared part (number, time,
 * trigger, reason) is built here; the kind's part comes from its planner (core/epochs/). Pure: the
 * caller passes the time in, and src/state writes the plan under its lock (files durable first,
 * then the record).
 */
import { CONVERSATION_FORMAT, type ConversationRecord, type Epoch, type KindTag, type LatchReason } from './epoch-types.js';
import type { LedgerRow } from './labels/label-types.js';
import type { FullnessReading } from './fullness-reading.js';
import type { ThresholdFired } from './latch-threshold.js';
import type { GateDecision } from './break-even.js';
import type { ShedFit } from './shed/shed-types.js';

/** One elided file a latch must make durable before its record may name it. */
export interface PlannedFile {
  readonly sha256: string;
  readonly bytes: Uint8Array;
  /** `txt`: the block's text; `json`: the exact original JSON, when the text cannot rebuild it. */
  readonly ext: 'txt' | 'json';
}

/**
 * One original a latch must make durable before its record may name it, of any kind: in its kind's
 * folder (`EpochKindInfo.originals`: `elided/`, `spans/`, `thinking/`, or a registered kind's
 * `<state>/<folder>/`), or its row in Postgres.
 */
export interface PlannedOriginal {
  /** The kind's `originals` folder (core/epochs/kind-info.ts). */
  readonly folder: string;
  readonly sha256: string;
  readonly ext: 'txt' | 'json' | 'md';
  /** The exact bytes; they hash to `sha256`, except a rendering's (`md`). */
  readonly bytes: Uint8Array;
}

/** What a latch wants on disk: the whole new record and the originals its new epoch names, of every kind. */
export interface LatchPlan {
  readonly record: ConversationRecord;
  readonly originals: readonly PlannedOriginal[];
}

/**
 * The kind's part of the next epoch (core/epochs/), one shape for every kind: its tag and items
 * (kept under the tag in the epoch's `items`), its policy, what its planner adds (a gate, a shed
 * epoch's fit, a tool-result epoch's ledger), and the files its items name, each durable before the
 * record. planRecord adds what every epoch shares.
 */
export interface EpochPart<Item = unknown> {
  readonly tag: KindTag;
  readonly items: readonly Item[];
  readonly policy: Epoch['policy'];
  readonly gate?: GateDecision;
  /** A shed epoch latched near the window or on an overflow (core/epoch-types.ts). */
  readonly fit?: ShedFit;
  /** Policy version 3+ (docs/labels.md). */
  readonly ledger?: readonly LedgerRow[];
  /** The originals its items name, in its folder (a span's exact bytes and their rendering, say). */
  readonly originals: readonly PlannedOriginal[];
}

/** What every latch records besides the kind's part: the reading, the trigger and who the conversation is. */
export interface LatchFacts {
  /** The reading that caused the latch: a usage reading over the threshold, or the API's count of an overflow. */
  readonly reading: FullnessReading;
  /**
   * What caused it; `threshold` when not given (a `prefix_check` correction is planned by
   * core/thinking/freeze-in-plan.ts). `command` is a tool-result epoch of `ctxshed elide`.
   */
  readonly trigger?: 'threshold' | 'overflow' | 'command';
  /** Overflow only: the maximum the API's error named. */
  readonly limit?: number;
  /** A threshold latch: which threshold fired, when a token threshold was in force. */
  readonly fired?: ThresholdFired;
  /** A threshold latch on a request predicted cold, under the cold threshold (core/cache-cold.ts). */
  readonly cold?: true;
  readonly firstPrompt: string;
  readonly model: string;
  readonly agentId: string | undefined;
}

/** What `planRecord` is given. */
export interface PlanRecordInput {
  readonly key: string;
  /** The record as it is on disk now (undefined: the conversation's first epoch). */
  readonly current: ConversationRecord | undefined;
  readonly facts: LatchFacts;
  readonly threshold: number;
  /** The kind's part of the epoch (EpochPlanner.epochOf). */
  readonly part: EpochPart;
  /** ISO-8601 time of the latch. */
  readonly now: string;
}

/** The next epoch's record and files, of either kind. */
export function planRecord(input: PlanRecordInput): LatchPlan {
  const { key, current, facts, threshold, part, now } = input;
  const { contextTokens, window } = facts.reading;
  const reason: LatchReason = {
    fullness: contextTokens / window,
    threshold,
    window,
    contextTokens,
    ...(facts.limit === undefined ? {} : { limit: facts.limit }),
    ...(facts.fired === undefined ? {} : { crossed: facts.fired.crossed, thresholdTokens: facts.fired.thresholdTokens }),
    ...(facts.cold === true ? { cold: true as const } : {}),
  };
  const n = (current?.epochs.length ?? 0) + 1;
  // Every new epoch says what made it latch (its lineage); only old records lack the field.
  const trigger = facts.trigger ?? 'threshold';
  // The key order is the records' on disk: a record planned again is the same bytes.
  const epoch = epochOfPart(part, { n, latchedAt: now, trigger, reason });
  const record = appendEpoch(key, current, epoch, facts, now);
  return { record, originals: part.originals };
}

/** What every epoch starts with, in its key order. */
interface EpochHead {
  readonly n: number;
  readonly latchedAt: string;
  readonly trigger: 'threshold' | 'overflow' | 'command';
  readonly reason: LatchReason;
}

/** The epoch of a kind's part: the shared head, then the kind's tag and items, in the order records on disk have them. */
function epochOfPart(part: EpochPart, head: EpochHead): Epoch {
  const { n, latchedAt, trigger, reason } = head;
  return {
    n,
    latchedAt,
    kind: part.tag,
    trigger,
    reason,
    policy: part.policy,
    items: { [part.tag]: part.items },
    ...(part.gate === undefined ? {} : { gate: part.gate }),
    ...(part.fit === undefined ? {} : { fit: part.fit }),
    ...(part.ledger === undefined ? {} : { ledger: part.ledger }),
  };
}

/** The record with `epoch` appended, or a new record holding it (the conversation's first epoch). */
export function appendEpoch(
  key: string,
  current: ConversationRecord | undefined,
  epoch: Epoch,
  who: { readonly firstPrompt: string; readonly model: string; readonly agentId: string | undefined },
  now: string,
): ConversationRecord {
  if (current !== undefined) return { ...current, epochs: [...current.epochs, epoch] };
  return { format: CONVERSATION_FORMAT, key, agentId: who.agentId ?? null, firstPrompt: who.firstPrompt, model: who.model, createdAt: now, epochs: [epoch] };
}
