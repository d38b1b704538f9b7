/** verify, part 1b: `sealed/` holds each sealed block's files, each hashing to its name, and their records. */
import fs from 'node:fs/promises';
import { parseElidedName, parseSealRecordName, type StateDir } from './layout.js';
import { checkSealRecord, type SealRecord } from './seal-record.js';
import type { Findings } from './verify-findings.js';
import { checkHashName, walkStore } from './verify-store.js';

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
  const folder = { dir: state.sealedDir, label: 'sealed', parse: parseSealedName, names: '<sha256>.txt, <sha256>.json or <sha256>.seal.json' };
  await walkStore(folder, findings, async (entry) => {
    const bytes = await fs.readFile(entry.file);
    if (entry.parsed.record) {
      const record = readRecord(bytes, entry.parsed.sha256, entry.where, findings);
      if (record !== undefined) records.push(record);
      return;
    }
    files.set(entry.name, entry.size);
    checkHashName(bytes, entry.parsed.sha256, entry.where, findings);
  });
  checkRecordFiles(records, files, elided, findings);
  return { files, records };
}

// A seal record (`<sha256>.seal.json`) or a sealed block's file (`<sha256>.txt` / `.json`).
function parseSealedName(name: string): { readonly sha256: string; readonly record: boolean } | undefined {
  const recordSha = parseSealRecordName(name);
  if (recordSha !== undefined) return { sha256: recordSha, record: true };
  const parsed = parseElidedName(name);
  return parsed === undefined ? undefined : { sha256: parsed.sha256, record: false };
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
