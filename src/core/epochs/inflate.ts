/**
 * Inflate: rebuild the original request from a rewritten one (docs/design.md invariant 5). The core
 * finds the stubs of every kind (tool results here, spans in spans/find-span-stubs.ts) and splices the
 * originals back in one plan; the edge reads the files.
 */
import { isPart, type FrozenBlock, type FrozenPart } from '../epoch-types.js';
import { valueAtPath } from '../json-paths.js';
import { skipWhitespace } from '../json-scan.js';
import { decodeJsonString, encodeJsonString } from '../json-string.js';
import { parsePartStub, type ParsedPartStub } from '../part-stub.js';
import { applySplices, planSplices } from '../splices.js';
import { looksLikeStub, parseStub, type ParsedStub } from '../stub.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
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

/** A part's stub found in a rewritten body: the string token inflate puts the original back over. */
export interface FoundPartStub {
  readonly start: number;
  readonly end: number;
  readonly part: FrozenPart;
  readonly stub: ParsedPartStub;
}

/**
 * Where each of `parts` (the deeper cut's, from every record) stands as its stub in a rewritten
 * body, each at most once and never two at one place. A part is looked for in its own message: a
 * tool input in its call, a text in its block or, since thinking blocks an epoch removed before it
 * in the same message shift it, in an earlier block of that message. Text that only looks like a
 * stub, anywhere else, is the client's own.
 */
export function findPartStubs(body: Uint8Array, index: TranscriptIndex, parts: readonly FrozenBlock[]): FoundPartStub[] {
  const found: FoundPartStub[] = [];
  const taken = new Set<number>();
  for (const part of parts) {
    if (!isPart(part)) continue;
    const blocks = index.messages[part.messageIndex]?.blocks ?? [];
    for (let k = Math.min(part.blockIndex, blocks.length - 1); k >= 0; k--) {
      const block = blocks[k]!;
      if (part.part === 'tool_input' && (block.type !== 'tool_use' || block.id !== part.toolUseId)) continue;
      const at = stubAt(body, block.start, part);
      if (at === undefined || taken.has(at.start)) continue;
      taken.add(at.start);
      found.push(at);
      break;
    }
  }
  return found;
}

// The part's stub at its path inside the block at `start`, when one naming its sha256 is there.
function stubAt(body: Uint8Array, start: number, part: FrozenPart): FoundPartStub | undefined {
  try {
    const value = valueAtPath(body, start, part.path);
    if (value === undefined || body[value.start] !== 0x22) return undefined;
    let text = decodeJsonString(body, value.start, value.end);
    // A part of JSON text: its first frozen string holds the stub.
    const first = part.within?.[0];
    if (text !== undefined && first !== undefined) {
      const inner = valueAtPath(text, skipWhitespace(text, 0), first);
      text = inner === undefined || text[inner.start] !== 0x22 ? undefined : decodeJsonString(text, inner.start, inner.end);
    }
    const stub = text === undefined ? undefined : parsePartStub(UTF8.decode(text));
    return stub !== undefined && stub.part === part.part && stub.sha256 === part.sha256 ? { start: value.start, end: value.end, part, stub } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The original content value a stub stands for: the kept JSON bytes when the stub names them,
 * else the canonical JSON string of the text (what the client wrote in the first place).
 */
export function restoredContent(
  stub: { readonly bytes: number; readonly sha256: string; readonly rawSha256?: string | undefined },
  text: Uint8Array,
  raw: Uint8Array | undefined,
): Uint8Array {
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
