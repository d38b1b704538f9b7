/**
 * A shed span's files: `spans/<sha256>.json` holds its exact bytes (named by their sha256, so
 * `sha256sum` audits it) and `spans/<sha256>.md` a readable rendering of them. Both are durable
 * once this resolves, before any record (and so any stub) names them.
 */
import fs from 'node:fs/promises';
import { renderSpanMarkdown } from '../core/index.js';
import { fsyncDir, writeFileDurable } from './atomic-write.js';
import { writeContentFile } from './elided-file.js';
import { spanPath, type StateDir } from './layout.js';
import { hasErrnoCode } from './state-error.js';

/**
 * Makes `spans/<sha256>.json` hold `bytes` and `spans/<sha256>.md` their rendering, durably.
 * Throws STATE_HASH_MISMATCH when `bytes` do not hash to `sha256`: a file's name never lies.
 * Creates `spans/` (0700) with the first span.
 */
export async function writeSpanFiles(state: StateDir, sha256: string, bytes: Uint8Array): Promise<void> {
  await writeContentFile({ dir: state.spansDir, target: spanPath(state, sha256, 'json'), what: 'span bytes' }, sha256, bytes, { createDir: true });
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
