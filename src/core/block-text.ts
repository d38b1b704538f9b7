/** The text of a tool_result as the model saw it: what an elided file holds. */
import { decodeJsonString, encodeJsonString } from './json-string.js';
import type { ToolResultInfo } from './transcript-index-types.js';

/** Text blocks of an array content are joined with this in the elided file. */
export const TEXT_BLOCK_SEPARATOR = 0x0a;

/**
 * The UTF-8 text of a text-only tool_result: the string, or its text blocks joined by a newline.
 * `undefined` when the block is not text-only or its text is not valid Unicode.
 */
export function blockText(body: Uint8Array, block: ToolResultInfo): Uint8Array | undefined {
  if (!block.textOnly) return undefined;
  const parts: Uint8Array[] = [];
  for (const span of block.content.texts) {
    const text = decodeJsonString(body, span.start, span.end);
    if (text === undefined) return undefined;
    parts.push(text);
  }
  if (parts.length === 1) return parts[0];
  let length = parts.length - 1;
  for (const part of parts) length += part.length;
  const joined = new Uint8Array(length);
  let o = 0;
  for (const [i, part] of parts.entries()) {
    if (i > 0) joined[o++] = TEXT_BLOCK_SEPARATOR;
    joined.set(part, o);
    o += part.length;
  }
  return joined;
}

/**
 * Whether the content value's bytes are exactly the canonical JSON encoding of the text, so the
 * text file alone rebuilds them. Block content and unusual escapes (`\/`, `\u00e9`) are not.
 */
export function isCanonicalContent(body: Uint8Array, block: ToolResultInfo, text: Uint8Array): boolean {
  if (block.content.kind !== 'string') return false;
  const raw = body.subarray(block.content.start, block.content.end);
  // A string token without escapes holds no quote or control byte, so it is already canonical.
  if (raw.indexOf(0x5c) < 0) return true;
  return bytesEqual(raw, encodeJsonString(text));
}

/** Below this many bytes a plain loop is as quick as setting up word views. */
const WORD_COMPARE_MIN_BYTES = 64;

/**
 * Byte-wise equality. Long arrays that sit alike against a 4-byte boundary are compared a word at
 * a time: the output check compares the bytes around `messages` (the system prompt and tools, tens
 * of kilobytes) on every rewritten request (epochs/check-outside.ts).
 */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  let i = 0;
  if (n >= WORD_COMPARE_MIN_BYTES && (a.byteOffset & 3) === (b.byteOffset & 3)) {
    for (; ((a.byteOffset + i) & 3) !== 0; i++) if (a[i] !== b[i]) return false;
    const words = (n - i) >>> 2;
    const x = new Int32Array(a.buffer, a.byteOffset + i, words);
    const y = new Int32Array(b.buffer, b.byteOffset + i, words);
    for (let w = 0; w < words; w++) if (x[w] !== y[w]) return false;
    i += words * 4;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
