/**
 * Paths inside a JSON value of a body: where the value a path leads to lies, and every string a
 * value holds with its path. The deeper cut names its parts this way (a Write's `["input",
 * "content"]`, an assistant text's `["text"]`), so a later request finds the same string again by
 * its bytes alone, without parsing the block into objects (docs/core.md, "The rewrite").
 */
import { JsonSyntaxError, scanArray, scanObject, scanValue, skipWhitespace } from './json-scan.js';
import { decodeJsonString } from './json-string.js';
import type { PathStep } from './epoch-types.js';
import type { Span } from './transcript-index-types.js';

const QUOTE = 0x22;
const UTF8 = new TextEncoder();

/**
 * The value `path` leads to inside the value at `start`, or `undefined` when it leads nowhere: a
 * key that is absent or appears twice (parsers disagree on which one wins), a position past the
 * end, a step into a value of the other kind. Throws `JsonSyntaxError` on bytes that are not JSON.
 */
export function valueAtPath(b: Uint8Array, start: number, path: readonly PathStep[], depth = 0): Span | undefined {
  let at: Span = { start, end: -1 };
  for (const step of path) {
    const found = typeof step === 'number' ? elementAt(b, at.start, step, depth) : memberAt(b, at.start, step, depth);
    if (found === undefined) return undefined;
    at = found;
    depth += 1;
  }
  return at.end >= 0 ? at : { start, end: scanValue(b, start, depth) };
}

function elementAt(b: Uint8Array, start: number, wanted: number, depth: number): Span | undefined {
  if (b[start] !== 0x5b) return undefined;
  let found: Span | undefined;
  scanArray(b, start, depth + 1, (valueStart, index, d) => {
    const end = scanValue(b, valueStart, d);
    if (index === wanted) found = { start: valueStart, end };
    return end;
  });
  return found;
}

function memberAt(b: Uint8Array, start: number, key: string, depth: number): Span | undefined {
  if (b[start] !== 0x7b) return undefined;
  const wanted = UTF8.encode(key);
  let found: Span | undefined;
  let count = 0;
  scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const end = scanValue(b, valueStart, d);
    if (keyIs(b, keyStart, keyEnd, wanted)) {
      count += 1;
      found = { start: valueStart, end };
    }
    return end;
  });
  return count === 1 ? found : undefined;
}

/** Whether the key token at [start, end) means `wanted` (escapes decoded: `"\u0074ext"` is `text`). */
export function keyIs(b: Uint8Array, start: number, end: number, wanted: Uint8Array): boolean {
  const key = decodeJsonString(b, start, end);
  if (key === undefined || key.length !== wanted.length) return false;
  for (let i = 0; i < key.length; i++) if (key[i] !== wanted[i]) return false;
  return true;
}

/** A string value found inside a JSON value: its path from that value, and its token's span. */
export interface FoundString {
  readonly path: readonly PathStep[];
  readonly span: Span;
}

/**
 * Every string value inside the value at `start` (object members and array elements, at any
 * depth; keys are not values), in document order. A key that appears twice in one object makes
 * the strings under it ambiguous: none under that key is listed. Throws `JsonSyntaxError` on bytes
 * that are not JSON.
 */
export function stringsIn(b: Uint8Array, start: number, depth = 0): FoundString[] {
  const found: FoundString[] = [];
  collect(b, skipWhitespace(b, start), [], depth, found);
  return found;
}

function collect(b: Uint8Array, start: number, path: readonly PathStep[], depth: number, found: FoundString[]): number {
  const c = b[start];
  if (c === QUOTE) {
    const end = scanValue(b, start, depth);
    found.push({ path, span: { start, end } });
    return end;
  }
  if (c === 0x5b) return scanArray(b, start, depth + 1, (valueStart, index, d) => collect(b, valueStart, [...path, index], d, found));
  if (c !== 0x7b) return scanValue(b, start, depth);
  const keys = new Map<string, number>();
  const mark = found.length;
  const end = scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const key = keyText(b, keyStart, keyEnd);
    keys.set(key, (keys.get(key) ?? 0) + 1);
    return collect(b, valueStart, [...path, key], d, found);
  });
  const repeated = [...keys].filter(([, n]) => n > 1).map(([k]) => k);
  if (repeated.length > 0) {
    const kept = found.splice(mark).filter((f) => !repeated.includes(String(f.path[path.length])));
    found.push(...kept);
  }
  return end;
}

const TEXT = new TextDecoder('utf-8');

function keyText(b: Uint8Array, start: number, end: number): string {
  const bytes = decodeJsonString(b, start, end);
  if (bytes === undefined) throw new JsonSyntaxError(start, 'a key that is not valid text');
  return TEXT.decode(bytes);
}
