/**
 * A frozen part in a later request: where its string lies (by its message, block and path), checked
 * to be the very bytes the epoch froze, and the token its stub puts there. A tool result is found by
 * its ordinal (epochs/tool-results/tool-results.ts); a part by its place, since a part has no
 * tool_result of its own to count.
 */
import type { FrozenPart, PartPlaceFields } from './epoch-types.js';
import { valueAtPath } from './json-paths.js';
import { skipWhitespace } from './json-scan.js';
import { decodeJsonString, encodeJsonString } from './json-string.js';
import type { BlockSkipReason } from './passthrough-reasons.js';
import type { Sha256 } from './ports.js';
import { applySplices, planSplices } from './splices.js';
import { renderStub } from './stub.js';
import type { BlockInfo, Span, TranscriptIndex } from './transcript-index-types.js';

const QUOTE = 0x22;
const UTF8 = new TextEncoder();

/** The block holding a part in `index`, when it is still the part's block (its call's id; a text of the model's). */
export function partBlock(index: TranscriptIndex, part: PartPlaceFields & { readonly toolUseId: string }): BlockInfo | BlockSkipReason {
  const message = index.messages[part.messageIndex];
  const block = message?.blocks[part.blockIndex];
  if (message === undefined || block === undefined) return 'missing_block';
  if (part.part === 'tool_input') return block.type === 'tool_use' && block.id === part.toolUseId ? block : 'id_mismatch';
  return message.role === 'assistant' ? block : 'id_mismatch';
}

/**
 * The string token of the part in this body, or why it is not the one the epoch froze: its block
 * gone or another's, its path leading nowhere or to other bytes than the frozen ones (length
 * first, then the sha256 of the token as it lies in the body, as a tool result's content is checked).
 */
export function locatePart(body: Uint8Array, index: TranscriptIndex, part: FrozenPart, sha256: Sha256): Span | BlockSkipReason {
  const block = partBlock(index, part);
  if (typeof block === 'string') return block;
  let value: Span | undefined;
  try {
    value = valueAtPath(body, block.start, part.path);
  } catch {
    value = undefined;
  }
  if (value === undefined || body[value.start] !== QUOTE || value.end > block.end) return 'missing_block';
  if (value.end - value.start !== part.jsonBytes) return 'hash_mismatch';
  return sha256(body.subarray(value.start, value.end)) === part.jsonSha256 ? value : 'hash_mismatch';
}

/**
 * The JSON string token that takes the part's place: its stub, or, for a part whose value is JSON
 * text (`within`), that text with each of those strings made the stub, every key and every other
 * value kept, encoded as a string again. `undefined` when the JSON text does not hold them (it
 * always does for the bytes the epoch froze, which `locatePart` checked).
 */
export function partStubToken(body: Uint8Array, value: Span, part: FrozenPart, elidedDir: string): Uint8Array | undefined {
  const stub = encodeJsonString(UTF8.encode(renderStub(part, elidedDir)));
  if (part.within === undefined) return stub;
  const inner = decodeJsonString(body, value.start, value.end);
  if (inner === undefined) return undefined;
  const splices = [];
  try {
    const root = skipWhitespace(inner, 0);
    for (const path of part.within) {
      const at = valueAtPath(inner, root, path);
      if (at === undefined || inner[at.start] !== QUOTE) return undefined;
      splices.push({ start: at.start, end: at.end, bytes: stub });
    }
  } catch {
    return undefined;
  }
  const planned = planSplices(splices, inner.length);
  return planned === undefined ? undefined : encodeJsonString(applySplices(inner, planned));
}
