/**
 * A tiny seeded PRNG (mulberry32). The serializer draws its formatting choices from it, so one
 * integer seed from fast-check fixes every whitespace, key-order and escape choice of a body:
 * the body is reproducible, shrinks with its seed, and re-serializing a message gives its old bytes.
 */

/** A source of floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: small, fast, good enough for formatting choices. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One element of a non-empty list. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** A fresh shuffled copy (Fisher-Yates). */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = out[i]!;
    out[i] = out[j]!;
    out[j] = tmp;
  }
  return out;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** `length` base64 characters drawn from `seed` (thinking signatures, image data: bulk, not meaning). */
export function base64Filler(seed: number, length: number): string {
  const rng = seededRng(seed);
  let out = '';
  for (let i = 0; i < length; i++) out += BASE64[Math.floor(rng() * 64)];
  return out;
}
