/**
 * Where the conversation's last turn starts. Claude Code 2.1.197 and 2.1.328 put `role: "system"`
 * messages inside `messages` (the Messages API's mid-conversation system messages): the first
 * request is `[user, system]` (environment, agent types, skills, the deferred tools), and later
 * ones append reminders and queued input after the user turn. A system message is the client
 * speaking, not a turn: "the last message" of the rules means the last user or assistant message,
 * with the system messages after it.
 */
import type { MessageInfo } from './transcript-index-types.js';

/** Whether a message is a mid-conversation system message. */
export function isSystemMessage(message: Pick<MessageInfo, 'role'>): boolean {
  return message.role === 'system';
}

/**
 * The index of the last message that is not a system message: the last turn, which the trailing
 * system messages belong to. `messages.length - 1` when the last message is a turn; -1 when every
 * message is a system message (then none is a turn).
 */
export function lastTurnIndex(messages: readonly Pick<MessageInfo, 'role'>[]): number {
  for (let m = messages.length - 1; m >= 0; m--) if (!isSystemMessage(messages[m]!)) return m;
  return -1;
}
