/**
 * verify, registered epoch kinds (core/epochs/kind-info.ts): each kind's folder is private, every
 * file in it is named by the sha256 of its own bytes, and every file a record's items name (the
 * kind's `filesOf`) is there at the size it says (invariant 5). The built-in kinds are checked by
 * verify-elided.ts, verify-spans.ts and verify-thinking.ts.
 */
import fs from 'node:fs/promises';
import { registeredKinds } from '../core/index.js';
import { kindFolderPath, parseKindOriginalName } from './kind-original.js';
import type { StateDir } from './layout.js';
import { listConversations } from './read-conversation.js';
import { checkKind, checkPrivate, type Findings } from './verify-findings.js';
import { checkFileHash, walkStore } from './verify-store.js';

/** Checks each registered kind's folder in `names` (the state root's), then what the records name in them. */
export async function verifyKindFiles(state: StateDir, names: ReadonlySet<string>, findings: Findings): Promise<void> {
  const kinds = registeredKinds();
  if (kinds.length === 0) return;
  const sizes = new Map<string, number>();
  for (const kind of kinds) {
    const dir = kindFolderPath(state, kind.originals);
    if (!names.has(kind.originals) || !(await isPrivateDir(dir, kind.originals, findings))) continue;
    const folder = { dir, label: kind.originals, parse: parseKindOriginalName, names: '<sha256>.<txt|json|md>' };
    await walkStore(folder, findings, async (entry) => {
      sizes.set(`${kind.originals}/${entry.name}`, entry.size);
      if (entry.parsed.ext !== 'md') await checkFileHash(entry, entry.parsed.sha256, findings);
    });
  }
  const used = new Set<string>();
  for (const record of await listConversations(state).catch(() => [])) {
    for (const epoch of record.epochs) {
      for (const kind of kinds) {
        for (const file of kind.itemsOf(epoch).flatMap((item) => kind.filesOf(item))) {
          const name = `${kind.originals}/${file.sha256}.${file.ext}`;
          const at = `conversations/${record.key}.json: epoch #${epoch.n} ${kind.tag}`;
          used.add(name);
          const size = sizes.get(name);
          if (size === undefined) findings.problems.push(`${at}: ${name} is missing`);
          else if (file.bytes !== undefined && size !== file.bytes) findings.problems.push(`${at}: ${name} holds ${size} bytes, the item says ${file.bytes}`);
        }
      }
    }
  }
  const unused = [...sizes.keys()].filter((name) => !used.has(name)).length;
  if (unused > 0) findings.notes.push(`${unused} registered kind file(s) named by no record (harmless)`);
}

async function isPrivateDir(dir: string, where: string, findings: Findings): Promise<boolean> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (stat === undefined || !checkKind(stat, 'dir', `${where}/`, findings)) return false;
  checkPrivate(stat, `${where}/`, findings);
  return true;
}
