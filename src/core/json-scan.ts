/**
 * A structural JSON scanner over raw UTF-8 bytes (RFC 8259). It returns byte offsets only and
 * never builds a JS string of the input.
 *
 * Structure is checked in full: objects, arrays, commas, colons, numbers, literals, nesting,
 * trailing bytes. The *contents* of strings are not: a string's end is found with a native
 * `indexOf` for its closing quote (a quote after an odd run of backslashes is escaped), which is
 * what makes a scan of a 4 MB body cheap. Escapes, control bytes and UTF-8 are checked where the
 * core reads a string's value (json-string.ts): keys, types, ids, and every text it cuts out.
 * Every other string is copied through unchanged, so the upstream judges its bytes exactly as it
 * would without ctxshed.
 */

/** Thrown inside the core when the bytes are not JSON; never escapes the core's public API. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    what: string,
  ) {
    super(`${what} at byte ${offset}`);
  }
}

/** Nesting deeper than this is refused (it would exhaust the stack; no real body comes close). */
export const MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the first non-whitespace byte at or after `i`. */
export function skipWhitespace(b: Uint8Array, i: number): number {
  for (;;) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** `i` points at an opening quote; returns the index just past the closing quote. */
export function scanString(b: Uint8Array, i: number): number {
  let q = i;
  for (;;) {
    q = b.indexOf(QUOTE, q + 1);
    if (q < 0) throw new JsonSyntaxError(b.length, 'unterminated string');
    let k = q - 1;
    // b[i] is the opening quote, so this stops there at the latest.
    while (b[k] === BACKSLASH) k--;
    if (((q - 1 - k) & 1) === 0) return q + 1;
  }
}

/** The value of one hex digit byte, or -1. */
export function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** `i` points at the first byte of a value; returns the index just past it. */
export function scanValue(b: Uint8Array, i: number, depth = 0): number {
  const c = b[i];
  if (c === QUOTE) return scanString(b, i);
  if (c === 0x7b) return scanObject(b, i, depth + 1, undefined);
  if (c === 0x5b) return scanArray(b, i, depth + 1, undefined);
  if (c === 0x74) return expectLiteral(b, i, TRUE);
  if (c === 0x66) return expectLiteral(b, i, FALSE);
  if (c === 0x6e) return expectLiteral(b, i, NULL);
  if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return scanNumber(b, i);
  throw new JsonSyntaxError(i, c === undefined ? 'unexpected end' : 'unexpected byte');
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

function expectLiteral(b: Uint8Array, i: number, lit: readonly number[]): number {
  for (let k = 0; k < lit.length; k++) {
    if (b[i + k] !== lit[k]) throw new JsonSyntaxError(i, 'bad literal');
  }
  return i + lit.length;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function scanNumber(b: Uint8Array, i: number): number {
  const start = i;
  if (b[i] === 0x2d) i++;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i])) while (isDigit(b[i])) i++;
  else throw new JsonSyntaxError(start, 'bad number');
  if (b[i] === 0x2e) {
    i++;
    if (!isDigit(b[i])) throw new JsonSyntaxError(start, 'bad fraction');
    while (isDigit(b[i])) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    if (!isDigit(b[i])) throw new JsonSyntaxError(start, 'bad exponent');
    while (isDigit(b[i])) i++;
  }
  return i;
}

/** Called for each member: key bytes are [keyStart, keyEnd) including quotes; returns the value's end. */
export type MemberVisitor = (keyStart: number, keyEnd: number, valueStart: number, depth: number) => number;
/** Called for each element; returns the element's end. */
export type ElementVisitor = (valueStart: number, index: number, depth: number) => number;

/** `i` points at `{`; visits members (or skips them) and returns the index just past `}`. */
export function scanObject(b: Uint8Array, i: number, depth: number, visit: MemberVisitor | undefined): number {
  if (depth > MAX_JSON_DEPTH) throw new JsonSyntaxError(i, 'nesting too deep');
  i = skipWhitespace(b, i + 1);
  if (b[i] === 0x7d) return i + 1;
  return continueObject(b, scanMember(b, i, depth, visit), depth, visit);
}

/**
 * `i` is just past the value of an object's member; scans (and visits) the members after it and
 * returns the index just past the object's `}`. What `scanObject` does after its first member,
 * so a scan can resume there with the same result (incremental-index.ts).
 */
export function continueObject(b: Uint8Array, i: number, depth: number, visit: MemberVisitor | undefined): number {
  for (;;) {
    i = skipWhitespace(b, i);
    if (b[i] === 0x2c) {
      i = scanMember(b, skipWhitespace(b, i + 1), depth, visit);
      continue;
    }
    if (b[i] === 0x7d) return i + 1;
    throw new JsonSyntaxError(i, 'expected , or }');
  }
}

/** `i` points at a member's key; returns the index just past its value. */
function scanMember(b: Uint8Array, i: number, depth: number, visit: MemberVisitor | undefined): number {
  if (b[i] !== QUOTE) throw new JsonSyntaxError(i, 'expected key');
  const keyStart = i;
  const keyEnd = scanString(b, i);
  i = skipWhitespace(b, keyEnd);
  if (b[i] !== 0x3a) throw new JsonSyntaxError(i, 'expected colon');
  const valueStart = skipWhitespace(b, i + 1);
  return visit === undefined ? scanValue(b, valueStart, depth) : visit(keyStart, keyEnd, valueStart, depth);
}

/** `i` points at `[`; visits elements (or skips them) and returns the index just past `]`. */
export function scanArray(b: Uint8Array, i: number, depth: number, visit: ElementVisitor | undefined): number {
  if (depth > MAX_JSON_DEPTH) throw new JsonSyntaxError(i, 'nesting too deep');
  i = skipWhitespace(b, i + 1);
  if (b[i] === 0x5d) return i + 1;
  i = visit === undefined ? scanValue(b, i, depth) : visit(i, 0, depth);
  return continueArray(b, i, depth, 1, visit);
}

/**
 * `i` is just past element `index - 1` of an array; scans (and visits) the elements after it and
 * returns the index just past the array's `]`. What `scanArray` does after its first element, so
 * a scan can resume at an element boundary with the same result (incremental-index.ts).
 */
export function continueArray(b: Uint8Array, i: number, depth: number, index: number, visit: ElementVisitor | undefined): number {
  for (; ; index++) {
    i = skipWhitespace(b, i);
    if (b[i] === 0x2c) {
      i = skipWhitespace(b, i + 1);
      i = visit === undefined ? scanValue(b, i, depth) : visit(i, index, depth);
      continue;
    }
    if (b[i] === 0x5d) return i + 1;
    throw new JsonSyntaxError(i, 'expected , or ]');
  }
}

/** Scans a whole document: one value, whitespace around it, nothing else. Returns the value's span. */
export function scanDocument(b: Uint8Array): { start: number; end: number } {
  const start = skipWhitespace(b, 0);
  const end = scanValue(b, start, 0);
  if (skipWhitespace(b, end) !== b.length) throw new JsonSyntaxError(end, 'trailing bytes');
  return { start, end };
}
