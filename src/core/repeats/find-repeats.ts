/**
 * Which answers bring back a text that already stands, whole, in another answer of the same
 * request (docs/shed.md, "A text is carried once"): a restore answer and a Read of the same
 * original, two Reads of one file, two restores of one handle. The later copy is the repeat, and
 * the earlier ones it lies in (one answer, or a run of restore pages or Read pages that meet) stay;
 * among the answers of one message, which arrive at once, the longer copy stays and the one it
 * holds goes. A decision about an answer reads only its own message and those before it, so it is
 * the same in every later request of the conversation: a repeat is one the first time it is sent
 * and from then on. Pure.
 */
import { blockText } from '../block-text.js';
import { shasReadBack } from '../detect-refaults.js';
import { readToolCalls, type ToolCall } from '../read-tool-calls.js';
import { isRestoreCall } from '../shed/restore-call.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { copyOf, type BroughtBackCopy } from './brought-back-copy.js';

/** A text shorter than this is sent again as it is: a pointer would save next to nothing. */
export const REPEAT_MIN_CHARS = 1024;

/** One repeat: the copy that goes, and the ones whose text holds it whole (before it, or beside it in its message). */
export interface Repeat {
  readonly later: BroughtBackCopy;
  /** Never a repeat themselves. */
  readonly earlier: readonly BroughtBackCopy[];
}

/** Reads a body's calls by id (the API dialect's `calls`). */
export type RepeatCallReader = (body: Uint8Array, index: TranscriptIndex) => ReadonlyMap<string, ToolCall>;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The repeats of a body, in document order: answers of calls that brought back one of `stored`
 * (the sha256s the conversation's epochs froze) whose text lies whole in earlier answers that
 * brought back the same original. Never throws: a body it cannot read has none.
 */
export function findRepeats(body: Uint8Array, index: TranscriptIndex, stored: ReadonlySet<string>, readCalls: RepeatCallReader = readToolCalls): Repeat[] {
  try {
    if (stored.size === 0) return [];
    const calls = [...readCalls(body, index).values()].filter(isRestoreCall);
    if (calls.length < 2) return [];
    const byId = new Map<string, { call: ToolCall; sha256: string }>();
    for (const call of calls) {
      const shas = shasReadBack(call, stored);
      if (shas.length === 1) byId.set(call.id, { call, sha256: shas[0]! });
    }
    if (byId.size < 2) return [];
    const copies: BroughtBackCopy[] = [];
    for (const result of index.toolResults) {
      const found = byId.get(result.toolUseId);
      if (found === undefined) continue;
      const bytes = blockText(body, result);
      if (bytes === undefined) continue;
      const copy = copyOf(found.call, result, found.sha256, UTF8.decode(bytes));
      if (copy !== undefined) copies.push(copy);
    }
    const seen = new Map<string, BroughtBackCopy[]>();
    const repeats: Repeat[] = [];
    for (let from = 0; from < copies.length; ) {
      // One message's answers came at once: within it, the longer copy stays and the one it holds goes.
      let to = from;
      while (to < copies.length && copies[to]!.messageIndex === copies[from]!.messageIndex) to++;
      const message = copies.slice(from, to);
      const kept = new Set<BroughtBackCopy>();
      for (const copy of [...message].sort((a, b) => b.text.length - a.text.length || a.ordinal - b.ordinal)) {
        const before = [...(seen.get(copy.sha256) ?? []), ...message.filter((c) => kept.has(c) && c.sha256 === copy.sha256)];
        const holding = copy.text.length >= REPEAT_MIN_CHARS ? holdersOf(copy, before) : undefined;
        if (holding !== undefined) repeats.push({ later: copy, earlier: holding });
        else kept.add(copy);
      }
      for (const copy of message) if (kept.has(copy)) seen.set(copy.sha256, [...(seen.get(copy.sha256) ?? []), copy]);
      from = to;
    }
    repeats.sort((a, b) => a.later.ordinal - b.later.ordinal);
    return repeats;
  } catch {
    return [];
  }
}

/** The earlier copies whose text holds `copy`'s whole: one of them, or a run of pages that meet. */
function holdersOf(copy: BroughtBackCopy, before: readonly BroughtBackCopy[]): BroughtBackCopy[] | undefined {
  const one = before.find((b) => b.text.includes(copy.text));
  if (one !== undefined) return [one];
  for (const via of ['restore', 'read'] as const) {
    for (const run of runsOf(before.filter((b) => b.via === via))) if (run.text.includes(copy.text)) return run.copies;
  }
  return undefined;
}

interface Run {
  readonly copies: BroughtBackCopy[];
  text: string;
  end: number;
}

/**
 * Copies of one kind joined where their ranges meet or overlap: restore pages by characters (text
 * is cut where the next page starts), Read pages by lines (joined by the line break between).
 */
function runsOf(copies: readonly BroughtBackCopy[]): Run[] {
  const sorted = [...copies].sort((a, b) => a.start - b.start || b.end - a.end);
  const runs: Run[] = [];
  for (const copy of sorted) {
    const run = runs.at(-1);
    if (run === undefined || copy.start > run.end) {
      runs.push({ copies: [copy], text: copy.text, end: copy.end });
      continue;
    }
    if (copy.end <= run.end) continue;
    if (copy.via === 'restore') run.text += copy.text.slice(run.end - copy.start);
    else
      run.text += `\n${copy.text
        .split('\n')
        .slice(run.end - copy.start)
        .join('\n')}`;
    run.copies.push(copy);
    run.end = copy.end;
  }
  return runs.filter((r) => r.copies.length > 1);
}
