/**
 * The conversation key of an OpenAI request (Responses or chat), from what those APIs offer:
 *
 * - the leading items in a canonical form (keys sorted): every item up to and including the first
 *   `user` message (the instructions, the tools Codex sends as an item, the first user turn; or
 *   the whole `input` when it is a lone string). A client resends them unchanged as its
 *   transcript grows: the provider's prefix cache depends on it;
 * - the top-level `prompt_cache_key`, when present. Codex sets it to its thread id, so two
 *   sessions opened in one project on one day (whose leading items are identical) stay apart. It
 *   is not used alone: OpenAI suggests sharing one key among similar requests, so it may name
 *   many conversations;
 * - the client's session header, when it sends one (Codex 0.169.0: `session-id`, also the thread
 *   id, unchanged across `codex exec resume`, so a resumed thread finds its epochs again).
 *
 * A compaction that rewrites the leading items starts a new conversation, as `/compact` does for
 * Claude Code. Codex's remote compaction keeps them (its developer message and first user message
 * come before the `compaction` item), so the conversation goes on under the same key
 * (core/openai/remote-compaction.ts).
 */
import type { Sha256 } from '../ports.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { OpenAiIndex } from './openai-index.js';
import { sortKeys } from '../sort-keys.js';
import { isRecord } from '../../errors.js';

const KEY_FORMAT = 'ctxshed.conversation.openai/1';
const UTF8_DECODER = new TextDecoder('utf-8');
const UTF8_ENCODER = new TextEncoder();

/** The key of the conversation an OpenAI request belongs to; `undefined` when it has no (readable) leading item. */
export function openAiConversationKey(body: Uint8Array, index: OpenAiIndex, api: string, sha256: Sha256, sessionId?: string): string | undefined {
  try {
    const leading = leadingItems(body, index);
    if (leading === undefined) return undefined;
    const parts = [KEY_FORMAT, api, index.promptCacheKey ?? null, leading, sessionId ?? null];
    return sha256(UTF8_ENCODER.encode(JSON.stringify(parts)));
  } catch {
    return undefined; // an item's strings are not valid JSON text
  }
}

/** The leading items (through the first user message), parsed and with sorted keys. Throws on invalid text. */
function leadingItems(body: Uint8Array, index: TranscriptIndex): unknown[] | undefined {
  const { messagesSpan } = index;
  if (body[messagesSpan.start] === 0x22) return [{ role: 'user', content: parseSpan(body, messagesSpan) }];
  const out: unknown[] = [];
  for (const message of index.messages) {
    out.push(sortKeys(parseSpan(body, message)));
    if (message.role === 'user') return out;
  }
  return out.length === 0 ? undefined : out;
}

/**
 * The person's first prompt, for people (`ls`): the text of the first user message that is not
 * the client's own context (Codex sends `<environment_context>` as a user message before the
 * prompt). At most `max` characters.
 */
export function openAiFirstPrompt(body: Uint8Array, index: TranscriptIndex, max = 200): string {
  try {
    const { messagesSpan } = index;
    const texts =
      body[messagesSpan.start] === 0x22
        ? [String(parseSpan(body, messagesSpan))]
        : index.messages.filter((m) => m.role === 'user').map((m) => textOf(parseSpan(body, m)));
    const prompt = texts.find((t) => t.trim() !== '' && !t.trimStart().startsWith('<')) ?? texts[0] ?? '';
    const flat = prompt.replace(/\s+/g, ' ').trim();
    return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
  } catch {
    return '';
  }
}

function textOf(message: unknown): string {
  if (!isRecord(message)) return '';
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''))
    .filter((t) => t !== '')
    .join(' ');
}

function parseSpan(body: Uint8Array, span: { readonly start: number; readonly end: number }): unknown {
  return JSON.parse(UTF8_DECODER.decode(body.subarray(span.start, span.end)));
}
