/** verify, part 1: every elided file is named by the sha256 of its own bytes. */
import { parseElidedName, type StateDir } from './layout.js';
import type { Findings } from './verify-findings.js';
import { checkFileHash, walkStore } from './verify-store.js';

/** Checks `elided/`; returns the size of each well-named file, by name, for the record checks. */
export async function verifyElided(state: StateDir, findings: Findings): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const folder = { dir: state.elidedDir, label: 'elided', parse: parseElidedName, names: '<sha256>.txt or <sha256>.json' };
  await walkStore(folder, findings, async (entry) => {
    sizes.set(entry.name, entry.size);
    await checkFileHash(entry, entry.parsed.sha256, findings);
  });
  return sizes;
}
