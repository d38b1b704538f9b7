/**
 * Latching an epoch for one conversation. The order is the safety (DESIGN.md invariants 5, 8):
 * elided files durable, then the record written atomically, and only then may the first
 * rewritten request leave. state/latch-epoch.ts keeps that order under the state lock.
 */
import { freezeBlock, POLICY_NAME, POLICY_VERSION, type Epoch, type FullnessReading, type PlannedBlock } from '../core/index.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import { CONVERSATION_FORMAT } from '../state/conversation-record.js';
import { latchEpoch, type PlannedFile } from '../state/latch-epoch.js';
import type { ConversationEntry } from './conversation-table.js';
import type { PrepareContext } from './prepare-request.js';

/** What the pure decision settled, and what the record needs besides. */
export interface LatchRequest {
  readonly added: readonly PlannedBlock[];
  /** The reading that crossed the threshold. */
  readonly reading: FullnessReading;
  readonly firstPrompt: string;
  readonly model: string;
  readonly agentId: string | undefined;
}

/** Latches the next epoch; resolves to its number, or `undefined` when another latch got there first. */
export function latchConversation(ctx: PrepareContext, entry: ConversationEntry, request: LatchRequest): Promise<number | undefined> {
  const expected = entry.record?.epochs.length ?? 0;
  const run = async (): Promise<number | undefined> => {
    let planned = false;
    const record = await latchEpoch(ctx.table.state, entry.key, (current) => {
      // Someone (this process or another) latched since the decision: theirs stands, ours is void.
      if ((current?.epochs.length ?? 0) !== expected) return undefined;
      planned = true;
      return planRecord(ctx, entry.key, current, request);
    });
    ctx.table.adopt(entry, record);
    // Only the call that wrote the epoch reports it: the wire log names one latching request.
    return planned ? record?.epochs.length : undefined;
  };
  const result = entry.latching.then(run, run);
  entry.latching = result.catch(() => undefined);
  return result;
}

function planRecord(ctx: PrepareContext, key: string, current: ConversationRecord | undefined, request: LatchRequest): { record: ConversationRecord; files: PlannedFile[] } {
  const now = ctx.now();
  const { threshold, policy } = ctx.config;
  const { contextTokens, window } = request.reading;
  const reason = { fullness: contextTokens / window, threshold, window, contextTokens };
  const epoch: Epoch = {
    n: (current?.epochs.length ?? 0) + 1,
    latchedAt: now,
    reason,
    policy: { name: POLICY_NAME, version: POLICY_VERSION, keepRecent: policy.keepRecent, minBytes: policy.minBytes },
    blocks: request.added.map(freezeBlock),
  };
  const files: PlannedFile[] = [];
  for (const block of request.added) {
    files.push({ sha256: block.sha256, bytes: block.text, ext: 'txt' });
    if (block.rawSha256 !== undefined && block.raw !== undefined) files.push({ sha256: block.rawSha256, bytes: block.raw, ext: 'json' });
  }
  const record: ConversationRecord = current
    ? { ...current, epochs: [...current.epochs, epoch] }
    : {
        format: CONVERSATION_FORMAT,
        key,
        agentId: request.agentId ?? null,
        firstPrompt: request.firstPrompt,
        model: request.model,
        createdAt: now,
        epochs: [epoch],
      };
  return { record, files };
}
