/**
 * The engine's answer to a refusal of a request it prepared (docs/rescue.md): as too long, an
 * overflow epoch at once; of a thinking block the edit invalidated, a correction epoch. Either way
 * the request is then prepared once more. Never rejects: anything that stops the rescue is
 * `declined`, and the client then gets the refusal as it was.
 */
import { dialectOf, indexIncrementally, isSideCall, readsFullness, type IncrementalIndex, type OverflowReading, type TranscriptIndex } from '../core/index.js';
import { errorText } from '../errors.js';
import { applyConversation } from './apply-conversation.js';
import { commonPrefixLength } from './common-prefix-length.js';
import type { ConversationEntry } from './conversation-table.js';
import type { EngineParts } from './engine-parts.js';
import type { EngineRequest, OverflowDeclined, OverflowOutcome, Prepared, RetryOutcome } from './engine-types.js';
import type { LatchKind } from './latch-kind.js';
import { kindFor } from './latch-kinds.js';
import { latchOnOverflow, type OverflowLatch } from './overflow-latch.js';
import { latchOnPrefixMismatch } from './prefix-check-latch.js';
import { stubsOf } from './prepared-of.js';
import { readRequestMeta, type RequestMeta } from './request-meta.js';

/**
 * Whether a refusal of this request as too long may be rescued: a model call (any API) of a
 * conversation (either mode), sent as the engine meant it (rewritten or shed, or unchanged for
 * want of an epoch). count_tokens is never retried; a request that failed open would fail open again.
 */
export function canRescueRefusal(prepared: Prepared): boolean {
  // Every API that gives a reading has a refusal as too long (its dialect's `tooLong`); count_tokens does not.
  if (!readsFullness(prepared.route) || prepared.conversation === undefined || isSideCall(prepared.requestClass)) return false;
  return prepared.outcome === 'rewritten' || prepared.reason === 'no_epoch';
}

/**
 * After the API refused `prepared` (the preparation of `request`) as too long: latches an epoch
 * at once (trigger `overflow`, the API's count as its reading) when what it takes out would
 * bring the request under the maximum, and prepares the request once more. In rescue mode the
 * epoch freezes the blocks not yet frozen; in shed mode it sheds a span, whatever the burst
 * gate says (overflow-latch.ts, core/epochs/spans/spans-latch.ts).
 */
export async function retryAfterOverflow(parts: EngineParts, request: EngineRequest, prepared: Prepared, overflow: OverflowReading): Promise<OverflowOutcome> {
  const declined = (why: OverflowDeclined, detail?: string): OverflowOutcome =>
    detail === undefined ? { kind: 'declined', why, overflow } : { kind: 'declined', why, overflow, detail };
  try {
    const key = prepared.key;
    const entry = key === undefined ? undefined : parts.table.peek(key);
    if (!canRescueRefusal(prepared) || entry === undefined || key === undefined) return declined('not_rescuable');
    const api = dialectOf(prepared.route ?? 'messages');
    const kind = kindFor(entry, parts.settings.mode, api);
    const outcome = await latchAndPrepareAgain(parts, { request, prepared, entry, key, kind }, (index, meta, onFailure) => {
      const refused = { body: request.body, index, agentId: meta.agentId, window: prepared.window, sentBytes: prepared.body.length, overflow, api };
      return latchOnOverflow(parts.latch, kind, entry, refused, onFailure);
    });
    if (outcome.kind === 'declined') return declined(outcome.why, outcome.detail);
    const retry = outcome.prepared;
    // A retry no smaller than the refused request would be refused again.
    if (retry.outcome !== 'rewritten') return declined('no_smaller_body', retry.detail);
    if (retry.rescued <= stubsOf(prepared).rescued || retry.body.length >= prepared.body.length) return declined('no_smaller_body');
    return { kind: 'retry', prepared: retry, overflow };
  } catch (error) {
    return declined('internal_error', errorText(error));
  }
}

