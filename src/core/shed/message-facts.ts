/**
 * What shed mode needs to know of each message, read from the body's bytes: its role, whether it
 * carries `cache_control`, its thinking blocks, its tool ids, whether it loads a deferred tool,
 * and where its own texts lie.
 */
import { scanArray, scanObject, scanString, scanValue } from '../json-scan.js';
import { decodeJsonString } from '../json-string.js';
import { readOpenAiCalls } from '../openai/read-openai-calls.js';
import { readToolCalls, type ToolCall } from '../read-tool-calls.js';
import type { MessageInfo, Span, TranscriptIndex } from '../transcript-index-types.js';
import type { MessageFacts } from './message-facts-type.js';
import { responsesItemFacts } from './responses-facts.js';
import { isRestoreCall } from './restore-call.js';
import { exactText, lenientText } from './text-of.js';

export type { MessageFacts, MessageFactsReader } from './message-facts-type.js';

/** A user message with a text prompt of its own: not a tool_result message. */
export function isPersonTurn(facts: MessageFacts): boolean {
  return facts.role === 'user' && facts.toolResultIds.length === 0 && facts.texts.length > 0;
}

const ENCODER = new TextEncoder();
const CACHE_CONTROL = ENCODER.encode('cache_control');
const TEXT = ENCODER.encode('text');
const CONTENT = ENCODER.encode('content');
const TYPE = ENCODER.encode('type');
const TOOL_REFERENCE = ENCODER.encode('tool_reference');
// The index checks nesting up to its limit on the same bytes; these depths only feed that check.
const MESSAGE_DEPTH = 3;
const BLOCK_DEPTH = 5;

// Texts the client writes into a user message on its own: notices, and the reports of background
// tasks it sends by itself. A message made only of these is not the person speaking.
const CLIENT_TEXT_TAGS: readonly string[] = ['<system-reminder>', '<task-notification>'];

/** Whether a user message's text is the person's, not one the client added by itself. */
export function isPersonText(text: string): boolean {
  const start = text.trimStart();
  return start.length > 0 && !CLIENT_TEXT_TAGS.some((tag) => start.startsWith(tag));
}

/**
 * The facts of every message of a Messages API body (the Messages dialect's `messageFacts`): each
 * message read block by block. The body must be the one `index` was built from.
 */
export function readMessagesFacts(body: Uint8Array, index: TranscriptIndex): MessageFacts[] {
  const nestedCache = new Set<number>();
  for (const result of index.toolResults) if (result.hasCacheControl) nestedCache.add(result.start);
  const restoring = restoringCalls(readToolCalls(body, index));
  return index.messages.map((message) => factsOf(body, message, nestedCache, restoring));
}

/**
 * The facts of every item of an OpenAI body (the Responses and chat dialects' `messageFacts`):
 * each item its own message (responses-facts.ts), and the leading items, up to the first user
 * message, a barrier no span crosses. The body must be the one `index` was built from.
 */
export function readItemFacts(body: Uint8Array, index: TranscriptIndex): MessageFacts[] {
  const restoring = restoringCalls(readOpenAiCalls(body, index));
  const facts = index.messages.map((message) => responsesItemFacts(body, message, restoring));
  const head = facts.findIndex((f) => f.role === 'user' && f.toolResultIds.length === 0);
  if (head >= 0) facts[head] = { ...facts[head]!, barrier: true };
  return facts;
}

/** The ids of the calls that read ctxshed's stored text back (restore-call.ts). */
function restoringCalls(calls: ReadonlyMap<string, ToolCall>): Set<string> {
  const restoring = new Set<string>();
  for (const [id, call] of calls) if (isRestoreCall(call)) restoring.add(id);
  return restoring;
}

/** The person's texts of a message (isPersonText), exact where they can be. */
export function personTexts(body: Uint8Array, facts: MessageFacts): string[] {
  return facts.texts.map((token) => exactText(body, token) ?? lenientText(body, token)).filter(isPersonText);
}

