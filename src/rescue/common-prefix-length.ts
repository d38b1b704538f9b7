/**
 * The shared prefix of two bodies, measured natively: the incremental rewrite's one byte
 * comparison (core/incremental-index.ts) runs over megabytes on every request of a conversation
 * with an epoch, where a JS loop would cost more than the work it saves.
 */
import { Buffer } from 'node:buffer';
import type { CommonPrefixLength } from '../core/index.js';

/** Bytes compared per native call while the bodies agree. */
export const PREFIX_CHUNK_BYTES = 64 * 1024;
/** Below this, the differing chunk is finished byte by byte. */
const HALVING_FLOOR_BYTES = 64;

/** Length of the longest common prefix of `a` and `b` (memcmp by chunks, then by halves). */
export const commonPrefixLength: CommonPrefixLength = (a, b) => {
  const x = asBuffer(a);
  const y = asBuffer(b);
  const n = Math.min(x.length, y.length);
  for (let at = 0; at < n; at += PREFIX_CHUNK_BYTES) {
    const end = Math.min(n, at + PREFIX_CHUNK_BYTES);
    if (x.compare(y, at, end, at, end) !== 0) return firstDifference(x, y, at, end);
  }
  return n;
};

/** The first differing offset in [lo, hi), which holds one. */
function firstDifference(x: Buffer, y: Buffer, lo: number, hi: number): number {
  // Invariant: [0, lo) is equal and [lo, hi) is not.
  while (hi - lo > HALVING_FLOOR_BYTES) {
    const mid = lo + ((hi - lo) >>> 1);
    if (x.compare(y, lo, mid, lo, mid) === 0) lo = mid;
    else hi = mid;
  }
  while (lo < hi && x[lo] === y[lo]) lo++;
  return lo;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
