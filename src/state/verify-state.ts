/** `ctxshed verify`: does a state directory satisfy invariants 5 and 8? Read-only. */
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  CONVERSATIONS_DIR_NAME,
  ELIDED_DIR_NAME,
  layoutPaths,
  LOCK_DIR_NAME,
  LOCKS_DIR_NAME,
  OWNERS_DIR_NAME,
  PREVIEWS_DIR_NAME,
  PROXIES_DIR_NAME,
  READINGS_DIR_NAME,
  SEALED_DIR_NAME,
  WIRE_FILE_NAME,
} from './layout.js';
import { epochKindInfos } from '../core/index.js';
import { originalsFolderOf } from './originals-folder.js';
import { verifyConversations } from './verify-conversations.js';
import { checkRecordedOriginals, walkOriginals, type CheckedRecord } from './verify-originals.js';
import { verifySealed } from './verify-sealed.js';
import { isPrivateDir } from './verify-store.js';
import { checkKind, checkPrivate, type VerifyCounts } from './verify-findings.js';
import { verifyWire } from './verify-wire.js';
import { OWNER_KEY_FILE_NAME, ownerKeyPath, readOwnerKey } from './owner-key.js';

/** What verify found: it passes when `problems` is empty, whatever `notes` says. */
export interface VerifyReport {
  readonly problems: string[];
  readonly notes: string[];
  readonly checked: VerifyCounts;
}

/** Checks every file of the state directory `dir` without changing anything. */
export async function verifyState(dir: string): Promise<VerifyReport> {
  const state = layoutPaths(path.resolve(dir));
  const checked = { elided: 0, conversations: 0, epochs: 0, blocks: 0, spans: 0 };
  const report: VerifyReport = { problems: [], notes: [], checked };
  // stat, not lstat: the root may be a symlink the user chose, as openStateDir allows.
  const rootStat = await fs.stat(state.root).catch(() => undefined);
  if (rootStat === undefined || !rootStat.isDirectory()) {
    report.problems.push(`${state.root}: not a directory`);
    return report;
  }
  checkPrivate(rootStat, state.root, report);
  const names = new Set(await fs.readdir(state.root));
  // Every kind's folder (originals-folder.ts) and the layout's other parts.
  const kindFolders = new Set(epochKindInfos().map((kind) => originalsFolderOf(state, kind.originals).label));
  for (const name of [...names].sort()) {
    if (
      ![
        CONVERSATIONS_DIR_NAME,
        SEALED_DIR_NAME,
        WIRE_FILE_NAME,
        LOCK_DIR_NAME,
        LOCKS_DIR_NAME,
        OWNERS_DIR_NAME,
        PREVIEWS_DIR_NAME,
        PROXIES_DIR_NAME,
        READINGS_DIR_NAME,
        OWNER_KEY_FILE_NAME,
      ].includes(name) &&
      !kindFolders.has(name)
    ) {
      // A key being made when its process was killed: the next start makes it again.
      if (name.startsWith(`${OWNER_KEY_FILE_NAME}.`)) report.notes.push(`${name}: an owner key left half made by a killed process; it can be deleted`);
      else report.problems.push(`${name}: stray file in the state directory`);
    }
  }
  if (names.has(OWNER_KEY_FILE_NAME)) await verifyOwnerKey(state.root, report);
  if (names.has(LOCK_DIR_NAME)) {
    report.notes.push(`${LOCK_DIR_NAME}: held by a running ctxshed, or left by a killed one (taken over when stale)`);
  }
  // openStateDir makes elided/ with the state directory (the stubs' read grant names it).
  if (!names.has(ELIDED_DIR_NAME)) report.problems.push(`${ELIDED_DIR_NAME}/: missing`);
  const folders = await walkOriginals(state, names, report);
  // The files of a kind's originals that `ctxshed seal` moved to sealed/: the records that name them are still whole.
  const elided = folders.find((folder) => folder.kind.sealable === true);
  if (elided !== undefined && names.has(SEALED_DIR_NAME) && (await isPrivateDir(state.sealedDir, SEALED_DIR_NAME, report))) {
    const sealed = await verifySealed(state, elided.sizes, report);
    for (const [name, size] of sealed.files) elided.also.set(name, size);
    if (sealed.records.length > 0) {
      const n = sealed.records.length;
      report.notes.push(`sealed/: ${n} sealed block${n === 1 ? '' : 's'} (kept, not restorable; ctxshed unseal SHA gives one back)`);
    }
  }
  let records: CheckedRecord[] = [];
  if (await isPrivateDir(state.conversationsDir, CONVERSATIONS_DIR_NAME, report)) records = await verifyConversations(state, report, report.checked);
  checkRecordedOriginals(records, folders, report);
  for (const folder of folders) {
    // What `verify` prints it checked: the tool results' files, and the spans' exact files.
    if (folder.kind.counts === 'blocks') report.checked.elided += folder.sizes.size;
    if (folder.kind.counts === 'spans') report.checked.spans += [...folder.sizes.keys()].filter((name) => !name.endsWith('.md')).length;
  }
  if (names.has(WIRE_FILE_NAME)) await verifyWire(state, report);
  return report;
}

/** The owner key is a regular file, private, holding a key (docs/state.md). */
async function verifyOwnerKey(root: string, report: VerifyReport): Promise<void> {
  const stat = await fs.lstat(ownerKeyPath(root));
  if (!checkKind(stat, 'file', OWNER_KEY_FILE_NAME, report)) return;
  checkPrivate(stat, OWNER_KEY_FILE_NAME, report);
  if ((await readOwnerKey(root).catch(() => undefined)) === undefined) report.problems.push(`${OWNER_KEY_FILE_NAME}: does not hold a key (64 hex digits)`);
}
