/**
 * Reading what the reports need from a state directory (I/O), without creating or changing
 * anything in it. A broken record is a warning, not a failure: the reports show the rest, and
 * `ctxshed verify` says what is wrong.
 */
import fs from 'node:fs/promises';
import { epochKindInfos, itemsOfEpoch, type EpochKindInfo, type OriginalFileExt, type ShownExt } from '../core/index.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import { parseOriginalName } from '../state/kind-original.js';
import { originalsFolderOf } from '../state/originals-folder.js';
import { parseConversationName, type StateDir } from '../state/layout.js';
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

/**
 * The exact files `show` prints, in each kind's folder, by the sha256 their names carry: of the
 * extensions the kind shows (`shownExtsOf`), one per sha256 and kind; a file `seal` moved to
 * sealed/ is not among them (show says it is sealed).
 */
export async function listShownFiles(state: StateDir, records: readonly ConversationRecord[]): Promise<IdCandidate[]> {
  const found: IdCandidate[] = [];
  for (const kind of epochKindInfos()) {
    const exts = [...shownExtsOf(kind, records).keys()];
    if (exts.length === 0) continue;
    const seen = new Set<string>();
    for (const name of await namesIn(originalsFolderOf(state, kind.originals).dir)) {
      const parsed = parseOriginalName(name, exts);
      if (parsed === undefined || seen.has(parsed.sha256)) continue;
      seen.add(parsed.sha256);
      found.push({ id: parsed.sha256, kind: 'original', of: { tag: kind.tag, ext: parsed.ext } });
    }
  }
  return found;
}

/**
 * The extensions of a kind's exact files `show` prints, each with its names there: the kind's
 * `shown`, else the extension it restores, else those its items in `records` name with a size
 * (not a rendering), each named by its tag.
 */
export function shownExtsOf(kind: EpochKindInfo, records: readonly ConversationRecord[]): ReadonlyMap<OriginalFileExt, ShownExt> {
  if (kind.shown !== undefined) return new Map(Object.entries(kind.shown.exts) as [OriginalFileExt, ShownExt][]);
  const named = { kind: kind.tag, label: kind.tag };
  if (kind.restorable !== undefined) return new Map([[kind.restorable.ext, named]]);
  const items = records.flatMap((r) => r.epochs.flatMap((e) => itemsOfEpoch(e, kind)));
  return new Map(items.flatMap((item) => kind.filesOf(item).flatMap((f) => (f.bytes === undefined ? [] : [[f.ext, named] as const]))));
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT')) return [];
    throw error;
  }
}
