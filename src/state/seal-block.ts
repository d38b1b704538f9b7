/**
 * `ctxshed seal` and `unseal`: move a block's elided text out of `elided/` into `sealed/` and
 * back. The text is never deleted; only its folder changes, so stubs keep their bytes while no
 * read grant reaches it (docs/rescue.md, "Sealing").
 *
 * Order, under the state lock (a latch writes elided files under the same lock):
 *   seal:   record written durably, then the files renamed into sealed/, then both folders fsynced.
 *   unseal: files renamed back, both folders fsynced, then the record removed.
 * A crash between the steps leaves a record whose text is still in elided/: restore refuses it
 * (the record is there), a Read still finds it, verify notes it, and running either command
 * again finishes the job. Renames stay on one filesystem, so each file is always in one place.
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { fsyncDir, writeFileDurable } from './atomic-write.js';
import { DIR_MODE, elidedPath, parseConversationName, parseSealRecordName, sealedPath, sealRecordPath, type ElidedExt, type StateDir } from './layout.js';
import { readConversation, readTextNoFollow } from './read-conversation.js';
import { parseSealRecord, SEAL_FORMAT, serializeSealRecord, type SealRecord } from './seal-record.js';
import { sha256Hex } from './sha256-hex.js';
import { hasErrnoCode, StateError } from './state-error.js';
import { withStateLock } from './state-lock.js';
import { locateStoredFile } from './stored-file.js';
import { blocksOf } from '../core/index.js';

/** What `sealBlock` did. */
export type SealOutcome =
  | { readonly kind: 'sealed'; readonly record: SealRecord }
  | { readonly kind: 'already_sealed'; readonly record: SealRecord }
  /** No elided text has this sha256. */
  | { readonly kind: 'unknown' };

/** What `unsealBlock` did. */
export type UnsealOutcome =
  | { readonly kind: 'unsealed'; readonly record: SealRecord }
  /** No seal record: `elided` says whether the text is in elided/ (nothing to do) or nowhere. */
  | { readonly kind: 'not_sealed'; readonly elided: boolean }
  /** The record is there but the text is in neither folder: the record is kept, nothing moved. */
  | { readonly kind: 'missing'; readonly record: SealRecord };

/** Seals the elided text `sha256`: its files move to sealed/, recorded with `reason` at `now`. */
export async function sealBlock(state: StateDir, sha256: string, options: { readonly reason: string | null; readonly now: string }): Promise<SealOutcome> {
  return withStateLock(state, async (lock) => {
    const existing = await readSeal(state, sha256);
    const text = await locateStoredFile(state, sha256, 'txt');
    if (text === undefined) return existing === undefined ? { kind: 'unknown' } : { kind: 'already_sealed', record: existing };
    if (existing !== undefined && text.where === 'sealed') {
      await moveFiles(state, existing, 'sealed');
      return { kind: 'already_sealed', record: existing };
    }
    const bytes = await fs.readFile(text.path, { flag: constants.O_RDONLY | constants.O_NOFOLLOW });
    const actual = sha256Hex(bytes);
    if (actual !== sha256) throw new StateError('STATE_HASH_MISMATCH', `${text.path} hashes to ${actual}, not to its name; run ctxshed verify`);
    const record: SealRecord = existing ?? {
      format: SEAL_FORMAT,
      sha256,
      bytes: bytes.byteLength,
      reason: options.reason,
      sealedAt: options.now,
      raw: await rawFilesOf(state, sha256),
    };
    await openSealedDir(state);
    lock.assertHeld();
    // The record first: from here on restore refuses the block, wherever its text is.
    if (existing === undefined) await writeFileDurable(sealRecordPath(state, sha256), serializeSealRecord(record));
    await moveFiles(state, record, 'sealed');
    return { kind: 'sealed', record };
  });
}

