/**
 * Simpler implementations to compare the core with: everything here works on `JSON.parse`
 * output, with none of the core's byte offsets, and follows docs/design.md's wording directly.
 */
import { parseStub } from '../../src/core/stub.js';
import { isJsonArray, isJsonObject, type JsonObject, type JsonValue } from '../arbitraries/styled-json.js';
import { isWellFormed, utf8 } from './bytes.js';

/** What Claude Code writes in place of a tool result it cleared (docs/design.md "Eligible block"). */
export const REFERENCE_PLACEHOLDER = '[Old tool result content cleared]';

// fatal: invalid UTF-8 is not text, so JSON.parse has no say on it. ignoreBOM: keep a BOM as
// U+FEFF, which JSON.parse (like the byte scanner) refuses, instead of silently dropping it.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text, or `undefined` when they are not valid UTF-8. */
export function strictText(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

const LENIENT_UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The text with every string's contents made valid (raw control characters become spaces, a
 * backslash that starts no valid escape becomes an escaped backslash) and all else untouched.
 * A string ends at a quote not escaped by an odd run of backslashes, as in any JSON reader.
 */
export function sanitizeStrings(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!inString) {
      out += c;
      inString = c === '"';
      continue;
    }
    if (c === '"') {
      out += c;
      inString = false;
    } else if (c === '\\') {
      const e = text[i + 1];
      if (e !== undefined && '"\\/bfnrt'.includes(e)) {
        out += c + e;
        i++;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += text.slice(i, i + 6);
        i += 5;
      } else {
        out += '\\\\';
      }
    } else {
      out += c < ' ' ? ' ' : c;
    }
  }
  return out;
}

/**
 * Whether the bytes are JSON as far as structure goes: JSON.parse of the text once every string's
 * contents are made valid. Invalid UTF-8 is decoded to U+FFFD, which changes no structure: the
 * decoder never swallows the quote or bracket after a bad byte.
 */
export function isStructurallyJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(sanitizeStrings(LENIENT_UTF8.decode(bytes)));
    return true;
  } catch {
    return false;
  }
}

/** `JSON.parse` of a body's bytes; `undefined` when they are not UTF-8 text or not JSON. */
export function parseBody(bytes: Uint8Array): JsonValue | undefined {
  const text = strictText(bytes);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** A tool_result found by walking parsed JSON. */
export interface ReferenceToolResult {
  readonly ordinal: number;
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly toolUseId: JsonValue | undefined;
  readonly block: JsonObject;
}

/** The messages array of a parsed body (empty when there is none). */
export function messagesOf(body: JsonValue): readonly JsonValue[] {
  const messages = isJsonObject(body) ? body['messages'] : undefined;
  return isJsonArray(messages) ? messages : [];
}

/** Every `{"type":"tool_result"}` block of `messages[*].content[*]`, in document order. */
export function walkToolResults(body: JsonValue): ReferenceToolResult[] {
  const out: ReferenceToolResult[] = [];
  for (const [messageIndex, message] of messagesOf(body).entries()) {
    const content = isJsonObject(message) ? message['content'] : undefined;
    if (!isJsonArray(content)) continue;
    for (const [blockIndex, block] of content.entries()) {
      if (isJsonObject(block) && block['type'] === 'tool_result') {
        out.push({ ordinal: out.length, messageIndex, blockIndex, toolUseId: block['tool_use_id'], block });
      }
    }
  }
  return out;
}

/** The block, or a block of its content, carries `cache_control`. */
function carriesCacheControl(block: JsonObject): boolean {
  if ('cache_control' in block) return true;
  const content = block['content'];
  return isJsonArray(content) && content.some((item) => isJsonObject(item) && 'cache_control' in item);
}

/**
 * A tool_result's text when its content is text: the string, or the texts of an array of text
 * blocks that hold nothing but `type` and `text`, joined with "\n". Else `undefined`.
 */
export function referenceText(block: JsonObject): string | undefined {
  const content = block['content'];
  if (typeof content === 'string') return content;
  if (!isJsonArray(content) || content.length === 0) return undefined;
  const texts: string[] = [];
  for (const item of content) {
    if (!isJsonObject(item) || item['type'] !== 'text' || typeof item['text'] !== 'string') return undefined;
    if (Object.keys(item).length !== 2) return undefined;
    texts.push(item['text']);
  }
  return texts.join('\n');
}

/** A block the reference deems eligible. */
export interface ReferenceEligible {
  readonly ordinal: number;
  readonly toolUseId: string;
  readonly text: string;
  readonly messageIndex: number;
  readonly blockIndex: number;
}

/**
 * docs/design.md "Eligible block", read literally: a tool_result older than the `keepRecent` newest,
 * whose text is over `minBytes` UTF-8 bytes, not in the last message, not carrying
 * `cache_control`, not a placeholder (the client's, or a ctxshed stub), and whose content is
 * text. A text with a lone surrogate has no UTF-8 bytes (and no file could hold it), so it is not
 * eligible either.
 */
export function referenceEligible(body: JsonValue, policy: { readonly keepRecent: number; readonly minBytes: number }): ReferenceEligible[] {
  const all = walkToolResults(body);
  const lastMessage = messagesOf(body).length - 1;
  const out: ReferenceEligible[] = [];
  for (const r of all) {
    if (r.ordinal >= all.length - policy.keepRecent) continue;
    if (r.messageIndex === lastMessage || carriesCacheControl(r.block)) continue;
    const text = referenceText(r.block);
    if (text === undefined || !isWellFormed(text) || text === REFERENCE_PLACEHOLDER || parseStub(text) !== undefined) continue;
    if (utf8(text).length <= policy.minBytes) continue;
    if (typeof r.toolUseId !== 'string') continue;
    out.push({ ordinal: r.ordinal, toolUseId: r.toolUseId, text, messageIndex: r.messageIndex, blockIndex: r.blockIndex });
  }
  return out;
}
