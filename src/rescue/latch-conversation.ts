/**
 * Latching an epoch for one conversation. The order is the safety (docs/design.md invariants 5, 8):
 * elided files durable, then the record written atomically, and only then may the first
 * rewritten request leave. The table's store (src/store/) keeps that order under the
 * conversation's lock, in a state directory (state/latch-epoch.ts) or in Postgres; the record
 * itself is planned by the core (core/plan-record.ts, with the kind's part from core/epochs/).
 */
import {
  firstChangeOfEpoch,
  freezeThinkingInPlan,
  type ConversationRecord,
  type DecideEpoch,
  type LabelScores,
  type LatchPlan,
  type TranscriptIndex,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ConversationEntry, ConversationTable } from './conversation-table.js';
import type { EngineSettings } from './engine-settings.js';
import type { ClassifierCall } from './engine-types.js';
import { countLatch } from './count-latch.js';

/** What a latch needs from the engine. */
export interface LatchContext {
  readonly table: ConversationTable;
  readonly settings: EngineSettings;
  /** The time, as an ISO string, for the epoch record. */
  readonly now: () => string;
  /** Counts each epoch once, when this process latches it. */
  readonly metrics: Metrics;
  /** `--labels model`: the call, and the scores it gave so far (one question per block). */
  readonly classifier?: { readonly call: ClassifierCall; readonly memory: Map<string, LabelScores> };
  /** The one decision of a threshold latch (core/decide/decide-epoch.ts); a test hands in a spy to count them. */
  readonly decide?: DecideEpoch;
}

/**
 * The body a latch planned on. On a model that runs the prefix check, the epoch also freezes the
 * thinking blocks its edit invalidates (core/thinking/freeze-in-plan.ts); the latch holds when
 * removing them would leave an assistant message empty.
 */
export interface LatchBody {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  /** The decision latched mid-turn on a prefix-check model (core/decide/decide-epoch.ts): the epoch says so. */
  readonly midTurn?: boolean;
}

/**
 * Why a latch wrote no epoch: another latch got there first, removing the thinking its edit
 * invalidates would leave an assistant message empty, or the plan itself declined (a correction
 * epoch with no thinking block left to remove).
 */
export type LatchVoid = 'concurrent_latch' | 'empty_message' | 'not_planned';

/** What a latch wrote: the new epoch's number, or why none. */
export type LatchWrite = { readonly kind: 'latched'; readonly n: number } | { readonly kind: 'void'; readonly why: LatchVoid };

/** Latches the epoch `plan` makes of the record on disk (either kind, or a correction), under the same rules. */
export function latchWith(
  ctx: LatchContext,
  entry: ConversationEntry,
  plan: (current: ConversationRecord | undefined) => LatchPlan | undefined,
  from?: LatchBody,
): Promise<LatchWrite> {
  const expected = entry.record?.epochs.length ?? 0;
  const run = async (): Promise<LatchWrite> => {
    let why: LatchVoid | undefined;
    const record = await ctx.table.store.latch(entry.key, (current) => {
      // Someone (this process or another) latched since the decision: theirs stands, ours is void.
      if ((current?.epochs.length ?? 0) !== expected) {
        why = 'concurrent_latch';
        return undefined;
      }
      const made = plan(current);
      if (made === undefined) {
        why = 'not_planned';
        return undefined;
      }
      const latest = made.record.epochs.at(-1);
      const frozen =
        from === undefined || latest === undefined
          ? made
          : freezeThinkingInPlan(made, current, { ...from, sha256: sha256Hex, from: firstChangeOfEpoch(latest, from.index) });
      if (frozen === undefined) {
        why = 'empty_message';
        return undefined;
      }
      return from?.midTurn === true ? markMidTurn(frozen) : frozen;
    });
    ctx.table.adopt(entry, record);
    // Only the call that wrote the epoch reports it: the wire log names one latching request,
    // and the metrics count the epoch once.
    if (why !== undefined || record === undefined) return { kind: 'void', why: why ?? 'concurrent_latch' };
    countLatch(ctx.metrics, record.epochs);
    return { kind: 'latched', n: record.epochs.length };
  };
  const result = entry.latching.then(run, run);
  entry.latching = result.catch(() => undefined);
  return result;
}

function markMidTurn(plan: LatchPlan): LatchPlan {
  const epochs = plan.record.epochs;
  const last = epochs[epochs.length - 1];
  if (last === undefined) return plan;
  return { ...plan, record: { ...plan.record, epochs: [...epochs.slice(0, -1), { ...last, midTurn: true }] } };
}
