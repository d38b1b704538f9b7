/**
 * The record a latch writes: the conversation's record with one more epoch, and the elided files
 * that epoch names. Pure: the caller passes the time in, and src/state writes the plan under its
 * lock (files durable first, then the record).
 */
import {
  CONVERSATION_FORMAT,
  type ConversationRecord,
  type ElisionPolicy,
  type Epoch,
  type EpochTrigger,
  type FrozenBlock,
  type LatchReason,
} from './epoch-types.js';
import { freezeLabelled } from './labels/freeze-labelled.js';
import { LABELS_POLICY_VERSION, type BlockLabel } from './labels/label-types.js';
import type { FullnessReading } from './latch-decision.js';
import type { ThresholdFired } from './latch-threshold.js';
import { freezeBlock, POLICY_NAME, POLICY_VERSION, type PlannedBlock } from './plan-elision.js';
import type { GateDecision } from './shed/break-even.js';

/** One elided file a latch must make durable before its record may name it. */
export interface PlannedFile {
  readonly sha256: string;
  readonly bytes: Uint8Array;
  /** `txt`: the block's text; `json`: the exact original JSON, when the text cannot rebuild it. */
  readonly ext: 'txt' | 'json';
}

/** One shed span a latch must make durable (its `.json` and `.md`) before its record may name it. */
export interface PlannedSpanFile {
  readonly sha256: string;
  /** The span's exact bytes. */
  readonly bytes: Uint8Array;
}

/** One removed thinking block a latch must make durable (`thinking/<sha256>.json`) before its record may name it. */
export interface PlannedThinkingFile {
  readonly sha256: string;
  /** The block object's exact bytes. */
  readonly bytes: Uint8Array;
}

/** What a latch wants on disk: the whole new record and the files its new epoch names. */
export interface LatchPlan {
  readonly record: ConversationRecord;
  readonly files: readonly PlannedFile[];
  /** Shed mode: the spans its new epoch sheds. */
  readonly spans?: readonly PlannedSpanFile[];
  /** On a model that runs the prefix check: the thinking blocks its new epoch removes. */
  readonly thinking?: readonly PlannedThinkingFile[];
}

/** What the pure latch decision settled, and what the record needs besides. */
export interface LatchRequest {
  readonly added: readonly PlannedBlock[];
  /** The reading that caused the latch: a usage reading over the threshold, or the API's count of an overflow. */
  readonly reading: FullnessReading;
  /** What caused it; `threshold` when not given. */
  readonly trigger?: EpochTrigger;
  /** Overflow only: the maximum the API's error named. */
  readonly limit?: number;
  /** A threshold latch: which threshold fired, when a token threshold was in force. */
  readonly fired?: ThresholdFired;
  readonly firstPrompt: string;
  readonly model: string;
  readonly agentId: string | undefined;
  /** `--gate`: the burst gate's figures, recorded with the epoch. */
  readonly gate?: GateDecision;
  /**
   * One label per added block (docs/labels.md). Given: a policy version 3 epoch whose blocks
   * carry their labels, with its ledger, and no `keep` block frozen. Absent: version 2, as before.
   */
  readonly labels?: readonly BlockLabel[];
}

/** What `planRecord` is given besides the request. */
export interface PlanRecordInput {
  readonly key: string;
  /** The record as it is on disk now (undefined: the conversation's first epoch). */
  readonly current: ConversationRecord | undefined;
  readonly request: LatchRequest;
  readonly threshold: number;
  readonly policy: ElisionPolicy;
  /** ISO-8601 time of the latch. */
  readonly now: string;
}

/** The next epoch's record and files. */
export function planRecord(input: PlanRecordInput): LatchPlan {
  const { key, current, request, threshold, policy, now } = input;
  const { contextTokens, window } = request.reading;
  const reason: LatchReason = {
    fullness: contextTokens / window,
    threshold,
    window,
    contextTokens,
    ...(request.limit === undefined ? {} : { limit: request.limit }),
    ...(request.fired === undefined ? {} : { crossed: request.fired.crossed, thresholdTokens: request.fired.thresholdTokens }),
  };
  const labelled = request.labels === undefined ? undefined : freezeLabelled(request.added, request.labels);
  const blocks: FrozenBlock[] = labelled?.blocks ?? request.added.map(freezeBlock);
  const version = labelled === undefined ? POLICY_VERSION : LABELS_POLICY_VERSION;
  const epoch: Epoch = {
    n: (current?.epochs.length ?? 0) + 1,
    latchedAt: now,
    // Every new epoch says what made it latch (its lineage); only old records lack the field.
    trigger: request.trigger ?? 'threshold',
    reason,
    policy: { name: POLICY_NAME, version, keepRecent: policy.keepRecent, minBytes: policy.minBytes },
    blocks,
    ...(request.gate === undefined ? {} : { gate: request.gate }),
    ...(labelled === undefined ? {} : { ledger: labelled.ledger }),
  };
  // Files for the frozen blocks only: a block kept in context has no stub to name one.
  const frozen = new Set(blocks.map((b) => b.ordinal));
  const files: PlannedFile[] = [];
  for (const block of request.added) {
    if (!frozen.has(block.ordinal)) continue;
    files.push({ sha256: block.sha256, bytes: block.text, ext: 'txt' });
    if (block.rawSha256 !== undefined && block.raw !== undefined) files.push({ sha256: block.rawSha256, bytes: block.raw, ext: 'json' });
  }
  return { record: appendEpoch(key, current, epoch, request, now), files };
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
