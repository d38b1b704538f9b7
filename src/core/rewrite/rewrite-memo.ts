/**
 * What the last rewrite of a conversation learned, kept so the next request's rewrite costs what
 * is new (incremental-rewrite.ts): the bytes it read and wrote, both indexes, and what each
 * frozen block came to. A memo is made only from an output that passed the rewrite's check.
 */
import type { FrozenBlock } from '../epoch-types.js';
import type { Sha256 } from '../ports.js';
import type { BlockVerdict } from '../epochs/tool-results/tool-results.js';
import type { FrozenThinking, ThinkingVerdict } from '../thinking/thinking-types.js';
import type { ResumableIndex, TranscriptIndex } from '../transcript-index-types.js';

/** One conversation's last rewrite. Plain data; it owns its two bodies: nobody may change them. */
export interface RewriteMemo {
  readonly input: Uint8Array;
  readonly inputIndex: ResumableIndex;
  /** The output, checked (in full, or from a boundary after an earlier memo's checked output). */
  readonly output: Uint8Array;
  readonly outputIndex: ResumableIndex;
  /** The frozen list as the caller passed it; a memo serves that very list only. */
  readonly frozen: readonly FrozenBlock[];
  /** Its entries when the memo was made, to notice a list changed in place. */
  readonly frozenEntries: readonly FrozenBlock[];
  readonly elidedDir: string;
  readonly sha256: Sha256;
  /** Each frozen block's verdict, in the order of `frozen`. */
  readonly verdicts: readonly BlockVerdict[];
  /** The frozen thinking list as the caller passed it (a memo serves that very list only), and each one's verdict. */
  readonly thinking: readonly FrozenThinking[];
  readonly thinkingVerdicts: readonly ThinkingVerdict[];
  /** About how much memory the memo holds, in bytes (the memo cache's cap counts these). */
  readonly bytes: number;
}

/** What a memo is made of (all but its size, which is estimated). */
export type MemoParts = Omit<RewriteMemo, 'bytes' | 'frozenEntries'>;

/** A rough size of one index entry (message, block or tool result) in memory, in bytes. */
export const INDEX_ENTRY_BYTES = 160;

/** A memo from its parts, with its size estimated. */
export function createMemo(parts: MemoParts): RewriteMemo {
  const bytes = parts.input.byteLength + parts.output.byteLength + indexBytes(parts.inputIndex.index) + indexBytes(parts.outputIndex.index);
  return { ...parts, frozenEntries: [...parts.frozen], bytes };
}

/**
 * Whether the memo was made for this frozen list, elided directory and hash, and still holds the
 * bodies it indexed. Anything else the output depends on (which elided files exist) is checked
 * per block by the incremental rewrite.
 */
export function memoServes(
  memo: RewriteMemo,
  frozen: readonly FrozenBlock[],
  elidedDir: string,
  sha256: Sha256,
  thinking: readonly FrozenThinking[] = NO_FROZEN_THINKING,
): boolean {
  if (memo.frozen !== frozen || memo.elidedDir !== elidedDir || memo.sha256 !== sha256) return false;
  if (memo.thinking !== thinking && !(memo.thinking.length === 0 && thinking.length === 0)) return false;
  if (memo.thinkingVerdicts.length !== thinking.length) return false;
  if (memo.frozenEntries.length !== frozen.length || memo.verdicts.length !== frozen.length) return false;
  for (let i = 0; i < frozen.length; i++) if (memo.frozenEntries[i] !== frozen[i]) return false;
  // A detached or replaced buffer would no longer match its index.
  return memo.input.length === memo.inputIndex.index.byteLength && memo.output.length === memo.outputIndex.index.byteLength;
}

const NO_FROZEN_THINKING: readonly FrozenThinking[] = [];

function indexBytes(index: TranscriptIndex): number {
  let blocks = 0;
  for (const m of index.messages) blocks += m.blocks.length;
  return (index.messages.length + blocks + index.toolResults.length) * INDEX_ENTRY_BYTES;
}
