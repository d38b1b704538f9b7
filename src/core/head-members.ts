/**
 * The top-level members of a request body, walked from its head without scanning further than
 * needed: a member's value is skipped only when the walk goes past it. Reading the `model`
 * (head-model.ts) and finding the first message (first-message.ts) both stop early, so most
 * requests never have their transcript scanned.
 */
import { JsonSyntaxError, scanString, scanValue, skipWhitespace } from './json-scan.js';
import { decodeJsonString } from './json-string.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Keys we look for are short; a longer one is none of them, and decoding it would be wasted. */
const MAX_KEY_BYTES = 64;

/** What a visit says: stop the walk with this answer, or go on to the next member (`undefined`). */
export type HeadStop<T> = { readonly answer: T } | undefined;

/**
 * Visits the members of the body's top-level object in order, with each key (`undefined` when it
 * is long or not valid UTF-8) and the offset of its value, until a visit stops the walk. The
 * answer of that visit, or `undefined` when the body's head is not such an object, the walk ends,
 * or the bytes are not JSON (a visit may scan and throw too). `onClose` is called when the walk
 * reached the object's closing brace (every member visited). Never throws on any bytes.
 */
export function walkHeadMembers<T>(b: Uint8Array, visit: (key: string | undefined, valueStart: number) => HeadStop<T>, onClose?: () => void): T | undefined {
  try {
    let i = skipWhitespace(b, 0);
    if (b[i] !== 0x7b) return undefined;
    i = skipWhitespace(b, i + 1);
    let afterComma = false;
    while (b[i] === 0x22) {
      const keyEnd = scanString(b, i);
      const key = shortText(b, i, keyEnd);
      i = skipWhitespace(b, keyEnd);
      if (b[i] !== 0x3a) return undefined;
      i = skipWhitespace(b, i + 1);
      const stop = visit(key, i);
      if (stop !== undefined) return stop.answer;
      i = skipWhitespace(b, scanValue(b, i, 1));
      afterComma = b[i] === 0x2c;
      if (!afterComma) break;
      i = skipWhitespace(b, i + 1);
    }
    if (b[i] === 0x7d && !afterComma) onClose?.();
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The text of a short JSON string token [start, end), or `undefined` (long, or not valid UTF-8). */
export function shortText(b: Uint8Array, start: number, end: number, maxBytes = MAX_KEY_BYTES): string | undefined {
  if (end - start > maxBytes) return undefined;
  const bytes = decodeJsonString(b, start, end);
  if (bytes === undefined) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
