/**
 * Where the first message of a body sits, found without scanning the rest: enough to name the
 * conversation. The proxy uses it to let requests of conversations without epochs through
 * without indexing their whole body.
 */
import { JsonSyntaxError, scanString, scanValue, skipWhitespace } from './json-scan.js';
import { decodeJsonString } from './json-string.js';
import type { Span } from './transcript-index.js';

const UTF8 = new TextDecoder('utf-8');
const MESSAGES_KEY = 'messages';

/**
 * The span of `messages[0]`, `null` when `messages` is empty, or `undefined` when the head of the
 * body is not an object with a `messages` array (the full index then says why). Never throws.
 */
export function findFirstMessage(b: Uint8Array): Span | null | undefined {
  try {
    let i = skipWhitespace(b, 0);
    if (b[i] !== 0x7b) return undefined;
    i = skipWhitespace(b, i + 1);
    while (b[i] === 0x22) {
      const keyEnd = scanString(b, i);
      const key = decodeJsonString(b, i, keyEnd);
      i = skipWhitespace(b, keyEnd);
      if (b[i] !== 0x3a) return undefined;
      i = skipWhitespace(b, i + 1);
      if (key !== undefined && key.length === MESSAGES_KEY.length && UTF8.decode(key) === MESSAGES_KEY) {
        if (b[i] !== 0x5b) return undefined;
        const start = skipWhitespace(b, i + 1);
        if (b[start] === 0x5d) return null;
        return { start, end: scanValue(b, start, 2) };
      }
      i = skipWhitespace(b, scanValue(b, i, 1));
      if (b[i] !== 0x2c) return undefined;
      i = skipWhitespace(b, i + 1);
    }
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof RangeError) return undefined;
    throw error;
  }
}
