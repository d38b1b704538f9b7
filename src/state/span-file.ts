/**
 * A shed span's files: `spans/<sha256>.json` holds its exact bytes (named by their sha256, so
 * `sha256sum` audits it) and `spans/<sha256>.md` a readable rendering of them. Both are durable
 * once this resolves, before any record (and so any stub) names them.
 */
import fs from 'node:fs/promises';
import { renderSpanMarkdown } from '../core/index.js';
import { fsyncDir, writeFileDurable } from './atomic-write.js';
import { alreadyHolds } from './elided-file.js';
import { spanPath, type StateDir } from './layout.js';
import { openPrivateSubdir } from './private-subdir.js';
import { sha256Hex } from './sha256-hex.js';
import { hasErrnoCode, StateError } from './state-error.js';

/**
 * Makes `spans/<sha256>.json` hold `bytes` and `spans/<sha256>.md` their rendering, durably.
 * Throws STATE_HASH_MISMATCH when `bytes` do not hash to `sha256`: a file's name never lies.
 * Creates `spans/` (0700) with the first span.
 */
export async function writeSpanFiles(state: StateDir, sha256: string, bytes: Uint8Array): Promise<void> {
  const exact = spanPath(state, sha256, 'json');
  const actual = sha256Hex(bytes);
  if (actual !== sha256) throw new StateError('STATE_HASH_MISMATCH', `span bytes for ${sha256}.json hash to ${actual}`);
  await openPrivateSubdir(state.spansDir);
  if (await alreadyHolds(exact, bytes.byteLength, sha256)) {
    // Whoever wrote it may have died before flushing the directory entry: flush it now.
    await fsyncDir(state.spansDir);
  } else {
    try {
      await writeFileDurable(exact, bytes);
    } catch (error) {
      // A short write leaves a file whose name lies; remove it unless a good copy replaced it.
      if (!(await alreadyHolds(exact, bytes.byteLength, sha256).catch(() => true))) await fs.unlink(exact).catch(() => undefined);
      throw error;
    }
  }
  // The rendering is a pure function of the bytes: rewritten only when it is not exactly that.
  const readable = Buffer.from(renderSpanMarkdown(bytes, sha256), 'utf8');
  const markdown = spanPath(state, sha256, 'md');
  if (await holdsBytes(markdown, readable)) await fsyncDir(state.spansDir);
  else await writeFileDurable(markdown, readable);
}

/** Whether `file` is a regular file holding exactly `bytes` (a symlink never does). */
async function holdsBytes(file: string, bytes: Uint8Array): Promise<boolean> {
  const stat = await fs.lstat(file).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT')) return undefined;
    throw error;
  });
  if (stat === undefined || !stat.isFile() || stat.size !== bytes.byteLength) return false;
  return Buffer.compare(await fs.readFile(file), bytes) === 0;
}
