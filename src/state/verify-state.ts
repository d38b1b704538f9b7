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
  SPANS_DIR_NAME,
  THINKING_DIR_NAME,
  WIRE_FILE_NAME,
} from './layout.js';
import { isKindFolder } from './kind-original.js';
import { verifyKindFiles } from './verify-kinds.js';
import { verifyConversations } from './verify-conversations.js';
import { verifyElided } from './verify-elided.js';
import { verifySealed } from './verify-sealed.js';
import { verifyThinkingFiles, verifyThinkingRecords } from './verify-thinking.js';
import { verifySpans, type SpanFiles } from './verify-spans.js';
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
  for (const name of [...names].sort()) {
    if (
      ![
        CONVERSATIONS_DIR_NAME,
        ELIDED_DIR_NAME,
        SPANS_DIR_NAME,
        THINKING_DIR_NAME,
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
      !isKindFolder(name)
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
  let elided = new Map<string, number>();
  if (await isPrivateDir(state.elidedDir, ELIDED_DIR_NAME, report)) elided = await verifyElided(state, report);
  report.checked.elided = elided.size;
  // spans/ appears with the first shed epoch: its absence is no fault.
  let spans: SpanFiles = { exact: new Map(), readable: new Set() };
  if (names.has(SPANS_DIR_NAME) && (await isPrivateDir(state.spansDir, SPANS_DIR_NAME, report))) spans = await verifySpans(state, report);
  report.checked.spans = spans.exact.size;
  // A sealed block's files moved to sealed/: the records that name them are still whole.
  let stored: ReadonlyMap<string, number> = elided;
  if (names.has(SEALED_DIR_NAME) && (await isPrivateDir(state.sealedDir, SEALED_DIR_NAME, report))) {
    const sealed = await verifySealed(state, elided, report);
    stored = new Map([...elided, ...sealed.files]);
    if (sealed.records.length > 0) {
      const n = sealed.records.length;
      report.notes.push(`sealed/: ${n} sealed block${n === 1 ? '' : 's'} (kept, not restorable; ctxshed unseal SHA gives one back)`);
    }
  }
  let used = new Set<string>();
  if (await isPrivateDir(state.conversationsDir, CONVERSATIONS_DIR_NAME, report)) {
    used = await verifyConversations(state, stored, report, report.checked, spans);
  }
  const unused = [...elided.keys()].filter((name) => !used.has(name)).length;
  // Files are written before the record that names them, so a killed latch leaves some behind.
  if (unused > 0) report.notes.push(`elided/: ${unused} file(s) named by no record (harmless)`);
  const unusedSpans = [...spans.exact.keys()].filter((sha) => !used.has(`span:${sha}`)).length;
  if (unusedSpans > 0) report.notes.push(`spans/: ${unusedSpans} span(s) named by no record (harmless)`);
  const lonely = [...spans.readable].filter((sha) => !spans.exact.has(sha)).length;
  if (lonely > 0) report.notes.push(`spans/: ${lonely} rendering(s) without their exact .json beside them`);
  // thinking/ appears with the first epoch that removes a thinking block: its absence is no fault.
  let thinking = new Map<string, number>();
  if (names.has(THINKING_DIR_NAME) && (await isPrivateDir(state.thinkingDir, THINKING_DIR_NAME, report))) thinking = await verifyThinkingFiles(state, report);
  await verifyThinkingRecords(state, thinking, report);
  await verifyKindFiles(state, names, report);
  if (names.has(WIRE_FILE_NAME)) await verifyWire(state, report);
  return report;
}

async function isPrivateDir(dir: string, where: string, report: VerifyReport): Promise<boolean> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (stat === undefined) {
    report.problems.push(`${where}/: missing`);
    return false;
  }
  if (!checkKind(stat, 'dir', `${where}/`, report)) return false;
  checkPrivate(stat, `${where}/`, report);
  return true;
}

/** The owner key is a regular file, private, holding a key (docs/state.md). */
async function verifyOwnerKey(root: string, report: VerifyReport): Promise<void> {
  const stat = await fs.lstat(ownerKeyPath(root));
  if (!checkKind(stat, 'file', OWNER_KEY_FILE_NAME, report)) return;
  checkPrivate(stat, OWNER_KEY_FILE_NAME, report);
  if ((await readOwnerKey(root).catch(() => undefined)) === undefined) report.problems.push(`${OWNER_KEY_FILE_NAME}: does not hold a key (64 hex digits)`);
}
