/**
 * The body's top-level `model`, read from the head of the body only: the window a request is
 * measured against depends on it (context-window.ts), and most requests go through without their
 * body being indexed (first-message.ts). Claude Code and the SDKs put `model` before `messages`;
 * a `model` after `messages` is not looked for, so the answer never costs a scan of the transcript.
 */
import { JsonSyntaxError, scanString, scanValue, skipWhitespace } from './json-scan.js';
import { decodeJsonString } from './json-string.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** A model id is short; anything longer is not one we would find in the table. */
const MAX_MODEL_BYTES = 256;

/** The string value of a top-level `model` key that comes before `messages`; `undefined` otherwise. Never throws. */
export function readHeadModel(b: Uint8Array): string | undefined {
  try {
    let i = skipWhitespace(b, 0);
    if (b[i] !== 0x7b) return undefined;
    i = skipWhitespace(b, i + 1);
    while (b[i] === 0x22) {
      const keyEnd = scanString(b, i);
      const key = keyText(b, i, keyEnd);
      i = skipWhitespace(b, keyEnd);
      if (b[i] !== 0x3a || key === 'messages') return undefined;
      i = skipWhitespace(b, i + 1);
      const valueEnd = scanValue(b, i, 1);
      if (key === 'model') return b[i] === 0x22 && valueEnd - i <= MAX_MODEL_BYTES ? keyText(b, i, valueEnd) : undefined;
      i = skipWhitespace(b, valueEnd);
      if (b[i] !== 0x2c) return undefined;
      i = skipWhitespace(b, i + 1);
    }
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof RangeError || error instanceof TypeError) return undefined;
    throw error;
  }
}

function keyText(b: Uint8Array, start: number, end: number): string | undefined {
  // Keys and ids are short: a long key is no key we look for, and decoding it would be wasted.
  if (end - start > MAX_MODEL_BYTES) return undefined;
  const bytes = decodeJsonString(b, start, end);
  return bytes === undefined ? undefined : UTF8.decode(bytes);
}
