/**
 * Steps 6 and 7 of the engine's request path, for either kind of epoch, also on the retry after a
 * refusal: the conversation's frozen lists snapshotted with their files checked, then the body
 * with its epochs applied (core/epochs/: stubs for tool results, from the conversation's last
 * rewrite when it serves; one stub message per span), checked on its own output by the core.
 */
import {
  applyEpochs,
  hasFrozenItems,
  NO_ITEMS,
  rewriteIncrementally,
  SPANS,
  type ApiDialect,
  type EpochMode,
  type EpochOutcome,
  type FrozenItems,
  type FrozenThinking,
  type IncrementalIndex,
  type MemoCache,
  type SkippedBlock,
  type SkippedSpan,
} from '../core/index.js';
import type { StateDir } from '../state/layout.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { viewOf, type ConversationEntry } from './conversation-table.js';
import type { Prepared } from './engine-types.js';
import type { FileAvailability } from './file-availability.js';
import { passthroughOf, preparedOf, thinkingFacts } from './prepared-of.js';
import type { RequestMeta } from './request-meta.js';
import type { StubDirs } from './stub-dirs.js';

/** What the apply reads and keeps besides the request: the engine's state, file checks and rewrite memos. */
export interface ApplyDeps {
  readonly state: StateDir;
  readonly files: FileAvailability;
  readonly memos: MemoCache;
  /** What the stubs name (stub-dirs.ts): the state's folders, or a gateway's restore tool. */
  readonly stubs: StubDirs;
}

/** One request of a conversation, indexed, as the apply needs it. */
export interface ApplyAsk {
  readonly mode: EpochMode;
  readonly body: Uint8Array;
  readonly meta: RequestMeta;
  readonly entry: ConversationEntry;
  readonly key: string;
  readonly indexed: IncrementalIndex;
  readonly api: ApiDialect;
  readonly nowMs: number;
  /** What the earlier steps found (the latch, the hold, refaults), carried into the answer. */
  readonly extra: Partial<Prepared>;
}

/** The body with the conversation's epochs applied as they are now, or a pass-through with its reason. */
export async function applyConversation(deps: ApplyDeps, ask: ApplyAsk): Promise<Prepared> {
  const { mode, body, meta, entry, key, indexed, api, nowMs } = ask;
  // 6. Files checked (an await: another request may latch meanwhile), then one snapshot of the
  //    epochs for both the apply and what the record and the next reading say it carried.
  let snap = snapshotOf(mode, entry, api);
  await checkFiles(deps.files, snap);
  while (!sameSnapshot(snap, snapshotOf(mode, entry, api))) {
    snap = snapshotOf(mode, entry, api);
    await checkFiles(deps.files, snap);
  }
  // No await from here to the apply: the lists and `epochs` are one snapshot of the record.
  const { tool_results: frozen, thinking_only: thinking } = snap;
  const common: Partial<Prepared> = { conversation: viewOf(entry), key, epochs: entry.record?.epochs.length ?? 0, ...ask.extra };
  // A memo serves one epoch's frozen lists only: a new epoch makes it useless.
  const memo = indexed.resumed?.memo ?? deps.memos.get(key, nowMs);
  if (memo !== undefined && (memo.frozen !== frozen || (memo.thinking !== thinking && memo.thinking.length + thinking.length > 0)))
    deps.memos.delete(key, memo);
  if (!hasFrozenItems(snap)) return passthroughOf(body, meta, 'no_epoch', 'no epoch yet', common);
  // 7. The apply, checked on its own output by the core.
  const { outcome, how } = applySnapshot(deps, ask, snap);
  if (outcome.kind === 'passthrough') return passthroughOf(body, meta, outcome.reason, outcome.detail, { ...common, ...how, skipped: outcome.skipped });
  return {
    ...preparedOf(outcome.body, meta),
    ...common,
    ...how,
    rescued: outcome.stubs,
    bytesElided: outcome.bytesTaken,
    skipped: outcome.skipped,
    ...thinkingFacts(outcome),
  };
}

// Tool results go from the memo when it serves, with exactly the outcome of a rewrite from scratch.
function applySnapshot(
  deps: ApplyDeps,
  ask: ApplyAsk,
  snap: Snapshot,
): { readonly outcome: EpochOutcome<SkippedBlock | SkippedSpan>; readonly how: Partial<Prepared> } {
  const { body, indexed, api, key, nowMs } = ask;
  const shared = {
    sha256: sha256Hex,
    // A Buffer, not a plain Uint8Array: the self-check's scan leans on Buffer's fast indexOf.
    allocate: (n: number) => Buffer.allocUnsafe(n),
    api,
    thinking: snap.thinking_only,
    isThinkingAvailable: (t: FrozenThinking) => deps.files.hasThinking(t),
  };
  if (ask.mode === 'shed') {
    const index = indexed.outcome.kind === 'indexed' ? { index: indexed.outcome.index } : {};
    const spansDir = deps.stubs.spansDir;
    return { outcome: applyEpochs(SPANS, body, snap.span, { ...shared, ...index, spansDir, isAvailable: (s) => deps.files.hasSpan(s) }), how: {} };
  }
  const options = { ...shared, elidedDir: deps.stubs.elidedDir, isAvailable: (b: Parameters<FileAvailability['has']>[0]) => deps.files.has(b) };
  const rewrite = rewriteIncrementally(body, snap.tool_results, options, indexed);
  if (rewrite.memo !== undefined) deps.memos.set(key, rewrite.memo, nowMs);
  return { outcome: rewrite.outcome, how: { rewritePath: rewrite.path } };
}

/** One snapshot of a conversation's frozen items, taken between awaits: the kinds the mode applies. */
type Snapshot = FrozenItems;

// The mode's kind's items as the conversation holds them now (thinking only where the API has it).
// NO_ITEMS' empty lists, not fresh ones, so that an unchanged conversation compares equal and the loop above ends.
function snapshotOf(mode: EpochMode, entry: ConversationEntry, api: ApiDialect): Snapshot {
  const { items } = entry;
  return {
    tool_results: mode === 'shed' ? NO_ITEMS.tool_results : items.tool_results,
    span: mode === 'shed' ? items.span : NO_ITEMS.span,
    thinking_only: api.supports.thinking ? items.thinking_only : NO_ITEMS.thinking_only,
  };
}

function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  return (Object.keys(a) as (keyof Snapshot)[]).every((kind) => a[kind] === b[kind]);
}

// No stub may name a file that is not there, and no thinking block goes whose file is not there.
async function checkFiles(files: FileAvailability, snap: Snapshot): Promise<void> {
  await Promise.all([files.check(snap.tool_results), files.checkSpans(snap.span), files.checkThinking(snap.thinking_only)]);
}
