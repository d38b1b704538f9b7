/** The shared prefix of two request bodies, in the core's plain form. */
import type { CommonPrefixLength } from './ports.js';

/**
 * Length of the longest common prefix of `a` and `b`, one byte at a time. Correct everywhere but
 * slow on megabytes: the edge hands the incremental rewrite a native one instead.
 */
export const commonPrefixLengthLoop: CommonPrefixLength = (a, b) => {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
};
