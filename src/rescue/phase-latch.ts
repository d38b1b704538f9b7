/**
 * A request's third phase (docs/request-path.md, steps 3d-3e): the model's reads back of what was
 * taken (refaults for the wire record, bring-backs for the working set), then the latch when one
 * may be due: files durable, then the record, before any stub names them. What it found goes to
 * the apply (apply-conversation.ts).
 */
import { readsFullness, type EligibilityMemo, type Refault } from '../core/index.js';
import { countBringBacks } from './count-bring-backs.js';
import { countRefaults } from './count-refaults.js';
import type { EngineParts } from './engine-parts.js';
import type { EngineRequest } from './engine-types.js';
import { maybeLatch, type LatchOutcome } from './maybe-latch.js';
import type { DecidedRequest } from './phase-decide.js';
import type { ReadRequest } from './phase-read.js';
import type { StepFacts } from './prepared-of.js';

/** The latch phase: what the apply is told of refaults, the latch (its epoch or why it held) and a state failure. */
export async function latchRequest(parts: EngineParts, request: EngineRequest, read: ReadRequest, decided: DecidedRequest): Promise<StepFacts> {
  const { body, headers } = request;
  const { entry, meta, key, api } = read;
  const { index, nowMs, latchKind } = decided;
  // Refaults: the model's new calls that read an elided block back (only model turns count).
  const refaults: Refault[] = readsFullness(meta.route) ? countRefaults(entry, body, index, api) : [];
  // And what it brought back, counted in the record for the working set (count-bring-backs.ts).
  if (readsFullness(meta.route)) await countBringBacks(parts.latch.table, entry, { body, index, api }, parts.onStateFailure);
  let stateFailed = false;
  const onStateFailure = (error: unknown): void => {
    stateFailed = true;
    parts.onStateFailure(error);
  };
  let latch: LatchOutcome = {};
  if (decided.mayLatch) {
    const eligibility = { memo: parts.eligibility.get(key, nowMs), keep: (memo: EligibilityMemo): void => parts.eligibility.set(key, memo, nowMs) };
    latch = await maybeLatch(parts.latch, latchKind, {
      entry,
      body,
      index,
      api,
      headers,
      agentId: meta.agentId,
      onStateFailure,
      eligibility,
      thresholds: decided.thresholds,
    });
  }
  // Over the threshold with no epoch latched: the answer is held, or rewritten by the epochs it
  // has, and says why (core/decide/hold-reasons.ts).
  return {
    ...latch,
    ...(stateFailed ? { stateFailed: true as const } : {}),
    ...(!latchKind.refaults || refaults.length === 0 ? {} : { refaults }),
  };
}
