/** Before a record is written: every file its new epochs name is already on disk. */
import type { Epoch } from '../core/epoch-types.js';
import { spanPath, thinkingPath, type StateDir } from './layout.js';
import { StateError } from './state-error.js';
import { locateStoredFile } from './stored-file.js';
import { missingKindFiles, regularSize } from './kind-original.js';

/**
 * Throws STATE_BAD_PLAN unless each block of `epochs` has its `.txt` (of exactly `bytes` bytes)
 * and, when `rawSha256` is set, its `.json`, in elided/ or (sealed) in sealed/; each span its
 * `spans/<sha256>.json` (of exactly `bytes` bytes) and `.md`; each removed thinking block its
 * `thinking/<sha256>.json` (of exactly `jsonBytes` bytes); each registered kind's item the files its
 * kind's `filesOf` names (kind-original.ts). Files found here were put by
 * writeElidedFile, by this latch or an earlier one, and so are durable; re-hashing them all would
 * cost a read of each.
 */
export async function checkPlanFiles(state: StateDir, epochs: readonly Epoch[]): Promise<void> {
  const missing: string[] = [];
  for (const epoch of epochs) {
    for (const block of epoch.blocks) {
      const text = (await locateStoredFile(state, block.sha256, 'txt'))?.size;
      if (text !== block.bytes) missing.push(`${block.sha256}.txt (${describe(text, block.bytes)})`);
      if (block.rawSha256 === undefined) continue;
      if ((await locateStoredFile(state, block.rawSha256, 'json')) === undefined) {
        missing.push(`${block.rawSha256}.json (missing)`);
      }
    }
    for (const block of epoch.thinking ?? []) {
      const size = await regularSize(thinkingPath(state, block.sha256));
      if (size !== block.jsonBytes) missing.push(`thinking/${block.sha256}.json (${describe(size, block.jsonBytes)})`);
    }
    const span = epoch.span;
    if (span === undefined) continue;
    const exact = await regularSize(spanPath(state, span.sha256, 'json'));
    if (exact !== span.bytes) missing.push(`spans/${span.sha256}.json (${describe(exact, span.bytes)})`);
    if ((await regularSize(spanPath(state, span.sha256, 'md'))) === undefined) missing.push(`spans/${span.sha256}.md (missing)`);
  }
  missing.push(...(await missingKindFiles(state, epochs)));
  if (missing.length > 0) {
    throw new StateError('STATE_BAD_PLAN', `refusing to write a record that names files not on disk: ${missing.join(', ')}`);
  }
}

function describe(size: number | undefined, expected: number): string {
  return size === undefined ? 'missing' : `${size} bytes, the block says ${expected}`;
}
