/**
 * Latching an epoch at once when the API refused a conversation's request as too long
 * (docs/rescue.md and docs/shed.md, "Rescue on overflow"), of the conversation's kind (latch-kinds.ts): the kind
 * says what it would take out (latch-kind.ts), the decision is the core's, one for every kind
 * (core/overflow-decision.ts), and the latch is the same as a threshold latch
 * (latch-conversation.ts: files durable first, then the record), with the trigger `overflow` and
 * the API's count as its reading.
 */
import {
  MESSAGES_API,
  planRecord,
  type ApiDialect,
  type PartSiteReader,
  type CorrectionDeclined,
  type OverflowReading,
  type TranscriptIndex,
} from '../core/index.js';
import type { ConversationEntry } from './conversation-table.js';
import { latchWith, type LatchContext } from './latch-conversation.js';
import type { LatchKind } from './latch-kind.js';
import { latestFrozen } from './latch-kinds.js';

/** The refused request, as the latch needs it. */
export interface RefusedRequest {
  /** The body as the client sent it (the plan reads the original blocks). */
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  readonly agentId: string | undefined;
  readonly window: number;
  /** Bytes of the body as it was sent and refused. */
  readonly sentBytes: number;
  readonly overflow: OverflowReading;
  /** The API the body speaks; the Messages API when not given. */
  readonly api?: ApiDialect;
}

/** What the latch did: `latched` with the epoch written (undefined: another latch got there first). */
export type OverflowLatch =
  | { readonly kind: 'latched'; readonly n: number | undefined }
  | { readonly kind: 'declined'; readonly why: 'nothing_new' | 'not_enough' | 'state_unavailable' | CorrectionDeclined; readonly detail?: string };

/** Plans, decides and latches an epoch of `kind`. A state failure is reported through `onStateFailure`, never thrown. */
export async function latchOnOverflow(
  ctx: LatchContext,
  kind: LatchKind,
  entry: ConversationEntry,
  refused: RefusedRequest,
  onStateFailure: (error: unknown) => void,
): Promise<OverflowLatch> {
  const { body, index, overflow, window } = refused;
  // Without a maximum in the message, the window is the best guess of it.
  const limit = overflow.limit ?? window;
  const ask = {
    body,
    index,
    items: entry.items,
    latest: latestFrozen(entry),
    ...(entry.record?.bringBacks === undefined ? {} : { bringBacks: entry.record.bringBacks }),
    ...(refused.api === undefined ? {} : { readCalls: refused.api.calls }),
    readFacts: (refused.api ?? MESSAGES_API).messageFacts,
    modelCalls: (refused.api ?? MESSAGES_API).modelCalls(index),
    ...partSitesOf(refused.api ?? MESSAGES_API),
    tokens: overflow.tokens,
    limit,
    window,
    sentBytes: refused.sentBytes,
  };
  const chosen = kind.chooseOnOverflow(ctx, ask);
  if (!chosen.latch) return { kind: 'declined', why: chosen.why, ...(chosen.detail === undefined ? {} : { detail: chosen.detail }) };
  const { part } = chosen;
  const facts = overflowLatchFacts(entry, refused);
  try {
    const write = await latchWith(
      ctx,
      entry,
      (current) => planRecord({ key: entry.key, current, facts, threshold: ctx.settings.latch.thresholds.threshold, part, now: ctx.now() }),
      // Only an API with thinking blocks has thinking for the epoch to freeze.
      (refused.api ?? MESSAGES_API).supports.thinking ? { body, index } : undefined,
    );
    return { kind: 'latched', n: write.kind === 'latched' ? write.n : undefined };
  } catch (error) {
    onStateFailure(error);
    return { kind: 'declined', why: 'state_unavailable' };
  }
}

/**
 * What an overflow epoch records of its refusal, of either kind: the API's count as the reading
 * (so the next request is judged on it), its maximum, the trigger and the request's facts.
 */
export function overflowLatchFacts(entry: ConversationEntry, refused: RefusedRequest) {
  const { overflow, window, body, index } = refused;
  return {
    reading: { contextTokens: overflow.tokens, window, epochsApplied: entry.record?.epochs.length ?? 0, requestBytes: refused.sentBytes },
    trigger: 'overflow' as const,
    ...(overflow.limit === undefined ? {} : { limit: overflow.limit }),
    firstPrompt: (refused.api ?? MESSAGES_API).firstPrompt(body, index),
    model: index.model ?? '',
    agentId: refused.agentId,
  };
}

/** The API's part sites for the deeper cut, when it has any. */
function partSitesOf(api: ApiDialect): { readParts?: PartSiteReader } {
  return api.partSites === undefined ? {} : { readParts: api.partSites };
}
