/**
 * verify, preserved thinking: every file in `thinking/` is named by the sha256 of its own bytes,
 * and every thinking block a record removed has its file, of the recorded size.
 */
import { parseThinkingName, type StateDir } from './layout.js';
import { listConversations } from './read-conversation.js';
import type { Findings } from './verify-findings.js';
import { checkFileHash, walkStore } from './verify-store.js';

/** Checks `thinking/` (which exists); returns each well-named file's size by sha256. */
export async function verifyThinkingFiles(state: StateDir, findings: Findings): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  const folder = { dir: state.thinkingDir, label: 'thinking', parse: parseThinkingName, names: '<sha256>.json' };
  await walkStore(folder, findings, async (entry) => {
    files.set(entry.parsed, entry.size);
    await checkFileHash(entry, entry.parsed, findings);
  });
  return files;
}

/** Every removed thinking block a record names has its file (invariant 3); returns how many were checked. */
export async function verifyThinkingRecords(state: StateDir, files: ReadonlyMap<string, number>, findings: Findings): Promise<number> {
  let checked = 0;
  const used = new Set<string>();
  for (const record of await listConversations(state).catch(() => [])) {
    for (const epoch of record.epochs) {
      for (const block of epoch.thinking ?? []) {
        checked += 1;
        used.add(block.sha256);
        const size = files.get(block.sha256);
        const at = `conversations/${record.key}.json: epoch #${epoch.n} thinking ${block.ordinal}`;
        if (size === undefined) findings.problems.push(`${at}: thinking/${block.sha256}.json is missing`);
        else if (size !== block.jsonBytes)
          findings.problems.push(`${at}: thinking/${block.sha256}.json holds ${size} bytes, the record says ${block.jsonBytes}`);
      }
    }
  }
  const unused = [...files.keys()].filter((sha) => !used.has(sha)).length;
  if (unused > 0) findings.notes.push(`thinking/: ${unused} file(s) named by no record (harmless)`);
  return checked;
}
