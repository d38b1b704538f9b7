/**
 * The transcript index: where each message, content block and tool_result of a Messages API
 * request body sits, as byte offsets into the raw body. Built in one validating pass.
 */
import {
  continueArray,
  continueObject,
  JsonSyntaxError,
  scanArray,
  scanDocument,
  scanObject,
  scanString,
  scanValue,
  skipWhitespace,
  type ElementVisitor,
  type MemberVisitor,
} from './json-scan.js';
import { decodeJsonString } from './json-string.js';

/** A half-open byte range [start, end) of the body. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Where a tool_result's content value sits and what it is made of. */
export interface ToolResultContent extends Span {
  /** `absent` when the block has no `content` key; `other` for null, numbers and the like. */
  readonly kind: 'string' | 'array' | 'absent' | 'other';
  /** The string token(s) holding the text: the string itself, or each text block's `text`. */
  readonly texts: readonly Span[];
}

/** One tool_result block. */
export interface ToolResultInfo extends Span {
  /** Position among all tool_result blocks of `messages`, in document order. */
  readonly ordinal: number;
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly toolUseId: string;
  readonly content: ToolResultContent;
  readonly isError: boolean;
  /** The block, or a block inside its content, carries `cache_control`. */
  readonly hasCacheControl: boolean;
  /** Content is a string, or an array of text blocks with nothing but `type` and `text`. */
  readonly textOnly: boolean;
}

/** One content block of a message. */
export interface BlockInfo extends Span {
  readonly type: string;
  /** The `id` of a tool_use block, the `tool_use_id` of a tool_result block, else empty. */
  readonly id: string;
}

/** One entry of `messages`. */
export interface MessageInfo extends Span {
  readonly role: string;
  readonly content: Span & { readonly kind: 'string' | 'array' };
  readonly blocks: readonly BlockInfo[];
}

/** The index of one request body. */
export interface TranscriptIndex {
  readonly byteLength: number;
  /** The `messages` array value. */
  readonly messagesSpan: Span;
  readonly messages: readonly MessageInfo[];
  readonly toolResults: readonly ToolResultInfo[];
  /** The top-level `model`, when it is a string. */
  readonly model: string | undefined;
}

/** Why a body could not be indexed; a subset of the pass-through reasons. */
export type IndexFailure = 'not_json' | 'not_messages_body' | 'duplicate_key' | 'unknown_shape';

/** The index of a body, or why there is none. Never throws. */
export type IndexOutcome =
  | { readonly kind: 'indexed'; readonly index: TranscriptIndex }
  | { readonly kind: 'failed'; readonly reason: IndexFailure; readonly detail: string };

class ShapeError extends Error {
  constructor(
    readonly reason: Exclude<IndexFailure, 'not_json'>,
    detail: string,
  ) {
    super(detail);
  }
}

/** Indexes a Messages API request body given as raw UTF-8 bytes. */
export function indexTranscript(body: Uint8Array): IndexOutcome {
  const outcome = indexResumable(body);
  return outcome.kind === 'indexed' ? { kind: 'indexed', index: outcome.resumable.index } : outcome;
}

/** An index, plus what it takes to resume indexing at one of its message boundaries. */
export interface ResumableIndex {
  readonly index: TranscriptIndex;
  /** The top-level `model` as it stood when `messages` began (a `model` key after it may change it). */
  readonly modelBeforeMessages: string | undefined;
}

/** `indexTranscript`, keeping what a later resume needs. Never throws. */
export function indexResumable(body: Uint8Array): { readonly kind: 'indexed'; readonly resumable: ResumableIndex } | Extract<IndexOutcome, { kind: 'failed' }> {
  try {
    return { kind: 'indexed', resumable: buildIndex(body, undefined) };
  } catch (error) {
    if (error instanceof ShapeError) return shapeOrSyntax(body, error);
    if (error instanceof JsonSyntaxError) return { kind: 'failed', reason: 'not_json', detail: error.message };
    if (error instanceof RangeError) return { kind: 'failed', reason: 'not_json', detail: 'nesting too deep' };
    throw error;
  }
}

/**
 * The index of `body`, scanning only from the end of `from`'s message `messageCount - 1` (from
 * the `[` of `messages` when 0): messages before it and their tool results are `from`'s own. The
 * caller promises that `body` holds the same bytes as `from`'s body up to that point (the `[`
 * included); then the scan reaches it in the same state and the result equals
 * `indexResumable(body)`. `undefined` when the rest does not index: the full path says why.
 */
