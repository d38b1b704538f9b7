/**
 * Reading what the reports need from a state directory (I/O), without creating or changing
 * anything in it. A broken record is a warning, not a failure: the reports show the rest, and
 * `ctxshed verify` says what is wrong.
 */
import fs from 'node:fs/promises';
import { itemsOfEpoch, registeredKinds, type EpochKindInfo, type OriginalFileExt } from '../core/index.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import { parseKindOriginalName } from '../state/kind-original.js';
import { originalsFolderOf } from '../state/originals-folder.js';
import { parseConversationName, parseElidedName, parseSpanName, type StateDir } from '../state/layout.js';
import { readConversation } from '../state/read-conversation.js';
import { hasErrnoCode } from '../state/state-error.js';
import type { IdCandidate } from './resolve-id.js';
import { errorText } from '../errors.js';

/** Every conversation record that reads and checks, oldest first, and a line for each that does not. */
export async function readRecordsForReport(state: StateDir): Promise<{ records: ConversationRecord[]; warnings: string[] }> {
  const records: ConversationRecord[] = [];
  const warnings: string[] = [];
  for (const name of await namesIn(state.conversationsDir)) {
    const key = parseConversationName(name);
    if (key === undefined) continue; // write-file-atomic leftovers and strays: verify's business
    try {
      const record = await readConversation(state, key);
      if (record !== undefined) records.push(record);
    } catch (error) {
      warnings.push(`${errorText(error)} (skipped; see ctxshed verify)`);
    }
  }
  records.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.key.localeCompare(b.key));
  return { records, warnings };
}

/** The shed spans, by their handles: the sha256 each `spans/<sha256>.json` is named by. */
export async function listSpanFiles(state: StateDir): Promise<IdCandidate[]> {
  return (await namesIn(state.spansDir)).flatMap((name) => {
    const parsed = parseSpanName(name);
    return parsed === undefined || parsed.ext !== 'json' ? [] : [{ id: parsed.sha256, kind: 'span' as const }];
  });
}

/** The elided files, by the sha256 their names carry. */
export async function listElidedFiles(state: StateDir): Promise<IdCandidate[]> {
  return (await namesIn(state.elidedDir)).flatMap((name) => {
    const parsed = parseElidedName(name);
    if (parsed === undefined) return [];
    return [{ id: parsed.sha256, kind: parsed.ext === 'txt' ? ('elided' as const) : ('elided-json' as const) }];
  });
}

/**
 * The originals in each registered kind's folder, by the sha256 their names carry: the files of the
 * extension the kind gives back (`restorable.ext`), else of the extensions its items in `records`
 * name with a size (exact bytes, not a rendering). One per sha256 and kind.
 */
export async function listKindOriginals(state: StateDir, records: readonly ConversationRecord[]): Promise<IdCandidate[]> {
  const found: IdCandidate[] = [];
  for (const kind of registeredKinds()) {
    const exts = exactExtsOf(kind, records);
    const seen = new Set<string>();
    for (const name of await namesIn(originalsFolderOf(state, kind.originals).dir)) {
      const parsed = parseKindOriginalName(name);
      if (parsed === undefined || !exts.has(parsed.ext) || seen.has(parsed.sha256)) continue;
      seen.add(parsed.sha256);
      found.push({ id: parsed.sha256, kind: 'original', of: { tag: kind.tag, ext: parsed.ext } });
    }
  }
  return found;
}

/** The extensions of a kind's files that hold exact bytes: the one it restores, else those its items name with a size. */
function exactExtsOf(kind: EpochKindInfo, records: readonly ConversationRecord[]): ReadonlySet<OriginalFileExt> {
  if (kind.restorable !== undefined) return new Set([kind.restorable.ext]);
  const items = records.flatMap((r) => r.epochs.flatMap((e) => itemsOfEpoch(e, kind)));
  return new Set(items.flatMap((item) => kind.filesOf(item).flatMap((f) => (f.bytes === undefined ? [] : [f.ext]))));
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT')) return [];
    throw error;
  }
}
