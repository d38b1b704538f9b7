/**
 * Latching an epoch for one conversation. The order is the safety (DESIGN.md invariants 5, 8):
 * elided files durable, then the record written atomically, and only then may the first
 * rewritten request leave. state/latch-epoch.ts keeps that order under the state lock; the
 * record itself is planned by the core (core/plan-record.ts).
 */
import { planRecord, type LatchRequest } from '../core/index.js';
import { latchEpoch } from '../state/latch-epoch.js';
import type { ConversationEntry, ConversationTable } from './conversation-table.js';
import type { EngineSettings } from './engine-settings.js';

/** What a latch needs from the engine. */
export interface LatchContext {
  readonly table: ConversationTable;
  readonly settings: EngineSettings;
  /** The time, as an ISO string, for the epoch record. */
  readonly now: () => string;
}

/** Latches the next epoch; resolves to its number, or `undefined` when another latch got there first. */
export function latchConversation(ctx: LatchContext, entry: ConversationEntry, request: LatchRequest): Promise<number | undefined> {
  const expected = entry.record?.epochs.length ?? 0;
  const run = async (): Promise<number | undefined> => {
    let planned = false;
    const record = await latchEpoch(ctx.table.state, entry.key, (current) => {
      // Someone (this process or another) latched since the decision: theirs stands, ours is void.
      if ((current?.epochs.length ?? 0) !== expected) return undefined;
      planned = true;
      const { threshold, policy } = ctx.settings;
      return planRecord({ key: entry.key, current, request, threshold, policy, now: ctx.now() });
    });
    ctx.table.adopt(entry, record);
    // Only the call that wrote the epoch reports it: the wire log names one latching request.
    return planned ? record?.epochs.length : undefined;
  };
  const result = entry.latching.then(run, run);
  entry.latching = result.catch(() => undefined);
  return result;
}
