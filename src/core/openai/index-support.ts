/**
 * What the OpenAI indexes share: the shape error, the mapping of scanner faults to index
 * failures (the same as the Messages index's), and reading keys and short strings.
 */
import { JsonSyntaxError, scanDocument, scanObject, scanString, scanValue, skipWhitespace } from '../json-scan.js';
import { decodeJsonString } from '../json-string.js';
import type { IndexFailure, IndexOutcome, TranscriptIndex } from '../transcript-index-types.js';

/** A body that is JSON but not of the shape an index reads. Thrown and caught inside an index only. */
export class ShapeError extends Error {
  constructor(
    readonly reason: Exclude<IndexFailure, 'not_json'>,
    detail: string,
  ) {
    super(detail);
  }
}

/** Runs an index builder and turns what it throws into a failed outcome. Never throws. */
export function indexOrFailure<T extends TranscriptIndex>(
  body: Uint8Array,
  build: (body: Uint8Array) => T,
): { readonly kind: 'indexed'; readonly index: T } | Extract<IndexOutcome, { kind: 'failed' }> {
  try {
    return { kind: 'indexed', index: build(body) };
  } catch (error) {
    if (error instanceof ShapeError) return shapeOrSyntax(body, error);
    return syntaxFailure(error);
  }
}

// A shape fault met before a syntax fault further on must still say not_json (as in the
// Messages index), so the rare failure path scans the whole body.
function shapeOrSyntax(body: Uint8Array, error: ShapeError): Extract<IndexOutcome, { kind: 'failed' }> {
  try {
    scanDocument(body);
  } catch (syntax) {
    return syntaxFailure(syntax);
  }
  return { kind: 'failed', reason: error.reason, detail: error.message };
}

function syntaxFailure(error: unknown): Extract<IndexOutcome, { kind: 'failed' }> {
  if (error instanceof JsonSyntaxError) return { kind: 'failed', reason: 'not_json', detail: error.message };
  if (error instanceof RangeError) return { kind: 'failed', reason: 'not_json', detail: 'nesting too deep' };
  throw error;
}

const UTF8 = new TextDecoder('utf-8');

/**
 * A key or short string token as a JS string. Escapes mean what they say (`"\u0074ype"` is
 * `type`); a token that is not valid text gets a marker no real key equals.
 */
export function readToken(b: Uint8Array, start: number, end: number): string {
  const bytes = decodeJsonString(b, start, end);
  return bytes === undefined ? '\u0000invalid' : UTF8.decode(bytes);
}

/** The string value at `start`, or a shape error naming `what`. */
export function readStringValue(b: Uint8Array, start: number, what: string): string {
  if (b[start] !== 0x22) throw new ShapeError('unknown_shape', `${what} is not a string`);
  return readToken(b, start, scanString(b, start));
}

/** Whether the value at `start` is the literal `null`. */
export function isNullAt(b: Uint8Array, start: number): boolean {
  return b[start] === 0x6e;
}

/**
 * Refuses a second occurrence of a key that decides meaning: JSON parsers disagree on which one
 * wins, so an index that relied on either would guess.
 */
export function makeDuplicateGuard(watched: readonly string[], where: string): (key: string) => void {
  const seen = new Set<string>();
  return (key) => {
    if (!watched.includes(key)) return;
    if (seen.has(key)) throw new ShapeError('duplicate_key', `${where} has two "${key}" keys`);
    seen.add(key);
  };
}

/** The top-level strings both OpenAI indexes keep. */
export interface TopLevelStrings {
  model: string | undefined;
  promptCacheKey: string | undefined;
}

/**
 * Scans a body that must be one JSON object: refuses a second watched key, keeps `model` and
 * `prompt_cache_key` when they are strings, and hands every other key's value to `onKey`, which
 * returns where that value ends (or `undefined` to have it skipped). Refuses trailing bytes.
 */
export function scanTopLevel(
  b: Uint8Array,
  watched: readonly string[],
  onKey: (key: string, valueStart: number, depth: number) => number | undefined,
): TopLevelStrings {
  const start = skipWhitespace(b, 0);
  if (b[start] !== 0x7b) {
    scanDocument(b);
    throw new ShapeError('not_messages_body', 'body is not a JSON object');
  }
  const strings: TopLevelStrings = { model: undefined, promptCacheKey: undefined };
  const guard = makeDuplicateGuard(watched, 'the body');
  const end = scanObject(b, start, 1, (keyStart, keyEnd, valueStart, depth) => {
    const key = readToken(b, keyStart, keyEnd);
    guard(key);
    if ((key === 'model' || key === 'prompt_cache_key') && b[valueStart] === 0x22) {
      const valueEnd = scanString(b, valueStart);
      strings[key === 'model' ? 'model' : 'promptCacheKey'] = readToken(b, valueStart, valueEnd);
      return valueEnd;
    }
    return onKey(key, valueStart, depth) ?? scanValue(b, valueStart, depth);
  });
  if (skipWhitespace(b, end) !== b.length) throw new JsonSyntaxError(end, 'trailing bytes');
  return strings;
}
