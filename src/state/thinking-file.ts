/**
 * A removed thinking block's file: `thinking/<sha256>.json` holds the block object's exact bytes,
 * named by their sha256 (so `sha256sum` audits it), written durably by the latch
 * (write-originals.ts) before any record names it, so `inflate` can put the block back byte for byte.
 */
import fs from 'node:fs/promises';
import { thinkingPath, type StateDir } from './layout.js';
import { sha256Hex } from './sha256-hex.js';
import { StateError } from './state-error.js';

/** The block's exact bytes, checked against their name; throws when missing or changed. */
export async function readThinkingFile(state: StateDir, sha256: string): Promise<Uint8Array> {
  const bytes = await fs.readFile(thinkingPath(state, sha256));
  if (sha256Hex(bytes) !== sha256) throw new StateError('STATE_HASH_MISMATCH', `thinking file ${sha256}.json does not match its sha256 name`);
  return bytes;
}
