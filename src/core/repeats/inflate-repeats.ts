/**
 * Inflate's side of the repeats (docs/design.md invariant 5): every pointer in a body, and the
 * content value each one stands for, from the text (or exact JSON) its file keeps. Text that only
 * looks like a pointer is the client's own: the edge puts back only the pointers that the rewrite
 * itself would make again on the rebuilt body (state/inflate-from-state.ts). Pure.
 */
import { decodeJsonString, encodeJsonString } from '../json-string.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import { parseRepeatPointer, REPEAT_PREFIX, type RepeatPointer } from './repeat-pointer.js';

/** A pointer found in a body: its tool_result and where its content value lies. */
export interface FoundRepeat {
  readonly ordinal: number;
  readonly toolUseId: string;
  readonly start: number;
  readonly end: number;
  /** The content value's bytes as found (the JSON string of the pointer). */
  readonly valueBytes: Uint8Array;
  readonly pointer: RepeatPointer;
}

const DECODER = new TextDecoder('utf-8');
const ENCODER = new TextEncoder();
/** How a pointer's value may begin: its own line, a restore's header, or a Read's notice (repeat-pointer.ts). */
const STARTS = [`"${REPEAT_PREFIX}`, '"[ctxshed restore: ', '"<system-reminder>'].map((s) => ENCODER.encode(s));

/** Every tool_result whose content is a repeat's pointer, in order. */
export function findRepeatPointers(body: Uint8Array, index: TranscriptIndex): FoundRepeat[] {
  const found: FoundRepeat[] = [];
  for (const block of index.toolResults) {
    const { content } = block;
    if (content.kind !== 'string' || !STARTS.some((p) => startsWith(body, content.start, p))) continue;
    const text = decodeJsonString(body, content.start, content.end);
    const pointer = text === undefined ? undefined : parseRepeatPointer(DECODER.decode(text));
    if (pointer === undefined) continue;
    found.push({
      ordinal: block.ordinal,
      toolUseId: block.toolUseId,
      start: content.start,
      end: content.end,
      valueBytes: body.slice(content.start, content.end),
      pointer,
    });
  }
  return found;
}

/** The content value a pointer stands for: the kept JSON when it names one, else its text as a JSON string. */
export function repeatContent(pointer: RepeatPointer, text: Uint8Array, raw: Uint8Array | undefined): Uint8Array {
  return pointer.rawSha256 === undefined ? encodeJsonString(text) : (raw ?? new Uint8Array(0));
}

function startsWith(body: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (body.length - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (body[at + i] !== prefix[i]) return false;
  return true;
}
