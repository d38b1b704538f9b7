/**
 * A removed thinking block's file: `thinking/<sha256>.json` holds the block object's exact bytes,
 * named by their sha256 (so `sha256sum` audits it). Durable once this resolves, before any record
 * names it, so `inflate` can put the block back byte for byte.
 */
import fs from 'node:fs/promises';
import { writeContentFile } from './elided-file.js';
import { thinkingPath, type StateDir } from './layout.js';
import { sha256Hex } from './sha256-hex.js';
import { StateError } from './state-error.js';

/**
 * Makes `thinking/<sha256>.json` hold `bytes`, durably. Throws STATE_HASH_MISMATCH when `bytes`
 * do not hash to `sha256`: a file's name never lies. Creates `thinking/` (0700) with the first one.
 */
export async function writeThinkingFile(state: StateDir, sha256: string, bytes: Uint8Array): Promise<void> {
  await writeContentFile({ dir: state.thinkingDir, target: thinkingPath(state, sha256), what: 'thinking bytes' }, sha256, bytes, { createDir: true });
}

/** The block's exact bytes, checked against their name; throws when missing or changed. */
export async function readThinkingFile(state: StateDir, sha256: string): Promise<Uint8Array> {
  const bytes = await fs.readFile(thinkingPath(state, sha256));
  if (sha256Hex(bytes) !== sha256) throw new StateError('STATE_HASH_MISMATCH', `thinking file ${sha256}.json does not match its sha256 name`);
  return bytes;
}