export function resumeIndex(body: Uint8Array, from: ResumableIndex, messageCount: number): ResumableIndex | undefined {
  if (!Number.isInteger(messageCount) || messageCount < 0 || messageCount > from.index.messages.length) return undefined;
  try {
    return buildIndex(body, { from, messageCount });
  } catch {
    return undefined;
  }
}

/** Byte offset where indexing resumes after `messageCount` messages of an index. */
export function resumeOffset(index: TranscriptIndex, messageCount: number): number {
  return messageCount === 0 ? index.messagesSpan.start : index.messages[messageCount - 1]!.end;
}

/** How many tool results lie in the first `messageCount` messages. */
export function toolResultsBefore(index: TranscriptIndex, messageCount: number): number {
  const results = index.toolResults;
  let lo = 0;
  let hi = results.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (results[mid]!.messageIndex < messageCount) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The index reports the first fault it meets in one pass; a shape fault met before a syntax
// fault further on must still say not_json, so the (rare) failure path scans the whole body.
function shapeOrSyntax(body: Uint8Array, error: ShapeError): Extract<IndexOutcome, { kind: 'failed' }> {
  try {
    scanDocument(body);
  } catch (syntax) {
    if (syntax instanceof JsonSyntaxError) return { kind: 'failed', reason: 'not_json', detail: syntax.message };
    if (syntax instanceof RangeError) return { kind: 'failed', reason: 'not_json', detail: 'nesting too deep' };
    throw syntax;
  }
  return { kind: 'failed', reason: error.reason, detail: error.message };
}

// How deep the full scan is when it reaches the messages: the body object is 1, `messages` 2.
const BODY_DEPTH = 1;
const MESSAGES_DEPTH = 2;

function buildIndex(b: Uint8Array, resume: { readonly from: ResumableIndex; readonly messageCount: number } | undefined): ResumableIndex {
  let messagesSpan: Span | undefined;
  let model: string | undefined;
  let modelBeforeMessages: string | undefined;
  let messages: MessageInfo[] = [];
  let toolResults: ToolResultInfo[] = [];
  const visitMessage: ElementVisitor = (start, index, d) => indexMessage(b, start, index, d, messages, toolResults);
  // One visitor for the body's members, used by the full scan and by a resumed one alike.
  const visitMember: MemberVisitor = (keyStart, keyEnd, valueStart, depth) => {
    const key = readKey(b, keyStart, keyEnd);
    if (key === 'model' && b[valueStart] === 0x22) {
      const end = scanString(b, valueStart);
      model = decodeShortString(b, valueStart, end);
      return end;
    }
    if (key !== 'messages') return scanValue(b, valueStart, depth);
    if (messagesSpan !== undefined) throw new ShapeError('duplicate_key', 'two "messages" keys');
    if (b[valueStart] !== 0x5b) throw new ShapeError('not_messages_body', '"messages" is not an array');
    modelBeforeMessages = model;
    const end = scanArray(b, valueStart, depth + 1, visitMessage);
    messagesSpan = { start: valueStart, end };
    return end;
  };
  let end: number;
  if (resume === undefined) {
    const start = skipWhitespace(b, 0);
    if (b[start] !== 0x7b) {
      scanDocument(b); // not JSON at all, or JSON of another kind: the reason says which
      throw new ShapeError('not_messages_body', 'body is not a JSON object');
    }
    end = scanObject(b, start, BODY_DEPTH, visitMember);
  } else {
    // The state the full scan is in at this boundary: inside `messages`, with the messages before
    // it indexed and the model seen so far. Everything after it is scanned as the full scan would.
    const { from, messageCount } = resume;
    const was = from.index;
    messages = was.messages.slice(0, messageCount);
    toolResults = was.toolResults.slice(0, toolResultsBefore(was, messageCount));
    model = modelBeforeMessages = from.modelBeforeMessages;
    const offset = resumeOffset(was, messageCount);
    const arrayEnd =
      messageCount === 0 ? scanArray(b, offset, MESSAGES_DEPTH, visitMessage) : continueArray(b, offset, MESSAGES_DEPTH, messageCount, visitMessage);
    messagesSpan = { start: was.messagesSpan.start, end: arrayEnd };
    end = continueObject(b, arrayEnd, BODY_DEPTH, visitMember);
  }
  if (skipWhitespace(b, end) !== b.length) throw new JsonSyntaxError(end, 'trailing bytes');
  if (messagesSpan === undefined) throw new ShapeError('not_messages_body', 'no "messages" key');
  return { index: { byteLength: b.length, messagesSpan, messages, toolResults, model }, modelBeforeMessages };
}

function indexMessage(b: Uint8Array, start: number, messageIndex: number, depth: number, messages: MessageInfo[], toolResults: ToolResultInfo[]): number {
  if (b[start] !== 0x7b) throw new ShapeError('not_messages_body', `message ${messageIndex} is not an object`);
  let role: string | undefined;
  let content: (Span & { kind: 'string' | 'array' }) | undefined;
  const blocks: BlockInfo[] = [];
  const end = scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const key = readKey(b, keyStart, keyEnd);
    if (key === 'role') {
      if (role !== undefined) throw new ShapeError('duplicate_key', `message ${messageIndex} has two "role" keys`);
      role = readStringValue(b, valueStart, `message ${messageIndex} role`);
      return scanString(b, valueStart);
    }
    if (key !== 'content') return scanValue(b, valueStart, d);
    if (content !== undefined) throw new ShapeError('duplicate_key', `message ${messageIndex} has two "content" keys`);
    if (b[valueStart] === 0x22) {
      const valueEnd = scanString(b, valueStart);
      content = { start: valueStart, end: valueEnd, kind: 'string' };
      return valueEnd;
    }
    if (b[valueStart] !== 0x5b) throw new ShapeError('unknown_shape', `message ${messageIndex} content is neither string nor array`);
    const valueEnd = scanArray(b, valueStart, d + 1, (blockStart, blockIndex, bd) =>
      indexBlock(b, blockStart, bd, messageIndex, blockIndex, blocks, toolResults),
    );
    content = { start: valueStart, end: valueEnd, kind: 'array' };
    return valueEnd;
  });
  if (role === undefined) throw new ShapeError('not_messages_body', `message ${messageIndex} has no role`);
  if (content === undefined) throw new ShapeError('not_messages_body', `message ${messageIndex} has no content`);
  messages.push({ start, end, role, content, blocks });
  return end;
}

