/**
 * The client's notices that stay in force after the message that carried them. Claude Code
 * announces deferred tools once, in a `<system-reminder>` text of the user message where they
 * became available ("The following deferred tools are now available via ToolSearch", or "... are
 * no longer available"), and the MCP servers' instructions the same way; it does not repeat
 * them. A span that sheds one would leave the model unaware of tools it may still call, so a
 * shed span carries them in its stub, verbatim, as it carries goal pins.
 */

const REMINDER = '<system-reminder>';

/** Phrases of Claude Code 2.1's notices, read from its own text. */
export const CLIENT_NOTICE_MARKERS: readonly string[] = [
  'deferred tools are now available via',
  'deferred tools are no longer available',
  '# MCP Server Instructions',
];

// A notice is a reminder that opens with its phrase, not a text that merely quotes one.
const NOTICE_HEAD_CHARS = 200;

/** Whether a message text is one of those notices. */
export function isClientNotice(text: string): boolean {
  const start = text.trimStart();
  if (!start.startsWith(REMINDER)) return false;
  const head = start.slice(REMINDER.length, REMINDER.length + NOTICE_HEAD_CHARS);
  return CLIENT_NOTICE_MARKERS.some((marker) => head.includes(marker));
}
