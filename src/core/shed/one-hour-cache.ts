/**
 * Whether a request asks for a one-hour cache: a `cache_control` with `"ttl": "1h"` where the API
 * takes one (a system block, a tool, a message, a content block, a block inside a tool_result).
 * The gate then weighs a cache write at 2.0, not 1.25.
 */
import { JsonSyntaxError, scanArray, scanObject, scanString, scanValue, skipWhitespace } from '../json-scan.js';
import { decodeJsonString } from '../json-string.js';

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** True when some cache breakpoint of the request asks for a one-hour TTL. Never throws (false on bad bytes). */
export function asksOneHourCache(body: Uint8Array): boolean {
  try {
    const start = skipWhitespace(body, 0);
    if (body[start] !== 0x7b) return false;
    let found = false;
    scanObject(body, start, 1, (keyStart, keyEnd, valueStart, depth) => {
      const key = keyOf(body, keyStart, keyEnd);
      if (key === 'system' || key === 'tools') found = eachObject(body, valueStart, depth, (s, d) => holdsOneHour(body, s, d)) || found;
      else if (key === 'messages') found = eachObject(body, valueStart, depth, (s, d) => messageAsks(body, s, d)) || found;
      return scanValue(body, valueStart, depth);
    });
    return found;
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof RangeError) return false;
    throw error;
  }
}

function messageAsks(b: Uint8Array, start: number, depth: number): boolean {
  let found = holdsOneHour(b, start, depth);
  scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    if (keyOf(b, keyStart, keyEnd) === 'content') found = eachObject(b, valueStart, d, (s, dd) => blockAsks(b, s, dd)) || found;
    return scanValue(b, valueStart, d);
  });
  return found;
}

function blockAsks(b: Uint8Array, start: number, depth: number): boolean {
  let found = holdsOneHour(b, start, depth);
  scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    if (keyOf(b, keyStart, keyEnd) === 'content') found = eachObject(b, valueStart, d, (s, dd) => holdsOneHour(b, s, dd)) || found;
    return scanValue(b, valueStart, d);
  });
  return found;
}

/** Calls `test` on each object of the array at `start` (anything else is skipped); true if any passed. */
function eachObject(b: Uint8Array, start: number, depth: number, test: (start: number, depth: number) => boolean): boolean {
  if (b[start] !== 0x5b) return false;
  let found = false;
  scanArray(b, start, depth + 1, (itemStart, _i, d) => {
    if (b[itemStart] === 0x7b && test(itemStart, d)) found = true;
    return scanValue(b, itemStart, d);
  });
  return found;
}

/** Whether the object at `start` has `"cache_control": {..., "ttl": "1h", ...}`. */
function holdsOneHour(b: Uint8Array, start: number, depth: number): boolean {
  let found = false;
  scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    if (keyOf(b, keyStart, keyEnd) === 'cache_control' && b[valueStart] === 0x7b) {
      scanObject(b, valueStart, d + 1, (k, ke, v, dd) => {
        if (keyOf(b, k, ke) === 'ttl' && b[v] === 0x22 && keyOf(b, v, scanString(b, v)) === '1h') found = true;
        return scanValue(b, v, dd);
      });
    }
    return scanValue(b, valueStart, d);
  });
  return found;
}

function keyOf(b: Uint8Array, start: number, end: number): string {
  const bytes = decodeJsonString(b, start, end);
  return bytes === undefined ? '' : UTF8.decode(bytes);
}
