/**
 * Inflate for removed thinking blocks: put each one back where it was, with the separator its
 * removal took, so the client's original comes back byte for byte. The edge reads the blocks'
 * files (`<state>/thinking/<sha256>.json`) and checks their hashes. Pure.
 */
import { applySplices, planSplices, type Splice } from '../splices.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { FrozenThinking } from './thinking-types.js';

/** A removed block and its exact bytes, to put back. */
export interface RestoredThinking {
  readonly frozen: FrozenThinking;
  readonly bytes: Uint8Array;
}

const ENCODER = new TextEncoder();

/**
 * The body with `restored` put back at their original positions (`messageIndex`, `blockIndex`
 * of the body before removal; `body` has every other block). `undefined` when they do not fit
 * the body (a message missing, or too few blocks left around them).
 */
export function reinsertThinking(body: Uint8Array, index: TranscriptIndex, restored: readonly RestoredThinking[]): Uint8Array | undefined {
  const byMessage = new Map<number, RestoredThinking[]>();
  for (const r of restored) byMessage.set(r.frozen.messageIndex, [...(byMessage.get(r.frozen.messageIndex) ?? []), r]);
  const splices: Splice[] = [];
  for (const [m, list] of byMessage) {
    const message = index.messages[m];
    if (message === undefined || message.content.kind !== 'array') return undefined;
    const sorted = [...list].sort((a, b) => a.frozen.blockIndex - b.frozen.blockIndex);
    const removedAt = new Set(sorted.map((r) => r.frozen.blockIndex));
    if (removedAt.size !== sorted.length) return undefined;
    for (let r = 0; r < sorted.length; ) {
      let last = r;
      while (last + 1 < sorted.length && sorted[last + 1]!.frozen.blockIndex === sorted[last]!.frozen.blockIndex + 1) last++;
      const run = sorted.slice(r, last + 1);
      const first = run[0]!.frozen.blockIndex;
      // The kept block beside the run, as the body now numbers it.
      const keptBefore = (original: number): number => original - sorted.filter((x) => x.frozen.blockIndex < original).length;
      if (first > 0) {
        const neighbour = message.blocks[keptBefore(first - 1)];
        if (neighbour === undefined) return undefined;
        splices.push({ start: neighbour.end, end: neighbour.end, bytes: joined(run.flatMap((x) => [sep(x.frozen.sepBefore), x.bytes])) });
      } else {
        const neighbour = message.blocks[0];
        if (neighbour === undefined) return undefined;
        splices.push({ start: neighbour.start, end: neighbour.start, bytes: joined(run.flatMap((x) => [x.bytes, sep(x.frozen.sepAfter)])) });
      }
      r = last + 1;
    }
  }
  const planned = planSplices(splices, body.length);
  return planned === undefined ? undefined : applySplices(body, planned);
}

function sep(recorded: string | undefined): Uint8Array {
  return ENCODER.encode(recorded ?? ',');
}

function joined(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
