/**
 * The record a shed latch writes: the conversation's record with one more epoch that sheds a
 * span, and the span's bytes for `spans/<sha256>.json`. Pure, like plan-record.ts: the caller
 * passes the time in, and src/state writes the plan under its lock (files first, then the record).
 */
import type { ConversationRecord, Epoch, EpochTrigger } from '../epoch-types.js';
import type { FullnessReading } from '../latch-decision.js';
import type { ThresholdFired } from '../latch-threshold.js';
import { appendEpoch, type LatchPlan } from '../plan-record.js';
import type { GateDecision } from './break-even.js';
import { freezeSpan, type PlannedSpan } from './plan-span.js';
import { SHED_POLICY_NAME, SHED_POLICY_VERSION, type ShedFit } from './shed-types.js';

/** What a shed latch settled. */
export interface ShedLatchRequest {
  readonly span: PlannedSpan;
  readonly reading: FullnessReading;
  readonly gate: GateDecision;
  /** What caused it; `threshold` when not given (`overflow`: the API refused the request as too long). */
  readonly trigger?: EpochTrigger;
  /** Overflow only: the maximum the API's error named. */
  readonly limit?: number;
  /** A threshold latch: which threshold fired, when a token threshold was in force. */
  readonly fired?: ThresholdFired;
  /** Near the window: what the epoch expects the request to weigh (plan-to-fit.ts). */
  readonly fit?: ShedFit;
  readonly firstPrompt: string;
  readonly model: string;
  readonly agentId: string | undefined;
}

/** What `planShedRecord` is given besides the request. */
export interface PlanShedRecordInput {
  readonly key: string;
  readonly current: ConversationRecord | undefined;
  readonly request: ShedLatchRequest;
  readonly threshold: number;
  /** The recent window's budget the span was planned with, in tokens. */
  readonly recentTokens: number;
  /** ISO-8601 time of the latch. */
  readonly now: string;
}

/** The next shed epoch's record, and the span it must write first. */
export function planShedRecord(input: PlanShedRecordInput): LatchPlan {
  const { key, current, request, threshold, recentTokens, now } = input;
  const { contextTokens, window } = request.reading;
  const epoch: Epoch = {
    n: (current?.epochs.length ?? 0) + 1,
    latchedAt: now,
    mode: 'shed',
    trigger: request.trigger ?? 'threshold',
    reason: {
      fullness: contextTokens / window,
      threshold,
      window,
      contextTokens,
      ...(request.limit === undefined ? {} : { limit: request.limit }),
      ...(request.fired === undefined ? {} : { crossed: request.fired.crossed, thresholdTokens: request.fired.thresholdTokens }),
    },
    policy: { name: SHED_POLICY_NAME, version: SHED_POLICY_VERSION, keepRecent: 0, minBytes: 0, recentTokens },
    blocks: [],
    span: freezeSpan(request.span),
    gate: request.gate,
    ...(request.fit === undefined ? {} : { fit: request.fit }),
  };
  return { record: appendEpoch(key, current, epoch, request, now), files: [], spans: [{ sha256: request.span.sha256, bytes: request.span.text }] };
}