/**
 * After the API refused `prepared`, a request ctxshed changed, because a thinking block failed
 * its prefix check: latches a correction epoch (prefix-check-latch.ts) and prepares the request
 * once more, without every thinking block the conversation's edits invalidated.
 */
export async function retryAfterPrefixMismatch(parts: EngineParts, request: EngineRequest, prepared: Prepared): Promise<RetryOutcome> {
  const declined = (why: OverflowDeclined, detail?: string): RetryOutcome =>
    detail === undefined ? { kind: 'declined', why } : { kind: 'declined', why, detail };
  try {
    const key = prepared.key;
    const entry = key === undefined ? undefined : parts.table.peek(key);
    // Only a request ctxshed changed: a refusal of the client's own bytes is the client's.
    if (!canRescueRefusal(prepared) || prepared.outcome !== 'rewritten' || entry === undefined || key === undefined) return declined('not_rescuable');
    const kind = kindFor(entry, parts.settings.mode, dialectOf(prepared.route ?? 'messages'));
    const outcome = await latchAndPrepareAgain(parts, { request, prepared, entry, key, kind }, (index, _meta, onFailure) =>
      latchOnPrefixMismatch(parts.latch, entry, { body: request.body, index }, onFailure),
    );
    if (outcome.kind === 'declined') return declined(outcome.why, outcome.detail);
    const retry = outcome.prepared;
    // The retry must go without more thinking than the refused request did.
    if (retry.outcome !== 'rewritten') return declined('no_smaller_body', retry.detail);
    if ((retry.thinkingRemoved ?? 0) <= (prepared.thinkingRemoved ?? 0)) return declined('no_smaller_body');
    return { kind: 'retry', prepared: retry };
  } catch (error) {
    return declined('internal_error', errorText(error));
  }
}

/** The refused request, its preparation and its conversation, as a retry takes them. */
interface Refused {
  readonly request: EngineRequest;
  readonly prepared: Prepared;
  readonly entry: ConversationEntry;
  readonly key: string;
  readonly kind: LatchKind;
}

/** One latch on a refused body: its epoch's number, or why it declined. */
type RefusalLatch = (index: TranscriptIndex, meta: RequestMeta, onFailure: (error: unknown) => void) => Promise<OverflowLatch>;

/**
 * What a rescue after a refusal shares, whatever refused: the refused body indexed from scratch
 * (the retry serves a new epoch, which no memo serves), the latch `latch` makes on it, then the
 * request prepared once more with whatever the conversation froze by now (ours or a concurrent
 * latch's). May throw; the callers catch.
 */
async function latchAndPrepareAgain(parts: EngineParts, refused: Refused, latch: RefusalLatch): Promise<RetryOutcome> {
  const { request, prepared, entry, key, kind } = refused;
  const meta = readRequestMeta(request, parts.settings);
  const api = dialectOf(meta.route ?? 'messages');
  // An API whose key takes its index has no resumable index: its own index, from scratch.
  const indexed: IncrementalIndex = api.supports.keyFromHead
    ? indexIncrementally(request.body, undefined, commonPrefixLength)
    : { outcome: api.index(request.body) };
  if (indexed.outcome.kind === 'failed') return { kind: 'declined', why: 'not_rescuable', detail: indexed.outcome.detail };
  const { index } = indexed.outcome;
  let stateFailed = false;
  const latched = await latch(index, meta, (error) => {
    stateFailed = true;
    parts.onStateFailure(error);
  });
  if (latched.kind === 'declined') return latched;
  const retry = await applyConversation(parts.applyDeps, {
    kind,
    body: request.body,
    meta,
    entry,
    key,
    indexed,
    api,
    nowMs: parts.now().getTime(),
    found: {
      ...(latched.n === undefined ? {} : { latched: latched.n }),
      ...(stateFailed ? { stateFailed: true as const } : {}),
      ...(!kind.refaults || prepared.refaults === undefined ? {} : { refaults: prepared.refaults }),
    },
  });
  return { kind: 'retry', prepared: retry };
}