function factsOf(b: Uint8Array, message: MessageInfo, nestedCache: ReadonlySet<number>, restoring: ReadonlySet<string>): MessageFacts {
  let cacheControl = hasMember(b, message, MESSAGE_DEPTH, CACHE_CONTROL);
  let thinking = false;
  const toolUseIds: string[] = [];
  const toolResultIds: string[] = [];
  let loadsTool = false;
  let restores = false;
  const texts: Span[] = [];
  if (message.content.kind === 'string') texts.push({ start: message.content.start, end: message.content.end });
  for (const block of message.blocks) {
    if (nestedCache.has(block.start)) cacheControl = true;
    else if (hasMember(b, block, BLOCK_DEPTH, CACHE_CONTROL)) cacheControl = true;
    switch (block.type) {
      // A server tool's result sits in the same assistant message, so it pairs nothing across
      // messages; only client tools do.
      case 'tool_use':
        toolUseIds.push(block.id);
        break;
      case 'tool_result':
        toolResultIds.push(block.id);
        if (restoring.has(block.id)) restores = true;
        if (!loadsTool && holdsToolReference(b, block)) loadsTool = true;
        break;
      case 'thinking':
      case 'redacted_thinking':
        thinking = true;
        break;
      case 'text': {
        const text = stringMember(b, block, BLOCK_DEPTH, TEXT);
        if (text !== undefined) texts.push(text);
        break;
      }
      default:
        break;
    }
  }
  const prompt = message.role === 'user' && texts.some((token) => isPersonText(lenientText(b, token)));
  return { role: message.role, cacheControl, thinking, toolUseIds, toolResultIds, loadsTool, texts, prompt, restores };
}

/** Whether the tool_result at `span` has a `content` list holding a block of type `tool_reference`. */
function holdsToolReference(b: Uint8Array, span: Span): boolean {
  let found = false;
  scanObject(b, span.start, BLOCK_DEPTH, (keyStart, keyEnd, valueStart, d) => {
    if (b[valueStart] !== 0x5b || !keyEquals(b, keyStart, keyEnd, CONTENT)) return scanValue(b, valueStart, d);
    return scanArray(b, valueStart, d + 1, (itemStart, _i, dd) => {
      if (b[itemStart] !== 0x7b) return scanValue(b, itemStart, dd);
      return scanObject(b, itemStart, dd + 1, (kStart, kEnd, vStart, ddd) => {
        const vEnd = scanValue(b, vStart, ddd);
        if (b[vStart] === 0x22 && keyEquals(b, kStart, kEnd, TYPE) && keyEquals(b, vStart, vEnd, TOOL_REFERENCE)) found = true;
        return vEnd;
      });
    });
  });
  return found;
}

/** Whether the object at `span` has a member named `key`. */
function hasMember(b: Uint8Array, span: Span, depth: number, key: Uint8Array): boolean {
  let found = false;
  scanObject(b, span.start, depth, (keyStart, keyEnd, valueStart, d) => {
    if (keyEquals(b, keyStart, keyEnd, key)) found = true;
    return scanValue(b, valueStart, d);
  });
  return found;
}

/** The string token of the object's first member `key`, when its value is a string. */
function stringMember(b: Uint8Array, span: Span, depth: number, key: Uint8Array): Span | undefined {
  let found: Span | undefined;
  scanObject(b, span.start, depth, (keyStart, keyEnd, valueStart, d) => {
    if (found === undefined && b[valueStart] === 0x22 && keyEquals(b, keyStart, keyEnd, key)) {
      found = { start: valueStart, end: scanString(b, valueStart) };
      return found.end;
    }
    return scanValue(b, valueStart, d);
  });
  return found;
}

/** Whether the key token at [start, end) spells `key` (escapes allowed: "\u0074ext" is "text"). */
function keyEquals(b: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  const n = end - start - 2;
  if (n === key.length) {
    let same = true;
    for (let i = 0; i < n; i++) {
      if (b[start + 1 + i] !== key[i]) {
        same = false;
        break;
      }
    }
    if (same) return true;
  }
  if (b.subarray(start, end).indexOf(0x5c) < 0) return false;
  const decoded = decodeJsonString(b, start, end);
  if (decoded === undefined || decoded.length !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (decoded[i] !== key[i]) return false;
  return true;
}
