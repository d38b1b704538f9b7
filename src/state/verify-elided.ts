/** verify, part 1: every elided file is named by the sha256 of its own bytes. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isTempLeftover, parseElidedName, type StateDir } from './layout.js';
import { sha256Hex } from './sha256-hex.js';
import { checkKind, checkPrivate, type Findings } from './verify-findings.js';

/** Checks `elided/`; returns the size of each well-named file, by name, for the record checks. */
export async function verifyElided(state: StateDir, findings: Findings): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  let leftovers = 0;
  for (const name of (await fs.readdir(state.elidedDir)).sort()) {
    const where = `elided/${name}`;
    if (isTempLeftover(name)) {
      leftovers += 1;
      continue;
    }
    const parsed = parseElidedName(name);
    if (parsed === undefined) {
      findings.problems.push(`${where}: stray file (not <sha256>.txt or <sha256>.json)`);
      continue;
    }
    const file = path.join(state.elidedDir, name);
    const stat = await fs.lstat(file);
    if (!checkKind(stat, 'file', where, findings)) continue;
    checkPrivate(stat, where, findings);
    sizes.set(name, stat.size);
    const actual = sha256Hex(await fs.readFile(file));
    if (actual !== parsed.sha256) findings.problems.push(`${where}: content hashes to ${actual}, not to its name`);
  }
  if (leftovers > 0) {
    findings.notes.push(`elided/: ignored ${leftovers} temp file(s) left by an interrupted atomic write`);
  }
  return sizes;
}
