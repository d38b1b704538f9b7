/**
 * Inflate's first step: the answers ctxshed sent as a pointer to an earlier copy of their text
 * (docs/shed.md, "A text is carried once") get their exact bytes back from elided/. Text that only
 * looks like a pointer is the client's own: a pointer is put back only where the rewrite, run again
 * on the rebuilt body, makes exactly that pointer (core/repeats/). Then the other stubs are put back
 * as before (inflate-from-state.ts).
 */
import {
  applyInflate,
  findRepeatPointers,
  findRepeats,
  frozenItemsOf,
  frozenShas,
  indexAnyApi,
  planRepeats,
  repeatContent,
  type ConversationRecord,
  type FoundRepeat,
  type TranscriptIndex,
} from '../core/index.js';
import { bytesEqual } from '../core/block-text.js';
import type { StateDir } from './layout.js';
import { sha256Hex } from './sha256-hex.js';

/** Reads an elided file by sha256 and extension, its hash checked (inflate-from-state.ts's reader). */
export type ReadElided = (sha256: string, ext: 'txt' | 'json') => Promise<Uint8Array>;

/** The body with every pointer ctxshed made put back, and how many. */
export async function inflateRepeats(
  state: StateDir,
  body: Uint8Array,
  index: TranscriptIndex,
  records: readonly ConversationRecord[],
  read: ReadElided,
): Promise<{ readonly body: Uint8Array; readonly repeats: number }> {
  const found = findRepeatPointers(body, index);
  if (found.length === 0) return { body, repeats: 0 };
  const restored = await Promise.all(
    found.map(async (f) => {
      const text = await read(f.pointer.sha256, 'txt');
      const raw = f.pointer.rawSha256 === undefined ? undefined : await read(f.pointer.rawSha256, 'json');
      return { found: f, content: repeatContent(f.pointer, text, raw) };
    }),
  );
  const rebuilt = applyInflate(body, restored);
  const confirmed = confirmedOf(state, rebuilt, found, records);
  if (confirmed.size === found.length) return { body: rebuilt, repeats: found.length };
  return {
    body: applyInflate(
      body,
      restored.filter((r) => confirmed.has(r.found)),
    ),
    repeats: confirmed.size,
  };
}

/** The found pointers the rewrite makes again, byte for byte, on the rebuilt body. */
function confirmedOf(state: StateDir, rebuilt: Uint8Array, found: readonly FoundRepeat[], records: readonly ConversationRecord[]): Set<FoundRepeat> {
  const { outcome } = indexAnyApi(rebuilt);
  if (outcome.kind !== 'indexed') return new Set();
  const stored = new Set<string>();
  for (const record of records) for (const sha of frozenShas(frozenItemsOf(record))) stored.add(sha);
  const planned = planRepeats(rebuilt, outcome.index, findRepeats(rebuilt, outcome.index, stored), state.elidedDir, sha256Hex);
  const byOrdinal = new Map(planned.map((p) => [p.ordinal, p]));
  const confirmed = new Set<FoundRepeat>();
  for (const f of found) {
    const again = byOrdinal.get(f.ordinal);
    if (again !== undefined && bytesEqual(again.splice.bytes, f.valueBytes)) confirmed.add(f);
  }
  return confirmed;
}
