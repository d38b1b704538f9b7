/**
 * verify's walk over one folder of the state directory whose files are named by what they hold
 * (elided/, spans/, thinking/, sealed/, conversations/): temp leftovers of an interrupted atomic
 * write are counted into one note, a name the folder does not use is a stray file, and every
 * well-named entry must be a private regular file before it is looked at.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { isTempLeftover } from './layout.js';
import { sha256Hex } from './sha256-hex.js';
import { checkKind, checkPrivate, type Findings } from './verify-findings.js';

/** One well-named regular file of a store folder. */
export interface StoreEntry<P> {
  readonly name: string;
  /** What the name says (its sha256, extension, key...). */
  readonly parsed: P;
  readonly file: string;
  /** How findings name it: `<folder>/<name>`. */
  readonly where: string;
  readonly size: number;
}

/** How one folder names its files. */
export interface StoreFolder<P> {
  readonly dir: string;
  /** The folder's name in findings (`elided`, `spans`, ...). */
  readonly label: string;
  readonly parse: (name: string) => P | undefined;
  /** The names the folder holds, for the stray-file problem (`<sha256>.json`). */
  readonly names: string;
}

/** Walks `folder` in name order, calling `visit` for each well-named regular file. */
export async function walkStore<P>(folder: StoreFolder<P>, findings: Findings, visit: (entry: StoreEntry<P>) => Promise<void>): Promise<void> {
  let leftovers = 0;
  for (const name of (await fs.readdir(folder.dir)).sort()) {
    const where = `${folder.label}/${name}`;
    if (isTempLeftover(name)) {
      leftovers += 1;
      continue;
    }
    const parsed = folder.parse(name);
    if (parsed === undefined) {
      findings.problems.push(`${where}: stray file (not ${folder.names})`);
      continue;
    }
    const file = path.join(folder.dir, name);
    const stat = await fs.lstat(file);
    if (!checkKind(stat, 'file', where, findings)) continue;
    checkPrivate(stat, where, findings);
    await visit({ name, parsed, file, where, size: stat.size });
  }
  if (leftovers > 0) findings.notes.push(`${folder.label}/: ignored ${leftovers} temp file(s) left by an interrupted atomic write`);
}

/** A problem unless `bytes` hash to `sha256`, the name they are kept under. */
export function checkHashName(bytes: Uint8Array, sha256: string, where: string, findings: Findings): void {
  const actual = sha256Hex(bytes);
  if (actual !== sha256) findings.problems.push(`${where}: content hashes to ${actual}, not to its name`);
}

/** Reads a well-named file and checks that it hashes to its name. */
export async function checkFileHash(entry: StoreEntry<unknown>, sha256: string, findings: Findings): Promise<void> {
  checkHashName(await fs.readFile(entry.file), sha256, entry.where, findings);
}

/** Whether `dir` is a directory to walk: a problem when it is missing or not a directory, a warning when it is not private. */
export async function isPrivateDir(dir: string, where: string, findings: Findings): Promise<boolean> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (stat === undefined) {
    findings.problems.push(`${where}/: missing`);
    return false;
  }
  if (!checkKind(stat, 'dir', `${where}/`, findings)) return false;
  checkPrivate(stat, `${where}/`, findings);
  return true;
}
