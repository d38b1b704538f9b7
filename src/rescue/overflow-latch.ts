/**
 * Latching an epoch at once when the API refused a conversation's request as too long
 * (docs/rescue.md, "Rescue on overflow"). The decision is the core's (core/overflow-decision.ts);
 * the latch is the same as a threshold latch (latch-conversation.ts: files durable first, then
 * the record), with the trigger `overflow` and the API's count as its reading.
 */
import { decideOverflowLatch, MESSAGES_API, planElision, type ApiDialect, type OverflowReading, type TranscriptIndex } from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry } from './conversation-table.js';
import { latchConversation, type LatchContext } from './latch-conversation.js';

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
  | { readonly kind: 'declined'; readonly why: 'nothing_new' | 'not_enough' | 'state_unavailable'; readonly detail?: string };

/** Plans, decides and latches. A state failure is reported through `onStateFailure`, never thrown. */
export async function latchOnOverflow(
  ctx: LatchContext,
  entry: ConversationEntry,
  refused: RefusedRequest,
  onStateFailure: (error: unknown) => void,
): Promise<OverflowLatch> {
  const { body, index, overflow, window } = refused;
  const elidedDir = ctx.table.state.elidedDir;
  const plan = planElision(body, index, ctx.settings.policy, sha256Hex, { elidedDir });
  const decision = decideOverflowLatch({
    tokens: overflow.tokens,
    // Without a maximum in the message, the window is the best guess of it.
    limit: overflow.limit ?? window,
    requestBytes: refused.sentBytes,
    frozen: entry.frozen,
    plan,
    elidedDir,
  });
  if (!decision.latch) return { kind: 'declined', why: decision.why };
  try {
    const thinking = (refused.api ?? MESSAGES_API).supports.thinking ? { body, index } : undefined;
    const n = await latchConversation(ctx, entry, { added: decision.added, ...overflowLatchFacts(entry, refused) }, thinking);
    return { kind: 'latched', n };
  } catch (error) {
    onStateFailure(error);
    return { kind: 'declined', why: 'state_unavailable' };
  }
}

/**
 * What an overflow epoch records of its refusal, in either mode: the API's count as the reading
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
