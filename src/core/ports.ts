/** What the core asks of the edges, passed in so that the core itself touches no I/O. */

/** Lowercase hex sha256 of some bytes (node:crypto at the edge). */
export type Sha256 = (bytes: Uint8Array) => string;

/**
 * Length of the longest common prefix of two byte arrays (at the edge: native compares over
 * chunks; `commonPrefixLengthLoop` is the core's plain fallback).
 */
export type CommonPrefixLength = (a: Uint8Array, b: Uint8Array) => number;
