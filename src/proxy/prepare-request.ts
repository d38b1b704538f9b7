/**
 * The per-request rescue: find the conversation, latch an epoch when its reading says so, and
 * rewrite the body by the conversation's frozen blocks. Every failure falls back to the original
 * bytes with a reason from the closed list.
 */
import {
  conversationKeyOf,
  decideLatch,
  findFirstMessage,
  firstPromptExcerpt,
  indexTranscript,
  planElision,
  rewriteRequest,
  type PassthroughReason,
  type SkippedBlock,
  type Span,
  type TranscriptIndex,
} from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ConversationEntry, ConversationTable } from './conversation-table.js';
import { latchConversation } from './latch-conversation.js';
import type { ModelRoute } from '../core/model-route.js';
import type { ProxyConfig } from './proxy-config.js';
import type { FileAvailability } from './file-availability.js';
import { errorText } from '../errors.js';

/** What the proxy sends, and what the wire record says about it. */
export interface PreparedRequest {
  readonly body: Uint8Array;
  readonly conversation?: ConversationEntry;
  readonly key?: string;
  /** Stubs in the body sent (the wire record's `rescued`). */
  readonly rescued: number;
  /** How many epochs the conversation had when this request was sent. */
  readonly epochs: number;
  /** The epoch this request latched, if it did. */
  readonly latched?: number;
  readonly reason?: PassthroughReason;
  readonly detail?: string;
  readonly skipped?: readonly SkippedBlock[];
  readonly bytesElided: number;
}

/** What the pipeline needs from the running proxy. */
export interface PrepareContext {
  readonly config: ProxyConfig;
  readonly table: ConversationTable;
  readonly files: FileAvailability;
  /** The time, as an ISO string (the only clock the pipeline reads, for the epoch record). */
  readonly now: () => string;
  /** Called once when the state directory fails, with why (the proxy notes it in the wire log). */
  readonly onStateFailure: (error: unknown) => void;
}

/** Prepares one model call's body. Never throws: failures become a pass-through. */
export async function prepareRequest(
  ctx: PrepareContext,
  body: Uint8Array,
  route: ModelRoute,
  meta: { readonly agentId: string | undefined; readonly sessionId?: string | undefined; readonly window: number },
): Promise<PreparedRequest> {
  const pass = (reason: PassthroughReason, detail: string, extra: Partial<PreparedRequest> = {}): PreparedRequest => ({
    body, rescued: 0, epochs: 0, bytesElided: 0, reason, detail, ...extra,
  });
  // The conversation first, from the first message alone: most requests belong to one without
  // epochs and go through without their whole body being indexed.
  const first = findFirstMessage(body);
  if (first === null) return pass('no_epoch', 'no messages');
  const key = first === undefined ? undefined : keyOrUndefined(body, first, meta.agentId, meta.sessionId);
  if (key === undefined) {
    const indexed = indexTranscript(body);
    return indexed.kind === 'failed' ? pass(indexed.reason, indexed.detail) : pass('not_messages_body', 'first message unreadable');
  }
  let entry: ConversationEntry;
  try {
    entry = await ctx.table.get(key);
  } catch (error) {
    ctx.onStateFailure(error);
    return pass('state_unavailable', errorText(error), { key });
  }
  const mayLatch = route === 'messages' && isOverThreshold(entry, ctx.config.threshold);
  if (entry.frozen.length === 0 && !mayLatch) return pass('no_epoch', 'no epoch yet', { conversation: entry, key });
  const indexed = indexTranscript(body);
  if (indexed.kind === 'failed') return pass(indexed.reason, indexed.detail, { conversation: entry, key, epochs: entry.record?.epochs.length ?? 0 });
  const { index } = indexed;
  let latched: number | undefined;
  if (mayLatch) latched = await maybeLatch(ctx, entry, body, index, meta.agentId);
  // Files first (an await: another request may latch meanwhile), then one snapshot of the epochs
  // for both the rewrite and what the record and the next reading say it carried.
  let frozen = entry.frozen;
  await ctx.files.check(frozen);
  while (frozen !== entry.frozen) {
    frozen = entry.frozen;
    await ctx.files.check(frozen);
  }
  // No await from here to the rewrite: `frozen` and `epochs` are one snapshot of the record.
  const epochs = entry.record?.epochs.length ?? 0;
  const common = { conversation: entry, key, epochs, ...(latched === undefined ? {} : { latched }) };
  if (frozen.length === 0) return pass('no_epoch', 'no epoch yet', common);
  const outcome = rewriteRequest(body, frozen, {
    elidedDir: ctx.table.state.elidedDir,
    sha256: sha256Hex,
    isAvailable: (b) => ctx.files.has(b),
    index,
    // A Buffer, not a plain Uint8Array: the self-check's scan leans on Buffer's fast indexOf.
    allocate: (n) => Buffer.allocUnsafe(n),
  });
  if (outcome.kind === 'passthrough') return pass(outcome.reason, outcome.detail, { ...common, skipped: outcome.skipped });
  return { body: outcome.body, ...common, rescued: outcome.stubs, bytesElided: outcome.bytesElided, skipped: outcome.skipped };
}

async function maybeLatch(ctx: PrepareContext, entry: ConversationEntry, body: Uint8Array, index: TranscriptIndex, agentId: string | undefined): Promise<number | undefined> {
  const { reading } = entry;
  if (reading === undefined) return undefined;
  const plan = planElision(body, index, ctx.config.policy, sha256Hex, { elidedDir: ctx.table.state.elidedDir });
  const decision = decideLatch({
    reading,
    threshold: ctx.config.threshold,
    frozen: entry.frozen,
    epochCount: entry.record?.epochs.length ?? 0,
    plan,
    ...(ctx.config.minGainFraction === undefined ? {} : { minGainFraction: ctx.config.minGainFraction }),
  });
  if (!decision.latch) return undefined;
  try {
    return await latchConversation(ctx, entry, {
      added: decision.added,
      reading,
      firstPrompt: firstPromptExcerpt(body, index),
      model: index.model ?? '',
      agentId,
    });
  } catch (error) {
    ctx.onStateFailure(error);
    return undefined;
  }
}

/** Cheap test first: planning hashes every eligible block, so only plan when a latch is possible. */
function isOverThreshold(entry: ConversationEntry, threshold: number): boolean {
  const { reading } = entry;
  return reading !== undefined && reading.contextTokens / reading.window >= threshold;
}

function keyOrUndefined(body: Uint8Array, first: Span, agentId: string | undefined, sessionId: string | undefined): string | undefined {
  try {
    return conversationKeyOf(body, first, agentId, sha256Hex, sessionId);
  } catch {
    return undefined; // the first message is not valid JSON: the full index names the reason
  }
}

