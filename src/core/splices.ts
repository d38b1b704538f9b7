/** Byte edits planned as data, then applied in one copy (plan, then apply). */

/** Replace body bytes [start, end) with `bytes`. */
export interface Splice {
  readonly start: number;
  readonly end: number;
  readonly bytes: Uint8Array;
}

/** Sorts splices by offset; `undefined` when two overlap or one falls outside the body. */
export function planSplices(splices: readonly Splice[], bodyLength: number): Splice[] | undefined {
  const sorted = [...splices].sort((a, b) => a.start - b.start);
  let last = 0;
  for (const s of sorted) {
    if (s.start < last || s.end < s.start || s.end > bodyLength) return undefined;
    last = s.end;
  }
  return sorted;
}

/** The body with every (sorted, disjoint) splice applied; untouched bytes are copied, never re-encoded. */
export function applySplices(body: Uint8Array, sorted: readonly Splice[]): Uint8Array {
  let length = body.length;
  for (const s of sorted) length += s.bytes.length - (s.end - s.start);
  const out = new Uint8Array(length);
  let from = 0;
  let o = 0;
  for (const s of sorted) {
    out.set(body.subarray(from, s.start), o);
    o += s.start - from;
    out.set(s.bytes, o);
    o += s.bytes.length;
    from = s.end;
  }
  out.set(body.subarray(from), o);
  return out;
}
