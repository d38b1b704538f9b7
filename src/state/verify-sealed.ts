/** verify, part 1b: `sealed/` holds each sealed block's files, each hashing to its name, and their records. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isTempLeftover, parseElidedName, parseSealRecordName, type StateDir } from './layout.js';
import { checkSealRecord, type SealRecord } from './seal-record.js';
import { sha256Hex } from './sha256-hex.js';
import { checkKind, checkPrivate, type Findings } from './verify-findings.js';

/** What `sealed/` holds: each well-named file's size by name, and the seal records that check. */
export interface SealedFindings {
  readonly files: Map<string, number>;
  readonly records: SealRecord[];
}

/**
 * Checks `sealed/` (which exists only once something was sealed). `elided` are the names and
 * sizes in elided/: a record whose text is still there is an interrupted seal or unseal, a note.
 */
export async function verifySealed(state: StateDir, elided: ReadonlyMap<string, number>, findings: Findings): Promise<SealedFindings> {
  const files = new Map<string, number>();
  const records: SealRecord[] = [];
  let leftovers = 0;
  for (const name of (await fs.readdir(state.sealedDir)).sort()) {
    const where = `sealed/${name}`;
    if (isTempLeftover(name)) {
      leftovers += 1;
      continue;
    }
    const file = path.join(state.sealedDir, name);
    const recordSha = parseSealRecordName(name);
    const parsed = parseElidedName(name);
    if (recordSha === undefined && parsed === undefined) {
      findings.problems.push(`${where}: stray file (not <sha256>.txt, <sha256>.json or <sha256>.seal.json)`);
      continue;
    }
    const stat = await fs.lstat(file);
    if (!checkKind(stat, 'file', where, findings)) continue;
    checkPrivate(stat, where, findings);
    const bytes = await fs.readFile(file);
    if (recordSha !== undefined) {
      const record = readRecord(bytes, recordSha, where, findings);
      if (record !== undefined) records.push(record);
      continue;
    }
    files.set(name, stat.size);
    const actual = sha256Hex(bytes);
    if (actual !== parsed!.sha256) findings.problems.push(`${where}: content hashes to ${actual}, not to its name`);
  }
  if (leftovers > 0) findings.notes.push(`sealed/: ignored ${leftovers} temp file(s) left by an interrupted atomic write`);
  checkRecordFiles(records, files, elided, findings);
  return { files, records };
}

function readRecord(bytes: Buffer, sha256: string, where: string, findings: Findings): SealRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    findings.problems.push(`${where}: not valid JSON`);
    return undefined;
  }
  const problems = checkSealRecord(value, sha256);
  findings.problems.push(...problems.map((p) => `${where}: ${p}`));
  return problems.length === 0 ? (value as SealRecord) : undefined;
}

// The text is never deleted: a record's files are in sealed/, or (interrupted) still in elided/.
function checkRecordFiles(records: readonly SealRecord[], files: ReadonlyMap<string, number>, elided: ReadonlyMap<string, number>, findings: Findings): void {
  const recorded = new Set<string>();
  for (const record of records) {
    const where = `sealed/${record.sha256}.seal.json`;
    for (const name of [`${record.sha256}.txt`, ...record.raw.map((raw) => `${raw}.json`)]) {
      recorded.add(name);
      if (files.has(name)) continue;
      if (elided.has(name))
        findings.notes.push(`${where}: elided/${name} is not moved yet (a seal or unseal was interrupted; run ctxshed seal or unseal again)`);
      else findings.problems.push(`${where}: ${name} is in neither sealed/ nor elided/`);
    }
    const size = files.get(`${record.sha256}.txt`) ?? elided.get(`${record.sha256}.txt`);
    if (size !== undefined && size !== record.bytes) findings.problems.push(`${where}: the text has ${size} bytes, the record says ${record.bytes}`);
  }
  for (const name of files.keys()) {
    if (!recorded.has(name)) findings.notes.push(`sealed/${name}: no seal record names it (ctxshed seal SHA records it again)`);
  }
}
