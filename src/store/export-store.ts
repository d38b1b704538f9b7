/**
 * One owner's namespace of a store written out as a state directory (private, 0700/0600): its
 * records, byte for byte as their files would be, and every original they name. The read-only
 * commands (`ls`, `show`, `stats`, `inflate`, `mcp`) run on such a copy when given `--store`, so
 * they read a database exactly as they read a directory.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { serializeConversationRecord } from '../state/conversation-record.js';
import { DIR_MODE, FILE_MODE } from '../state/layout.js';
import { openStateDir, type StateDir } from '../state/open-state-dir.js';
import { namedOriginals } from './pg-latch.js';
import type { ConversationStore, OriginalExt, OriginalKind } from './store-types.js';

/** The built-in kinds' folders; a registered kind's originals go in a folder of its own name (state/kind-original.ts). */
const FOLDER: Readonly<Record<string, string>> = { elided: 'elided', span: 'spans', thinking: 'thinking' };

/** Writes `store`'s records and originals into the new state directory `dir`; returns it opened. */
export async function exportStore(store: ConversationStore, dir: string): Promise<StateDir> {
  const state = await openStateDir(dir);
  const wanted = new Set<string>();
  for (const record of await store.listRecords()) {
    await writePrivate(path.join(state.conversationsDir, `${record.key}.json`), serializeConversationRecord(record));
    for (const id of namedOriginals(record.epochs).keys()) wanted.add(id);
  }
  for (const id of wanted) {
    const match = /^([a-z][a-z0-9_]*):([0-9a-f]{64})\.(txt|json|md)$/.exec(id);
    if (match === null) continue;
    const [, kind, sha, ext] = match as unknown as [string, OriginalKind, string, OriginalExt];
    const bytes = await store.readOriginal(kind, sha, ext);
    if (bytes === undefined) continue; // verify --store names it; the reports show what there is
    const folder = path.join(state.root, FOLDER[kind] ?? kind);
    await fs.mkdir(folder, { recursive: true, mode: DIR_MODE });
    await writePrivate(path.join(folder, `${sha}.${ext}`), bytes);
  }
  return state;
}

async function writePrivate(file: string, bytes: Uint8Array): Promise<void> {
  await fs.writeFile(file, bytes, { mode: FILE_MODE });
  await fs.chmod(file, FILE_MODE);
}
