/**
 * Reading what the reports need from a state directory (I/O), without creating or changing
 * anything in it. A broken record is a warning, not a failure: the reports show the rest, and
 * `ctxshed verify` says what is wrong.
 */
import fs from 'node:fs/promises';
import type { ConversationRecord } from '../state/conversation-record.js';
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

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).sort();
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT')) return [];
    throw error;
  }
}