function indexBlock(
  b: Uint8Array,
  start: number,
  depth: number,
  messageIndex: number,
  blockIndex: number,
  blocks: BlockInfo[],
  toolResults: ToolResultInfo[],
): number {
  if (b[start] !== 0x7b) throw new ShapeError('unknown_shape', `message ${messageIndex} block ${blockIndex} is not an object`);
  const where = `message ${messageIndex} block ${blockIndex}`;
  let seen = 0;
  let type: string | undefined;
  let id = '';
  let toolUseId: string | undefined;
  let content: ToolResultContent = { start: -1, end: -1, kind: 'absent', texts: [] };
  let contentTextOnly = true;
  let contentCacheControl = false;
  let isError = false;
  let hasCacheControl = false;
  const end = scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const key = readKey(b, keyStart, keyEnd);
    const bit = WATCHED_BLOCK_KEYS.get(key);
    if (bit !== undefined) {
      if ((seen & bit) !== 0) throw new ShapeError('duplicate_key', `${where} has two "${key}" keys`);
      seen |= bit;
    }
    switch (key) {
      case 'type':
        type = readStringValue(b, valueStart, `${where} type`);
        return scanString(b, valueStart);
      case 'id':
      case 'tool_use_id':
        if (b[valueStart] !== 0x22) return scanValue(b, valueStart, d);
        if (key === 'id') id = readStringValue(b, valueStart, `${where} id`);
        else toolUseId = readStringValue(b, valueStart, `${where} tool_use_id`);
        return scanString(b, valueStart);
      case 'is_error':
        isError = b[valueStart] === 0x74;
        return scanValue(b, valueStart, d);
      case 'cache_control':
        hasCacheControl = true;
        return scanValue(b, valueStart, d);
      case 'content': {
        const scanned = indexToolResultContent(b, valueStart, d);
        content = scanned.content;
        contentTextOnly = scanned.textOnly;
        contentCacheControl = scanned.hasCacheControl;
        return content.end;
      }
      default:
        return scanValue(b, valueStart, d);
    }
  });
  if (type === undefined) throw new ShapeError('unknown_shape', `${where} has no type`);
  if (type === 'tool_result') {
    if (toolUseId === undefined) throw new ShapeError('unknown_shape', `${where} tool_result has no string tool_use_id`);
    toolResults.push({
      start,
      end,
      ordinal: toolResults.length,
      messageIndex,
      blockIndex,
      toolUseId,
      content,
      isError,
      hasCacheControl: hasCacheControl || contentCacheControl,
      textOnly: (content.kind === 'string' || content.kind === 'array') && contentTextOnly,
    });
  }
  blocks.push({ start, end, type, id: type === 'tool_result' ? (toolUseId ?? '') : id });
  return end;
}

