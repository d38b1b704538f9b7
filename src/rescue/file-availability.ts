/**
 * Which elided files are known to exist, so no stub ever names a missing one (invariant 5).
 * Files are content-addressed and never removed by ctxshed, so once seen they stay known; a
 * file a person deletes by hand is noticed after a restart, or by `ctxshed verify`.
 */
import fs from 'node:fs/promises';
import type { FrozenBlock } from '../core/index.js';
import { elidedPath, type StateDir } from '../state/layout.js';

export class FileAvailability {
  readonly #seen = new Set<string>();

  constructor(readonly state: StateDir) {}

  /** Looks up, once each, the files of blocks not yet known to exist. */
  async check(blocks: readonly FrozenBlock[]): Promise<void> {
    const unknown: Array<[string, 'txt' | 'json']> = [];
    for (const b of blocks) {
      if (!this.#seen.has(`${b.sha256}.txt`)) unknown.push([b.sha256, 'txt']);
      if (b.rawSha256 !== undefined && !this.#seen.has(`${b.rawSha256}.json`)) unknown.push([b.rawSha256, 'json']);
    }
    await Promise.all(
      unknown.map(async ([sha, ext]) => {
        try {
          const stat = await fs.stat(elidedPath(this.state, sha, ext));
          if (stat.isFile()) this.#seen.add(`${sha}.${ext}`);
        } catch {
          // Missing: the rewrite leaves this block alone (reason file_missing).
        }
      }),
    );
  }

  /** Whether every file the block's stub would name is known to exist. */
  has(block: FrozenBlock): boolean {
    return this.#seen.has(`${block.sha256}.txt`) && (block.rawSha256 === undefined || this.#seen.has(`${block.rawSha256}.json`));
  }
}
