/** Reading conversation records back from `conversations/`. */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { parseConversationRecord, type ConversationRecord } from './conversation-record.js';
import { conversationPath, parseConversationName, type StateDir } from './layout.js';
import { hasErrnoCode, StateError } from './state-error.js';

/**
 * The record of conversation `key`, or undefined when it has none yet. Throws STATE_BAD_RECORD
 * for a record that does not parse or check, so the caller can fail open instead of guessing.
 */
export async function readConversation(state: StateDir, key: string): Promise<ConversationRecord | undefined> {
  const file = conversationPath(state, key);
  const text = await readTextNoFollow(file);
  return text === undefined ? undefined : parseConversationRecord(text, key, file);
}

/**
 * Every conversation record, oldest first. Only `<64 hex>.json` names are read, so
 * write-file-atomic's `<name>.<digits>` leftovers and stray files are skipped (verify reports
 * strays); a record that is there but broken throws STATE_BAD_RECORD naming its file.
 */
export async function listConversations(state: StateDir): Promise<ConversationRecord[]> {
  const names = await fs.readdir(state.conversationsDir);
  const keys = names.map(parseConversationName).filter((key): key is string => key !== undefined);
  const records: ConversationRecord[] = [];
  for (const key of keys) {
    // Records are never deleted by ctxshed, but a user may remove one while we list.
    const record = await readConversation(state, key);
    if (record !== undefined) records.push(record);
  }
  return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.key.localeCompare(b.key));
}

/** A file's UTF-8 text, or undefined when it does not exist; never reads through a symlink. */
export async function readTextNoFollow(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NOFOLLOW });
  } catch (error) {
    if (hasErrnoCode(error, 'ENOENT')) return undefined;
    if (hasErrnoCode(error, 'ELOOP') || hasErrnoCode(error, 'EMLINK')) {
      const message = `refusing to read the symbolic link ${file}`;
      throw new StateError('STATE_SYMLINK', message, { cause: error });
    }
    throw error;
  }
}
