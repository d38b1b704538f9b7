/** verify, shed mode: every span's `.json` is named by the sha256 of its own bytes, and has its `.md`. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isTempLeftover, parseSpanName, type StateDir } from './layout.js';
import { sha256Hex } from './sha256-hex.js';
import { checkKind, checkPrivate, type Findings } from './verify-findings.js';

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
  let leftovers = 0;
  for (const name of (await fs.readdir(state.spansDir)).sort()) {
    const where = `spans/${name}`;
    if (isTempLeftover(name)) {
      leftovers += 1;
      continue;
    }
    const parsed = parseSpanName(name);
    if (parsed === undefined) {
      findings.problems.push(`${where}: stray file (not <sha256>.json or <sha256>.md)`);
      continue;
    }
    const file = path.join(state.spansDir, name);
    const stat = await fs.lstat(file);
    if (!checkKind(stat, 'file', where, findings)) continue;
    checkPrivate(stat, where, findings);
    if (parsed.ext === 'md') {
      files.readable.add(parsed.sha256);
      continue;
    }
    files.exact.set(parsed.sha256, stat.size);
    const actual = sha256Hex(await fs.readFile(file));
    if (actual !== parsed.sha256) findings.problems.push(`${where}: content hashes to ${actual}, not to its name`);
  }
  if (leftovers > 0) findings.notes.push(`spans/: ignored ${leftovers} temp file(s) left by an interrupted atomic write`);
  return files;
}
