/**
 * verify, preserved thinking: every file in `thinking/` is named by the sha256 of its own bytes,
 * and every thinking block a record removed has its file, of the recorded size.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isTempLeftover, parseThinkingName, type StateDir } from './layout.js';
import { listConversations } from './read-conversation.js';
import { sha256Hex } from './sha256-hex.js';
import { checkKind, checkPrivate, type Findings } from './verify-findings.js';

/** Checks `thinking/` (which exists); returns each well-named file's size by sha256. */
export async function verifyThinkingFiles(state: StateDir, findings: Findings): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  let leftovers = 0;
  for (const name of (await fs.readdir(state.thinkingDir)).sort()) {
    const where = `thinking/${name}`;
    if (isTempLeftover(name)) {
      leftovers += 1;
      continue;
    }
    const sha256 = parseThinkingName(name);
    if (sha256 === undefined) {
      findings.problems.push(`${where}: stray file (not <sha256>.json)`);
      continue;
    }
    const file = path.join(state.thinkingDir, name);
    const stat = await fs.lstat(file);
    if (!checkKind(stat, 'file', where, findings)) continue;
    checkPrivate(stat, where, findings);
    files.set(sha256, stat.size);
    const actual = sha256Hex(await fs.readFile(file));
    if (actual !== sha256) findings.problems.push(`${where}: content hashes to ${actual}, not to its name`);
  }
  if (leftovers > 0) findings.notes.push(`thinking/: ignored ${leftovers} temp file(s) left by an interrupted atomic write`);
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
