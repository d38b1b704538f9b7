/**
 * A latch plan on a model that runs the prefix check: its new epoch also freezes the thinking
 * blocks its edit invalidates, and the plan carries their bytes, to be durable before the record
 * (docs/rescue.md, "Preserved thinking"). Pure: the same body and record give the same plan.
 */
import type { ConversationRecord, Epoch } from '../epoch-types.js';
import { frozenThinkingOf } from '../epoch-items.js';
import { appendEpoch } from '../plan-record.js';
import type { LatchPlan } from '../plan-record.js';
import type { Sha256 } from '../ports.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { BlockPosition } from './list-thinking.js';
import { freezeThinking, planThinking } from './plan-thinking.js';
import { runsPrefixCheck } from './prefix-check-models.js';

/** The body a latch planned on, for the thinking blocks after its edit. */
export interface ThinkingSource {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly sha256: Sha256;
  /**
   * Where the edit begins: the first place the new epoch's items change the body, by their kinds'
   * `changesAt` (core/epochs/first-change.ts `firstChangeOfEpoch`), or, for a `prefix_check`
   * correction epoch, which changes nothing itself, the conversation's; undefined: nowhere in it.
   */
  readonly from: BlockPosition | undefined;
}

/**
 * `plan` with its last epoch freezing the thinking blocks at or after the first place the epoch
 * changes that no earlier epoch froze; `plan` itself on another model or when there are none;
 * `undefined` (the latch holds) when removing them would leave an assistant message empty.
 */
export function freezeThinkingInPlan(plan: LatchPlan, current: ConversationRecord | undefined, source: ThinkingSource): LatchPlan | undefined {
  const { body, index, sha256 } = source;
  if (!runsPrefixCheck(index.model, (plan.record.prefixCheck ?? current?.prefixCheck) !== undefined)) return plan;
  const epochs = plan.record.epochs;
  const epoch = epochs[epochs.length - 1];
  if (epoch === undefined) return plan;
  const { from } = source;
  if (from === undefined) return plan;
  const already = epochs.slice(0, -1).flatMap(frozenThinkingOf);
  const planned = planThinking(body, index, from, already, sha256);
  if (planned.kind === 'lone_thinking') return undefined;
  if (planned.thinking.length === 0) return plan;
  const withThinking: Epoch = { ...epoch, items: { ...epoch.items, thinking_only: planned.thinking.map(freezeThinking) } };
  return {
    ...plan,
    record: { ...plan.record, epochs: [...epochs.slice(0, -1), withThinking] },
    // The thinking kind's folder (core/epochs/thinking-only/info.ts `originals`).
    originals: [...plan.originals, ...planned.thinking.map((t) => ({ folder: 'thinking', sha256: t.sha256, ext: 'json' as const, bytes: t.bytes }))],
  };
}

/** What a `prefix_check` correction epoch is planned from. */
export interface CorrectionInput {
  readonly key: string;
  readonly current: ConversationRecord | undefined;
  /** The refused request's `model`. */
  readonly model: string;
  /** ISO-8601 time of the refusal. */
  readonly now: string;
  readonly source: ThinkingSource & { readonly from: BlockPosition };
}

/**
 * Why no correction epoch was planned: no thinking block is left to remove (or the conversation
 * has no epoch to correct), or removing them would leave an assistant message empty.
 */
export type CorrectionDeclined = 'no_thinking' | 'empty_message';

/** A correction epoch's plan, or why there is none. */
export type CorrectionPlan = { readonly kind: 'planned'; readonly plan: LatchPlan } | { readonly kind: 'declined'; readonly why: CorrectionDeclined };

/**
 * After the API refused a request ctxshed changed because a thinking block failed its prefix
 * check: the record learns that the conversation runs the check, and a correction epoch (trigger
 * `prefix_check`, nothing else frozen) removes every thinking block from the first change on
 * that no epoch removed yet. Declined when there is none to remove, or it would empty a message.
 */
export function planCorrection(input: CorrectionInput): CorrectionPlan {
  const { key, current, model, now, source } = input;
  const last = current?.epochs[current.epochs.length - 1];
  if (current === undefined || last === undefined) return { kind: 'declined', why: 'no_thinking' };
  const epoch: Epoch = {
    n: current.epochs.length + 1,
    latchedAt: now,
    kind: 'thinking_only',
    trigger: 'prefix_check',
    reason: last.reason,
    policy: last.policy,
    items: { thinking_only: [] },
  };
  const learned: ConversationRecord = { ...current, prefixCheck: current.prefixCheck ?? { model, learnedAt: now } };
  const plan: LatchPlan = { record: appendEpoch(key, learned, epoch, { firstPrompt: current.firstPrompt, model, agentId: undefined }, now), originals: [] };
  const full = freezeThinkingInPlan(plan, learned, source);
  if (full === undefined) return { kind: 'declined', why: 'empty_message' };
  const added = full.record.epochs[full.record.epochs.length - 1]?.items.thinking_only ?? [];
  return added.length === 0 ? { kind: 'declined', why: 'no_thinking' } : { kind: 'planned', plan: full };
}
