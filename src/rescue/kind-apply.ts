/**
 * What a kind's apply step is handed (latch-kind.ts `apply`): the engine's state, file checks and
 * rewrite memos, the request, and one snapshot of the conversation's frozen items; it gives the
 * body with the kind's epochs applied (and the thinking the snapshot names removed), checked on its
 * own output by the core (core/epochs/). apply-conversation.ts runs it for the conversation's kind.
 */
import {
  EPOCH_KIND_INFO,
  type ApiDialect,
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
import type { RewritePath } from './engine-types.js';
import type { FileAvailability } from './file-availability.js';
import type { StubDirs } from './stub-dirs.js';

/** What the apply reads and keeps besides the request: the engine's state, file checks and rewrite memos. */
export interface ApplyDeps {
  readonly state: StateDir;
  readonly files: FileAvailability;
  readonly memos: MemoCache;
  /** What the stubs name (stub-dirs.ts): the state's folders, or a gateway's restore tool. */
  readonly stubs: StubDirs;
}

/** The request, as a kind's apply reads it. */
export interface KindApplyAsk {
  readonly body: Uint8Array;
  readonly indexed: IncrementalIndex;
  readonly api: ApiDialect;
  readonly key: string;
  readonly nowMs: number;
}

/** The applied body's outcome, and how it was made (the tool-result kind says whether from its memo). */
export interface KindApplied {
  readonly outcome: EpochOutcome<SkippedBlock | SkippedSpan>;
  readonly how: { readonly rewritePath?: RewritePath };
}

/** One kind's apply step. */
export type KindApply = (deps: ApplyDeps, ask: KindApplyAsk, snap: FrozenItems) => KindApplied;

/** What every kind's apply hands the core alike: the hash, the output buffer, the API, the thinking to remove. */
export function sharedApplyOptions(deps: ApplyDeps, api: ApiDialect, snap: FrozenItems) {
  return {
    sha256: sha256Hex,
    // A Buffer, not a plain Uint8Array: the self-check's scan leans on Buffer's fast indexOf.
    allocate: (n: number) => Buffer.allocUnsafe(n),
    api,
    thinking: snap.thinking_only,
    isThinkingAvailable: (t: FrozenThinking) => deps.files.hasItem(EPOCH_KIND_INFO.thinking_only, t),
  };
}
