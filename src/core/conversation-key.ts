/**
 * The conversation key (docs/design.md "Key"): a hash of the first message in a canonical
 * form, plus the agent id header, plus the client's session id header when it sends one. The
 * first message never changes as a transcript grows, except for the two edits the client makes
 * at its cache breakpoint, which the canonical form ignores.
 *
 * The session id is there for a reason: Claude Code 2.1.197's first message is its reminders
 * (agent list, skills, project context) and the prompt, so two sessions in one project with the
 * same first prompt would share a key. `x-claude-code-session-id` tells them apart, and it stays
 * the same across `claude --resume` (seen in test/real-client), so a resumed session still finds
 * its epochs.
 */
import type { Sha256 } from './ports.js';
import type { Span, TranscriptIndex } from './transcript-index-types.js';
import { sortKeys } from './sort-keys.js';
import { isRecord } from '../errors.js';

const KEY_FORMAT = 'ctxshed.conversation/1';
const UTF8_DECODER = new TextDecoder('utf-8');
const UTF8_ENCODER = new TextEncoder();

/** The key of the conversation this request belongs to; `undefined` when it has no (readable) first message. */
export function conversationKey(body: Uint8Array, index: TranscriptIndex, agentId: string | undefined, sha256: Sha256, sessionId?: string): string | undefined {
  const first = index.messages[0];
  if (first === undefined) return undefined;
  try {
    return conversationKeyOf(body, first, agentId, sha256, sessionId);
  } catch {
    return undefined; // the first message's strings are not valid JSON text
  }
}

/**
 * The key from the first message's span alone (see first-message.ts). Throws when that span is
 * not valid JSON; callers that found it with the structural scanner catch that.
 */
export function conversationKeyOf(body: Uint8Array, first: Span, agentId: string | undefined, sha256: Sha256, sessionId?: string): string {
  const message: unknown = JSON.parse(UTF8_DECODER.decode(body.subarray(first.start, first.end)));
  const canonical = canonicalMessage(message);
  const parts = sessionId === undefined ? [KEY_FORMAT, agentId ?? null, canonical] : [KEY_FORMAT, agentId ?? null, canonical, sessionId];
  return sha256(UTF8_ENCODER.encode(JSON.stringify(parts)));
}

/** The first message's text, for people (`ls`); at most `max` characters. */
export function firstPromptExcerpt(body: Uint8Array, index: TranscriptIndex, max = 200): string {
  const first = index.messages[0];
  return first === undefined ? '' : promptOfFirstMessage(body, first, max);
}

/** The same from the first message's span alone (found by first-message.ts, no index). Throws on a span that is not JSON. */
export function promptOfFirstMessage(body: Uint8Array, first: Span, max = 200): string {
  const message = JSON.parse(UTF8_DECODER.decode(body.subarray(first.start, first.end))) as { content?: unknown };
  const content = message.content;
  let text = '';
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    text = content
      .map((b: unknown) => (isRecord(b) && typeof b['text'] === 'string' ? b['text'] : ''))
      .filter((t) => t !== '')
      .join(' ');
  }
  // Claude Code opens a session with its own reminders (agent list, skills, project context) before
  // the prompt; a person looking for a session wants the prompt.
  const prompt = text.replace(REMINDER, ' ').trim();
  const flat = (prompt === '' ? text : prompt).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

function canonicalMessage(message: unknown): unknown {
  if (!isRecord(message)) return message;
  let content = stripCacheControl(message['content']);
  // The client sends a prompt as [{"type":"text","text":P}] while it is last, then as "P".
  if (Array.isArray(content) && content.length === 1) {
    const only: unknown = content[0];
    if (isRecord(only) && only['type'] === 'text' && typeof only['text'] === 'string' && Object.keys(only).length === 2) {
      content = only['text'];
    }
  }
  return sortKeys({ ...message, content });
}

function stripCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripCacheControl);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'cache_control') out[k] = stripCacheControl(v);
  return out;
}