// Keys whose duplicates would make the meaning of a block ambiguous (JSON parsers disagree on
// which one wins), so an index that relies on them refuses the body instead of guessing.
const WATCHED_BLOCK_KEYS = new Map(['type', 'id', 'tool_use_id', 'content', 'is_error', 'cache_control'].map((key, i) => [key, 1 << i]));

function indexToolResultContent(b: Uint8Array, start: number, depth: number): { content: ToolResultContent; textOnly: boolean; hasCacheControl: boolean } {
  if (b[start] === 0x22) {
    const end = scanString(b, start);
    return { content: { start, end, kind: 'string', texts: [{ start, end }] }, textOnly: true, hasCacheControl: false };
  }
  if (b[start] !== 0x5b) {
    const end = scanValue(b, start, depth);
    return { content: { start, end, kind: 'other', texts: [] }, textOnly: false, hasCacheControl: false };
  }
  const texts: Span[] = [];
  let textOnly = true;
  let hasCacheControl = false;
  const end = scanArray(b, start, depth + 1, (itemStart, _i, d) => {
    if (b[itemStart] !== 0x7b) {
      textOnly = false;
      return scanValue(b, itemStart, d);
    }
    let type: string | undefined;
    let text: Span | undefined;
    let keys = 0;
    const itemEnd = scanObject(b, itemStart, d + 1, (keyStart, keyEnd, valueStart, dd) => {
      keys++;
      const key = readKey(b, keyStart, keyEnd);
      if (key === 'cache_control') hasCacheControl = true;
      if (key === 'type' && b[valueStart] === 0x22 && type === undefined) {
        type = readStringValue(b, valueStart, 'content block type');
        return scanString(b, valueStart);
      }
      if (key === 'text' && b[valueStart] === 0x22 && text === undefined) {
        text = { start: valueStart, end: scanString(b, valueStart) };
        return text.end;
      }
      return scanValue(b, valueStart, dd);
    });
    if (type !== 'text' || text === undefined || keys !== 2) textOnly = false;
    else texts.push(text);
    return itemEnd;
  });
  return { content: { start, end, kind: 'array', texts }, textOnly: textOnly && texts.length > 0, hasCacheControl };
}

const UTF8 = new TextDecoder('utf-8');

/** Decodes a (short) object key token to a JS string. */
function readKey(b: Uint8Array, start: number, end: number): string {
  return decodeShortString(b, start, end);
}

function readStringValue(b: Uint8Array, start: number, what: string): string {
  if (b[start] !== 0x22) throw new ShapeError('unknown_shape', `${what} is not a string`);
  return decodeShortString(b, start, scanString(b, start));
}

// Keys, roles, types and ids are short; escapes in them are legal and must mean the same as
// their plain spelling ("\u0074ype" is "type").
function decodeShortString(b: Uint8Array, start: number, end: number): string {
  const n = end - start - 2;
  if (n > 64) return decodeSlow(b, start, end);
  // The words the index looks for come back as one interned constant: no string is built, and
  // every later comparison is a pointer check (a string built with += is a rope that each
  // comparison would flatten).
  const words = KNOWN_WORDS_BY_LENGTH[n];
  if (words !== undefined) {
    next: for (const word of words) {
      for (let k = 0; k < n; k++) if (b[start + 1 + k] !== word.bytes[k]) continue next;
      return word.text;
    }
  }
  for (let i = start + 1; i < end - 1; i++) {
    const c = b[i]!;
    if (c === 0x5c || c >= 0x80) return decodeSlow(b, start, end);
  }
  return String.fromCharCode.apply(null, b.subarray(start + 1, end - 1) as unknown as number[]);
}

const KNOWN_WORDS = [
  'messages',
  'model',
  'role',
  'content',
  'type',
  'id',
  'tool_use_id',
  'is_error',
  'cache_control',
  'text',
  'name',
  'input',
  'signature',
  'thinking',
  'user',
  'assistant',
  'system',
  'tool_use',
  'tool_result',
  'redacted_thinking',
  'image',
  'document',
];
const KNOWN_WORDS_BY_LENGTH: Array<Array<{ readonly text: string; readonly bytes: Uint8Array }>> = [];
for (const text of KNOWN_WORDS) (KNOWN_WORDS_BY_LENGTH[text.length] ??= []).push({ text, bytes: new TextEncoder().encode(text) });

function decodeSlow(b: Uint8Array, start: number, end: number): string {
  const bytes = decodeJsonString(b, start, end);
  // A key that is not valid text cannot equal any key we look for; a unique marker keeps it apart.
  return bytes === undefined ? '\u0000invalid' : UTF8.decode(bytes);
}
