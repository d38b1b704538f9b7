/** The short strings the transcript index reads (keys, roles, types, ids), decoded from their JSON tokens. */
import { scanString } from '../json-scan.js';
import { decodeJsonString } from '../json-string.js';
import { ShapeError } from './index-shape-error.js';

const UTF8 = new TextDecoder('utf-8');

/** Decodes a (short) object key token to a JS string. */
export function readKey(b: Uint8Array, start: number, end: number): string {
  return decodeShortString(b, start, end);
}

/** Decodes a short string value; a value of another kind is `unknown_shape`, named by `what`. */
export function readStringValue(b: Uint8Array, start: number, what: string): string {
  if (b[start] !== 0x22) throw new ShapeError('unknown_shape', `${what} is not a string`);
  return decodeShortString(b, start, scanString(b, start));
}

// Keys, roles, types and ids are short; escapes in them are legal and must mean the same as
// their plain spelling ("\u0074ype" is "type").
export function decodeShortString(b: Uint8Array, start: number, end: number): string {
  const n = end - start - 2;
  if (n > 64) return decodeSlow(b, start, end);
  // The words the index looks for come back as one interned constant: no string is built, and
  // every later comparison is a pointer check (a string built with += is a rope that each
  // comparison would flatten).
  const words = KNOWN_WORDS_BY_LENGTH[n];
  if (words !== undefined) {
    next: for (const word of words) {
      for (let k = 0; k < n; k++) if (b[start + 1 + k] !== word.bytes[k]) continue next;
      return word.text;
    }
  }
  for (let i = start + 1; i < end - 1; i++) {
    const c = b[i]!;
    if (c === 0x5c || c >= 0x80) return decodeSlow(b, start, end);
  }
  return String.fromCharCode.apply(null, b.subarray(start + 1, end - 1) as unknown as number[]);
}

const KNOWN_WORDS = [
  'messages',
  'model',
  'role',
  'content',
  'type',
  'id',
  'tool_use_id',
  'is_error',
  'cache_control',
  'text',
  'name',
  'input',
  'signature',
  'thinking',
  'user',
  'assistant',
  'system',
  'tool_use',
  'tool_result',
  'redacted_thinking',
  'image',
  'document',
];
const KNOWN_WORDS_BY_LENGTH: Array<Array<{ readonly text: string; readonly bytes: Uint8Array }>> = [];
for (const text of KNOWN_WORDS) (KNOWN_WORDS_BY_LENGTH[text.length] ??= []).push({ text, bytes: new TextEncoder().encode(text) });

function decodeSlow(b: Uint8Array, start: number, end: number): string {
  const bytes = decodeJsonString(b, start, end);
  // A key that is not valid text cannot equal any key we look for; a unique marker keeps it apart.
  return bytes === undefined ? '\u0000invalid' : UTF8.decode(bytes);
}
