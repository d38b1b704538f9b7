/**
 * The scripted API's thinking-block signatures. Opaque to a client, readable here:
 * `ctxshed-scripted.<model>.<prefix>.<previous>.<root>` where `prefix` is the hex sha256 digest of
 * the block's canonical prefix (canonical-prefix.ts), `previous` the first 16 hex digits of the sha256
 * of the signature of the thinking block the model saw last before it (`none` when it saw none:
 * "each thinking block records which thinking block came before it, across turns"), and `root` the
 * message index of the first thinking block the model saw (so one put back before it is caught).
 */
import { createHash } from 'node:crypto';

/** What a signature records. */
export interface SignedFacts {
  readonly model: string;
  readonly prefix: string;
  /** `none`, or the short digest of the previous block's signature. */
  readonly previous: string;
  /** The message index of the first thinking block the model saw with this one (itself if none). */
  readonly root: number;
}

const SCHEME = 'ctxshed-scripted';
const NONE = 'none';
const SIGNATURE_PATTERN = /^ctxshed-scripted\.([A-Za-z0-9-]+)\.([0-9a-f]{64})\.(none|[0-9a-f]{16})\.(\d+)$/;

/** The signature string for these facts. */
export function formatSignature(facts: SignedFacts): string {
  return `${SCHEME}.${facts.model}.${facts.prefix}.${facts.previous}.${facts.root}`;
}

/** The facts a signature records, or `undefined` for a string this API did not sign. */
export function parseSignature(signature: unknown): SignedFacts | undefined {
  if (typeof signature !== 'string') return undefined;
  const m = SIGNATURE_PATTERN.exec(signature);
  if (m === null) return undefined;
  return { model: m[1]!, prefix: m[2]!, previous: m[3]!, root: Number(m[4]) };
}

/** How a later block names the block before it: a short digest of its signature, or `none`. */
export function previousLinkOf(signature: string | undefined): string {
  return signature === undefined ? NONE : createHash('sha256').update(signature).digest('hex').slice(0, 16);
}

/** The signature a thinking or redacted_thinking block carries (`data` for a redacted one). */
export function signatureOf(block: Readonly<Record<string, unknown>>): unknown {
  return block['type'] === 'redacted_thinking' ? block['data'] : block['signature'];
}
