/**
 * verify, every kind's originals (invariant 5), one path for every kind in the registry
 * (core/epochs/kind-info.ts): each kind's folder is private and holds only names of its extensions,
 * every exact file is named by the sha256 of its own bytes, and every file a record's items name
 * (the kind's `filesOf`) is there at the size it says. A file named by no record is a note: a
 * latch writes its files before the record, so a killed one leaves some behind.
 */
import { itemsOfEpoch, epochKindInfos, type ConversationRecord, type EpochKindInfo, type OriginalFileExt } from '../core/index.js';
import { ORIGINAL_EXTS, parseOriginalName } from './kind-original.js';
import { originalsFolderOf } from './originals-folder.js';
import type { StateDir } from './layout.js';
import type { Findings } from './verify-findings.js';
import { checkFileHash, isPrivateDir, walkStore } from './verify-store.js';

/** What verify found in one kind's folder. */
export interface FolderFiles {
  readonly kind: EpochKindInfo;
  /** How findings name the folder (`elided`, `spans`, a registered kind's own). */
  readonly label: string;
  /** Each well-named file's size, by name (`<sha256>.<ext>`); a file that does not hash to its name is kept, and is a problem of its own. */
  readonly sizes: Map<string, number>;
  /** Files kept elsewhere that stand for this folder's (a sealed block's, in sealed/), by name. */
  readonly also: Map<string, number>;
}

/** A record that passed its checks, and how findings name it. */
export interface CheckedRecord {
  readonly record: ConversationRecord;
  readonly where: string;
}

/**
 * Walks each kind's folder of the state directory. `names` are the root's entries: a folder that
 * is not there is no fault here (it appears with its kind's first original; verify-state.ts asks
 * for the folders every state directory is made with).
 */
export async function walkOriginals(state: StateDir, names: ReadonlySet<string>, findings: Findings): Promise<FolderFiles[]> {
  const folders: FolderFiles[] = [];
  for (const kind of epochKindInfos()) {
    const { dir, label } = originalsFolderOf(state, kind.originals);
    const files: FolderFiles = { kind, label, sizes: new Map(), also: new Map() };
    folders.push(files);
    if (!names.has(label)) continue;
    if (!(await isPrivateDir(dir, label, findings))) continue;
    const exts = kind.exts ?? ORIGINAL_EXTS;
    const folder = { dir, label, parse: (name: string) => parseOriginalName(name, exts), names: namesOf(exts) };
    await walkStore(folder, findings, async (entry) => {
      files.sizes.set(entry.name, entry.size);
      // A rendering is made from the exact bytes; only those are named by their hash.
      if (entry.parsed.ext !== 'md') await checkFileHash(entry, entry.parsed.sha256, findings);
    });
  }
  return folders;
}

/** Every file the records' items name is there, at its size (invariant 5); then the notes of files no record names. */
export function checkRecordedOriginals(records: readonly CheckedRecord[], folders: readonly FolderFiles[], findings: Findings): void {
  for (const folder of folders) {
    const { kind, label } = folder;
    const used = new Set<string>();
    for (const { record, where } of records) {
      for (const epoch of record.epochs) {
        for (const item of itemsOfEpoch(epoch, kind)) {
          const at = `${where}: epoch #${epoch.n} ${kind.describe?.(item) ?? kind.tag}`;
          for (const file of kind.filesOf(item)) {
            const name = `${file.sha256}.${file.ext}`;
            used.add(name);
            const size = folder.sizes.get(name) ?? folder.also.get(name);
            if (size === undefined) findings.problems.push(`${at}: ${label}/${name} is missing`);
            else if (file.bytes !== undefined && size !== file.bytes)
              findings.problems.push(`${at}: ${label}/${name} has ${size} bytes, the ${kind.says ?? 'item'} says ${file.bytes}`);
          }
        }
      }
    }
    noteUnused(folder, used, findings);
  }
}

// Files written before a record that never came (a killed latch) are harmless; a rendering without its exact file is noted too.
function noteUnused(folder: FolderFiles, used: ReadonlySet<string>, findings: Findings): void {
  const names = [...folder.sizes.keys()];
  const unused = names.filter((name) => !name.endsWith('.md') && !used.has(name)).length;
  if (unused > 0) findings.notes.push(`${folder.label}/: ${unused} file(s) named by no record (harmless)`);
  if (folder.kind.render === undefined) return;
  const exact = new Set(names.filter((name) => !name.endsWith('.md')).map((name) => name.slice(0, 64)));
  const lonely = names.filter((name) => name.endsWith('.md') && !exact.has(name.slice(0, 64))).length;
  if (lonely > 0) findings.notes.push(`${folder.label}/: ${lonely} rendering(s) without their exact file beside them`);
}

// `<sha256>.txt or <sha256>.json`, as a stray file's finding names what the folder holds.
function namesOf(exts: readonly OriginalFileExt[]): string {
  const each = exts.map((ext) => `<sha256>.${ext}`);
  return each.length === 1 ? (each[0] as string) : `${each.slice(0, -1).join(', ')} or ${each.at(-1) as string}`;
}