/** Unseals `sha256`: its files move back to elided/, then its seal record is removed. */
export async function unsealBlock(state: StateDir, sha256: string): Promise<UnsealOutcome> {
  return withStateLock(state, async (lock) => {
    const record = await readSeal(state, sha256);
    if (record === undefined) return { kind: 'not_sealed', elided: (await locateStoredFile(state, sha256, 'txt'))?.where === 'elided' };
    if ((await locateStoredFile(state, sha256, 'txt')) === undefined) return { kind: 'missing', record };
    lock.assertHeld();
    await moveFiles(state, record, 'elided');
    await fs.unlink(sealRecordPath(state, sha256));
    await fsyncDir(state.sealedDir);
    return { kind: 'unsealed', record };
  });
}

/** The seal record of `sha256`, or undefined when it is not sealed. Throws STATE_BAD_RECORD for a broken one. */
export async function readSeal(state: StateDir, sha256: string): Promise<SealRecord | undefined> {
  const file = sealRecordPath(state, sha256);
  const text = await readTextNoFollow(file).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOTDIR')) return undefined;
    throw error;
  });
  return text === undefined ? undefined : parseSealRecord(text, sha256, file);
}

/** The sha256 of every block with a seal record (by file name: a broken record still seals). */
export async function listSealedShas(state: StateDir): Promise<Set<string>> {
  const names = await fs.readdir(state.sealedDir).catch((error: unknown) => {
    if (hasErrnoCode(error, 'ENOENT')) return [];
    throw error;
  });
  return new Set(names.map(parseSealRecordName).filter((sha): sha is string => sha !== undefined));
}

/** Moves the text and raw files of `record` into `to`, those not already there, then flushes both folders. */
async function moveFiles(state: StateDir, record: SealRecord, to: 'sealed' | 'elided'): Promise<void> {
  const files: Array<[string, ElidedExt]> = [[record.sha256, 'txt'], ...record.raw.map((raw): [string, ElidedExt] => [raw, 'json'])];
  for (const [sha, ext] of files) {
    const [from, target] =
      to === 'sealed' ? [elidedPath(state, sha, ext), sealedPath(state, sha, ext)] : [sealedPath(state, sha, ext), elidedPath(state, sha, ext)];
    const stat = await fs.lstat(from).catch((error: unknown) => {
      if (hasErrnoCode(error, 'ENOENT')) return undefined;
      throw error;
    });
    // Already moved (a second run finishing an interrupted one), or never there.
    if (stat === undefined || !stat.isFile()) continue;
    await fs.rename(from, target);
  }
  await fsyncDir(state.sealedDir);
  await fsyncDir(state.elidedDir);
}

/** The raw JSON files (`rawSha256`) the records tie to text `sha256`, those still on disk. */
async function rawFilesOf(state: StateDir, sha256: string): Promise<string[]> {
  const raws = new Set<string>();
  for (const key of (await fs.readdir(state.conversationsDir)).map(parseConversationName)) {
    if (key === undefined) continue;
    // A broken record is verify's business; it must not stop a seal.
    const record = await readConversation(state, key).catch(() => undefined);
    for (const block of record?.epochs.flatMap((e) => blocksOf(e)) ?? []) {
      if (block.sha256 === sha256 && block.rawSha256 !== undefined) raws.add(block.rawSha256);
    }
  }
  const present: string[] = [];
  for (const raw of [...raws].sort()) if ((await locateStoredFile(state, raw, 'json')) !== undefined) present.push(raw);
  return present;
}

/** Creates sealed/ (0700) if needed; refuses a symlink or a non-directory there. */
async function openSealedDir(state: StateDir): Promise<void> {
  let created = true;
  await fs.mkdir(state.sealedDir, { mode: DIR_MODE }).catch((error: unknown) => {
    if (!hasErrnoCode(error, 'EEXIST')) throw error;
    created = false;
  });
  const stat = await fs.lstat(state.sealedDir);
  if (stat.isSymbolicLink()) throw new StateError('STATE_SYMLINK', `${state.sealedDir} is a symbolic link; it must be a directory`);
  if (!stat.isDirectory()) throw new StateError('STATE_NOT_DIR', `state path ${state.sealedDir} exists and is not a directory`);
  // mkdir's mode is filtered by the umask: set it explicitly.
  if ((stat.mode & 0o777) !== DIR_MODE) await fs.chmod(state.sealedDir, DIR_MODE);
  if (created) await fsyncDir(state.root);
}
