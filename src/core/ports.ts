/** What the core asks of the edges, passed in so that the core itself touches no I/O. */

/** Lowercase hex sha256 of some bytes (node:crypto at the edge). */
export type Sha256 = (bytes: Uint8Array) => string;
