/**
 * Where the first message of a body sits, found without scanning the rest: enough to name the
 * conversation. The proxy uses it to let requests of conversations without epochs through
 * without indexing their whole body.
 */
import { scanValue, skipWhitespace } from './json-scan.js';
import { walkHeadMembers } from './head-members.js';
import type { Span } from './transcript-index-types.js';

/**
 * The span of `messages[0]`, `null` when `messages` is empty, or `undefined` when the head of the
 * body is not an object with a `messages` array (the full index then says why). Never throws.
 */
export function findFirstMessage(b: Uint8Array): Span | null | undefined {
  return walkHeadMembers<Span | null | undefined>(b, (key, at) => {
    if (key !== 'messages') return undefined;
    if (b[at] !== 0x5b) return { answer: undefined };
    const start = skipWhitespace(b, at + 1);
    return { answer: b[start] === 0x5d ? null : { start, end: scanValue(b, start, 2) } };
  });
}
