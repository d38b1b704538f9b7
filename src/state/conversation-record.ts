/** A conversation's record file: who it is, and the epochs latched for it so far. */
import type { Epoch } from '../core/epoch-types.js';
import { checkConversationRecord, CONVERSATION_FORMAT } from './check-conversation-record.js';
import { StateError } from './state-error.js';

export { CONVERSATION_FORMAT, FIRST_PROMPT_MAX_CHARS } from './check-conversation-record.js';

/** The content of `conversations/<key>.json`. */
export interface ConversationRecord {
  readonly format: typeof CONVERSATION_FORMAT;
  /** 64 lowercase hex digits; also the file's name. */
  readonly key: string;
  /** The `x-claude-code-agent-id` header, when the client sent one. */
  readonly agentId: string | null;
  /** The start of the first user prompt, so `ctxshed list` can show which conversation this is. */
  readonly firstPrompt: string;
  readonly model: string;
  /** ISO-8601 time the record was first written. */
  readonly createdAt: string;
  /** Numbered 1..n in latch order. */
  readonly epochs: readonly Epoch[];
}

/** The bytes of a record file: pretty-printed with 2 spaces and a final newline, for humans and diff. */
export function serializeConversationRecord(record: ConversationRecord): Uint8Array {
  return Buffer.from(`${JSON.stringify(record, null, 2)}\n`, 'utf8');
}

/**
 * Parses and checks a record file's text; `key` is the key its file name says. Throws
 * STATE_BAD_RECORD naming `where` and what is wrong.
 */
export function parseConversationRecord(text: string, key: string, where: string): ConversationRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StateError('STATE_BAD_RECORD', `ctxshed: ${where} is not valid JSON`, { cause: error });
  }
  const problems = checkConversationRecord(value, key);
  if (problems.length > 0) {
    throw new StateError('STATE_BAD_RECORD', `ctxshed: ${where}: ${problems.join('; ')}`);
  }
  return value as ConversationRecord;
}
