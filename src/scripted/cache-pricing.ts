/**
 * How the scripted Messages API prices a request, roughly the way the provider's prompt cache
 * does: the bytes a request shares with the previous one of its conversation are read from the
 * cache, the rest is written to it. Pure: no I/O.
 */

/** The scripted tokenizer: one token per 4 bytes, close enough for English and code. */
export const BYTES_PER_TOKEN = 4;
/** Input tokens outside the cache (the API reports a handful after the last breakpoint). */
export const UNCACHED_INPUT_TOKENS = 3;

/** The input side of a Messages API `usage`. */
export interface CacheUsage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

/** Length of the longest common prefix of two byte strings. */
export function commonPrefixLength(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** The usage of `body` given the previous request of its conversation (none on the first). */
export function priceRequest(previous: Uint8Array | undefined, body: Uint8Array): CacheUsage {
  const shared = previous === undefined ? 0 : commonPrefixLength(previous, body);
  return {
    input_tokens: UNCACHED_INPUT_TOKENS,
    cache_creation_input_tokens: Math.floor((body.length - shared) / BYTES_PER_TOKEN),
    cache_read_input_tokens: Math.floor(shared / BYTES_PER_TOKEN),
  };
}

/** The prompt's size in scripted tokens: what count_tokens answers and the prompt limit checks. */
export function countTokens(body: Uint8Array): number {
  return Math.ceil(body.length / BYTES_PER_TOKEN);
}
