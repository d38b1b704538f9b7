/** A conversation's record file: its bytes and its parsing (the shape is the core's ConversationRecord). */
import type { ConversationRecord } from '../core/epoch-types.js';
import { upgradeRecord } from '../core/upgrade-record.js';
import { checkConversationRecord } from './check-conversation-record.js';
import { StateError } from './state-error.js';

export { CONVERSATION_FORMAT, FIRST_PROMPT_MAX_CHARS, type ConversationRecord } from '../core/epoch-types.js';

/** The bytes of a record file: pretty-printed with 2 spaces and a final newline, for humans and diff. */
export function serializeConversationRecord(record: ConversationRecord): Uint8Array {
  return Buffer.from(`${JSON.stringify(record, null, 2)}\n`, 'utf8');
}

/**
 * Parses and checks a record file's text, a version 1 record upgraded to the one epoch shape
 * (core/upgrade-record.ts); `key` is the key its file name says. Throws
 * STATE_BAD_RECORD naming `where` and what is wrong.
 */
export function parseConversationRecord(text: string, key: string, where: string): ConversationRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StateError('STATE_BAD_RECORD', `${where} is not valid JSON`, { cause: error });
  }
  value = upgradeRecord(value);
  const problems = checkConversationRecord(value, key);
  if (problems.length > 0) {
    throw new StateError('STATE_BAD_RECORD', `${where}: ${problems.join('; ')}`);
  }
  return value as ConversationRecord;
}
