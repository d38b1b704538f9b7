/**
 * Inflate: rebuild the original request from a rewritten one (docs/design.md invariant 5). The core
 * finds the stubs of every kind (tool results here, spans in spans/find-span-stubs.ts) and splices the
 * originals back in one plan; the edge reads the files.
 */
import { decodeJsonString, encodeJsonString } from '../json-string.js';
import { applySplices, planSplices } from '../splices.js';
import { looksLikeStub, parseStub, type ParsedStub } from '../stub.js';
import type { TranscriptIndex } from '../transcript-index.js';
import type { FoundAt } from './epoch-applier.js';

/** A stub found in a rewritten body. */
export interface FoundStub {
  readonly ordinal: number;
  readonly start: number;
  readonly end: number;
  readonly stub: ParsedStub;
}

const UTF8 = new TextDecoder('utf-8');

/** Every tool_result whose content is a ctxshed stub, in order. */
export function findStubs(body: Uint8Array, index: TranscriptIndex): FoundStub[] {
  const found: FoundStub[] = [];
  for (const block of index.toolResults) {
    if (block.content.kind !== 'string') continue;
    const token = body.subarray(block.content.start, block.content.end);
    if (!looksLikeStub(token)) continue;
    const text = decodeJsonString(body, block.content.start, block.content.end);
    const stub = text === undefined ? undefined : parseStub(UTF8.decode(text));
    if (stub !== undefined) found.push({ ordinal: block.ordinal, start: block.content.start, end: block.content.end, stub });
  }
  return found;
}

/**
 * The original content value a stub stands for: the kept JSON bytes when the stub names them,
 * else the canonical JSON string of the text (what the client wrote in the first place).
 */
export function restoredContent(stub: ParsedStub, text: Uint8Array, raw: Uint8Array | undefined): Uint8Array {
  return stub.rawSha256 === undefined ? encodeJsonString(text) : (raw ?? new Uint8Array(0));
}

/**
 * The body with each found stub (of any kind: a tool result's content value, a span's stub
 * message) replaced by the original bytes it stands for, in one splice plan. Throws when stubs overlap.
 */
export function applyInflate(body: Uint8Array, restored: ReadonlyArray<{ readonly found: FoundAt; readonly content: Uint8Array }>): Uint8Array {
  const splices = planSplices(
    restored.map((r) => ({ start: r.found.start, end: r.found.end, bytes: r.content })),
    body.length,
  );
  if (splices === undefined) throw new Error('stubs overlap');
  return applySplices(body, splices);
}
