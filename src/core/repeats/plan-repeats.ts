/**
 * The rewrite of a body's repeats (find-repeats.ts): each later copy's `content` value becomes its
 * pointer (repeat-pointer.ts), and the files that keep its exact bytes are planned for the edge to
 * make durable before the pointer is sent. Then the apply, which checks its own output. Only the
 * content values of repeats change (docs/design.md invariant 4); a body whose output does not check
 * gets no pointer at all (fail open). Pure.
 */
import { blockText, isCanonicalContent } from '../block-text.js';
import { encodeJsonString } from '../json-string.js';
import type { PlannedFile } from '../plan-record.js';
import type { Sha256 } from '../ports.js';
import { applySplices, planSplices, type Splice } from '../splices.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { decodeJsonString } from '../json-string.js';
import type { Repeat } from './find-repeats.js';
import { parseRepeatPointer, renderRepeatPointer, type RepeatPointer } from './repeat-pointer.js';

/** One repeat, ready to send: where its content value lies, the value that replaces it, the files it names. */
export interface PlannedRepeat {
  readonly ordinal: number;
  readonly toolUseId: string;
  readonly splice: Splice;
  readonly pointer: RepeatPointer;
  /** Its text (`txt`) and, when the text does not rebuild the value, the value's exact JSON (`json`). */
  readonly files: readonly PlannedFile[];
}

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder('utf-8');

/** The pointer and files of each repeat; one whose content cannot be read is left as it is. */
export function planRepeats(body: Uint8Array, index: TranscriptIndex, repeats: readonly Repeat[], elidedDir: string, sha256: Sha256): PlannedRepeat[] {
  const planned: PlannedRepeat[] = [];
  for (const { later, earlier } of repeats) {
    const block = index.toolResults[later.ordinal];
    if (block === undefined || block.toolUseId !== later.toolUseId) continue;
    const text = blockText(body, block);
    if (text === undefined) continue;
    const textSha = sha256(text);
    const files: PlannedFile[] = [{ sha256: textSha, bytes: text, ext: 'txt' }];
    let rawSha256: string | undefined;
    if (!isCanonicalContent(body, block, text)) {
      const raw = body.slice(block.content.start, block.content.end);
      rawSha256 = sha256(raw);
      files.push({ sha256: rawSha256, bytes: raw, ext: 'json' });
    }
    const pointer: RepeatPointer = {
      lead: later.lead,
      bytes: text.length,
      sha256: textSha,
      ...(rawSha256 === undefined ? {} : { rawSha256 }),
      earlier: earlier.map((e) => e.toolUseId),
    };
    const value = encodeJsonString(ENCODER.encode(renderRepeatPointer(pointer, elidedDir)));
    planned.push({
      ordinal: later.ordinal,
      toolUseId: later.toolUseId,
      splice: { start: block.content.start, end: block.content.end, bytes: value },
      pointer,
      files,
    });
  }
  return planned;
}

/** The body with `repeats` applied, checked; or why not (the caller sends the body as it was). */
export type RepeatsApplied =
  | { readonly kind: 'applied'; readonly body: Uint8Array; readonly count: number }
  | { readonly kind: 'failed'; readonly why: string };

/**
 * Replaces each repeat's content value with its pointer, in one copy, and checks the output: it
 * indexes (`reindex`), has the input's messages and tool_results (every byte outside the repeats'
 * values is copied, in one splice plan), and each replaced value reads back as its pointer.
 */
export function applyRepeats(
  body: Uint8Array,
  index: TranscriptIndex,
  repeats: readonly PlannedRepeat[],
  reindex: (body: Uint8Array) => TranscriptIndex | undefined,
): RepeatsApplied {
  const splices = planSplices(
    repeats.map((r) => r.splice),
    body.length,
  );
  if (splices === undefined) return { kind: 'failed', why: 'overlapping repeats' };
  const out = applySplices(body, splices);
  const after = reindex(out);
  if (after === undefined) return { kind: 'failed', why: 'the output does not index' };
  if (after.messages.length !== index.messages.length || after.toolResults.length !== index.toolResults.length) {
    return { kind: 'failed', why: 'the output has other messages or tool_results' };
  }
  for (const repeat of repeats) {
    const block = after.toolResults[repeat.ordinal];
    if (block?.toolUseId !== repeat.toolUseId || block.content.kind !== 'string') return { kind: 'failed', why: `tool_result ${repeat.ordinal} moved` };
    const text = decodeJsonString(out, block.content.start, block.content.end);
    const read = text === undefined ? undefined : parseRepeatPointer(DECODER.decode(text));
    if (read?.sha256 !== repeat.pointer.sha256) return { kind: 'failed', why: `tool_result ${repeat.ordinal} does not read back as its pointer` };
  }
  return { kind: 'applied', body: out, count: repeats.length };
}
