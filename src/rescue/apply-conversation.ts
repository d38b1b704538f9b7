/**
 * Steps 6 and 7 of the engine's request path, for the conversation's kind of epoch (latch-kinds.ts),
 * also on the retry after a refusal: the conversation's frozen items snapshotted with their files
 * checked, then the body with its epochs applied by the kind's `apply` (kind-apply.ts; core/epochs/:
 * stubs for tool results, from the conversation's last rewrite when it serves; one stub message
 * per span), checked on its own output by the core; then a text brought back twice goes once
 * (apply-repeats.ts).
 */
import { epochKindInfos, hasFrozenItems, itemsOfKind, NO_ITEMS, type ApiDialect, type FrozenItems, type IncrementalIndex } from '../core/index.js';
import { viewOf, type ConversationEntry } from './conversation-table.js';
import type { Prepared } from './engine-types.js';
import type { FileAvailability } from './file-availability.js';
import type { ApplyDeps } from './kind-apply.js';
import { withRepeats } from './apply-repeats.js';
import type { LatchKind } from './latch-kind.js';
import { passthroughOf, rewrittenOf, type StepFacts } from './prepared-of.js';
import type { RequestMeta } from './request-meta.js';

export type { ApplyDeps } from './kind-apply.js';

/** One request of a conversation, indexed, as the apply needs it. */
export interface ApplyAsk {
  /** The conversation's kind (latch-kinds.ts `kindFor`): its items are applied, and the thinking any epoch removed. */
  readonly kind: LatchKind;
  readonly body: Uint8Array;
  readonly meta: RequestMeta;
  readonly entry: ConversationEntry;
  readonly key: string;
  readonly indexed: IncrementalIndex;
  readonly api: ApiDialect;
  readonly nowMs: number;
  /** What the earlier steps found (the latch or the hold, refaults), carried into the answer. */
  readonly found: StepFacts;
}

/** The body with the conversation's epochs applied as they are now, or a pass-through with its reason. */
export async function applyConversation(deps: ApplyDeps, ask: ApplyAsk): Promise<Prepared> {
  const { kind, body, meta, entry, key, indexed, api, nowMs } = ask;
  // 6. Files checked (an await: another request may latch meanwhile), then one snapshot of the
  //    epochs for both the apply and what the record and the next reading say it carried.
  let snap = snapshotOf(kind, entry, api);
  await checkFiles(deps.files, snap);
  while (!sameSnapshot(snap, snapshotOf(kind, entry, api))) {
    snap = snapshotOf(kind, entry, api);
    await checkFiles(deps.files, snap);
  }
  // No await from here to the apply: the items and `epochs` are one snapshot of the record.
  const facts: StepFacts = { ...ask.found, conversation: viewOf(entry), key, epochs: entry.record?.epochs.length ?? 0 };
  // A memo serves one epoch's frozen lists only: a new epoch makes it useless.
  const { tool_results: frozen, thinking_only: thinking } = snap;
  const memo = indexed.resumed?.memo ?? deps.memos.get(key, nowMs);
  if (memo !== undefined && (memo.frozen !== frozen || (memo.thinking !== thinking && memo.thinking.length + thinking.length > 0)))
    deps.memos.delete(key, memo);
  if (!hasFrozenItems(snap)) return passthroughOf(body, meta, 'no_epoch', 'no epoch yet', facts);
  // 7. The apply, the kind's, checked on its own output by the core.
  const { outcome, how } = kind.apply(deps, { body, indexed, api, key, nowMs }, snap);
  const applied: StepFacts = { ...facts, ...(how.rewritePath === undefined ? {} : { rewritePath: how.rewritePath }) };
  if (outcome.kind === 'passthrough') return passthroughOf(body, meta, outcome.reason, outcome.detail, { ...applied, skipped: outcome.skipped });
  // 8. A text brought back twice goes once: the later copy as a pointer to the earlier (apply-repeats.ts).
  const repeated = await withRepeats(deps, { body: outcome.body, api, items: entry.items, record: entry.record });
  const sent = repeated.repeats === 0 ? outcome : { ...outcome, body: repeated.body };
  return rewrittenOf(sent, meta, { ...applied, ...(repeated.repeats === 0 ? {} : { repeats: repeated.repeats }) });
}

/** One snapshot of a conversation's frozen items, taken between awaits: the kind's own, and thinking. */
type Snapshot = FrozenItems;

// The kind's items as the conversation holds them now, and the thinking any epoch removed where the
// API has thinking. NO_ITEMS' empty lists, not fresh ones, so that an unchanged conversation
// compares equal and the loop above ends.
function snapshotOf(kind: LatchKind, entry: ConversationEntry, api: ApiDialect): Snapshot {
  const { items } = entry;
  return {
    ...NO_ITEMS,
    [kind.tag]: items[kind.tag],
    thinking_only: api.supports.thinking ? items.thinking_only : NO_ITEMS.thinking_only,
  };
}

function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  return (Object.keys(a) as (keyof Snapshot)[]).every((kind) => a[kind] === b[kind]);
}

// No stub may name a file that is not there, and no thinking block goes whose file is not there.
async function checkFiles(files: FileAvailability, snap: Snapshot): Promise<void> {
  await Promise.all(epochKindInfos().map((kind) => files.checkItems(kind, itemsOfKind(snap, kind.tag))));
}
