/**
 * The repeats' hook into the apply step (docs/shed.md, "A text is carried once"): once the
 * conversation's epochs are applied, each answer that brings back text already standing, whole, in
 * an earlier answer of the request becomes a pointer to it (core/repeats/). Its exact bytes are made
 * durable in elided/ before the pointer is sent, so `inflate` rebuilds the client's body. Only on
 * the state directory, and only once some stored text was brought back twice (the record's
 * `bringBacks`, counted before the apply); the copies compared are Claude Code's (the restore tool,
 * Read), so an OpenAI client's shell calls bring none. Fails open: anything that goes wrong sends
 * the body the epochs made, repeats and all.
 */
import { applyRepeats, findRepeats, frozenShas, planRepeats, type ApiDialect, type ConversationRecord, type FrozenItems } from '../core/index.js';
import { sha256Hex } from '../state/sha256-hex.js';
import type { ApplyDeps } from './kind-apply.js';

/** What the hook reads: the body the epochs made, the conversation's items and record, its API. */
export interface RepeatsAsk {
  readonly body: Uint8Array;
  readonly api: ApiDialect;
  readonly items: FrozenItems;
  readonly record: ConversationRecord | undefined;
}

/** The body with its repeats as pointers, and how many; the body as it was (0) when there are none or anything fails. */
export async function withRepeats(deps: ApplyDeps, ask: RepeatsAsk): Promise<{ readonly body: Uint8Array; readonly repeats: number }> {
  const unchanged = { body: ask.body, repeats: 0 };
  if (!broughtBackTwice(ask.record)) return unchanged;
  try {
    const indexed = ask.api.index(ask.body);
    if (indexed.kind !== 'indexed') return unchanged;
    const { index } = indexed;
    const found = findRepeats(ask.body, index, frozenShas(ask.items), ask.api.calls);
    if (found.length === 0) return unchanged;
    const planned = planRepeats(ask.body, index, found, deps.stubs.elidedDir, sha256Hex);
    // Every pointer names a file that exists, durably, before it is sent (invariant 5).
    const kept = await deps.files.keepRepeats(planned.flatMap((p) => p.files));
    if (!kept || planned.length === 0) return unchanged;
    const applied = applyRepeats(ask.body, index, planned, (out) => {
      const again = ask.api.index(out);
      return again.kind === 'indexed' ? again.index : undefined;
    });
    return applied.kind === 'applied' ? { body: applied.body, repeats: applied.count } : unchanged;
  } catch {
    return unchanged;
  }
}

/** Whether the record counted some stored text brought back twice or more: only then can a request hold a repeat. */
function broughtBackTwice(record: ConversationRecord | undefined): boolean {
  return Object.values(record?.bringBacks ?? {}).some((n) => n >= 2);
}
