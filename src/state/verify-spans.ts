/** verify, shed mode: every span's `.json` is named by the sha256 of its own bytes, and has its `.md`. */
import { parseSpanName, type StateDir } from './layout.js';
import type { Findings } from './verify-findings.js';
import { checkFileHash, walkStore } from './verify-store.js';

/**
 * What `spans/` holds: each well-named `.json`'s size by sha256 (one that does not hash to its
 * name is a problem of its own, and is kept here as elided/ keeps such a file, so a record naming
 * it is not also told the file is missing), and which sha256s have a `.md`.
 */
export interface SpanFiles {
  readonly exact: Map<string, number>;
  readonly readable: Set<string>;
}

/** Checks `spans/` (which exists); returns its files for the record checks. */
export async function verifySpans(state: StateDir, findings: Findings): Promise<SpanFiles> {
  const files: SpanFiles = { exact: new Map(), readable: new Set() };
  const folder = { dir: state.spansDir, label: 'spans', parse: parseSpanName, names: '<sha256>.json or <sha256>.md' };
  await walkStore(folder, findings, async (entry) => {
    if (entry.parsed.ext === 'md') {
      files.readable.add(entry.parsed.sha256);
      return;
    }
    files.exact.set(entry.parsed.sha256, entry.size);
    await checkFileHash(entry, entry.parsed.sha256, findings);
  });
  return files;
}
