/** A one-line excerpt of a prompt, for a span's tombstone. */

// A lone surrogate (a JSON escape like "\ud800" with no partner) cannot be sent as UTF-8: the
// stub's bytes would carry U+FFFD where the record said otherwise. The record and the stub carry
// U+FFFD alike; the span's file keeps the exact bytes.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with every lone surrogate replaced by U+FFFD, so that it survives UTF-8 as it is. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** The longest tombstone excerpt, in characters (code points). */
export const TOMBSTONE_MAX_CHARS = 200;

// Claude Code opens a session with its own reminders (agent list, skills, project context) before
// the prompt; what the person asked for is the rest.
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/**
 * The prompt's texts joined on one line: reminders left out (unless nothing else is left),
 * whitespace collapsed, at most TOMBSTONE_MAX_CHARS characters (an ellipsis marks a cut).
 */
export function promptExcerpt(texts: readonly string[]): string {
  const joined = wellFormed(texts.join(' '));
  const prompt = joined.replace(REMINDER, ' ').trim();
  const flat = (prompt === '' ? joined : prompt).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= TOMBSTONE_MAX_CHARS ? flat : `${chars.slice(0, TOMBSTONE_MAX_CHARS - 1).join('')}…`;
}

/** The longest latest prompt a stub carries verbatim, in characters (code points). */
export const PROMPT_MAX_CHARS = 4_000;

/**
 * The person's latest prompt for a stub: their texts joined by blank lines, verbatim, cut to
 * PROMPT_MAX_CHARS (a pasted log is not what they asked; the span keeps all of it).
 */
export function latestPrompt(texts: readonly string[]): string {
  const joined = wellFormed(texts.join('\n\n'));
  const chars = Array.from(joined);
  return chars.length <= PROMPT_MAX_CHARS ? joined : `${chars.slice(0, PROMPT_MAX_CHARS).join('')} […cut; the rest is in the span]`;
}
