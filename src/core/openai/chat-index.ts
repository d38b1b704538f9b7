/**
 * The index of an OpenAI Chat Completions request body (`POST /v1/chat/completions`) in the
 * neutral shape.
 *
 * Each entry of `messages` is one message whose content is the one-element list [the message
 * itself] (a chat message's `content` may be null, and a tool message's content is the tool's
 * output, which a stub replaces: neither can stand for the message).
 * - A `role: "tool"` message is a tool_result block: `tool_call_id` is its id, its `content`
 *   value (a string, or a list of `text` parts) is what a stub replaces.
 * - Each entry of an assistant's `tool_calls` is a tool_use block (id `id`), spanning the call,
 *   so the plan sees which calls read an elided file back.
 * - Every other message is a block of type `message`, copied through untouched.
 */
import { scanArray, scanObject, scanString, scanValue } from '../json-scan.js';
import type { BlockInfo, MessageInfo, Span, ToolResultInfo } from '../transcript-index-types.js';
import { indexOrFailure, makeDuplicateGuard, readStringValue, readToken, scanTopLevel, ShapeError } from './index-support.js';
import type { OpenAiIndex, OpenAiIndexOutcome } from './openai-index.js';
import { ABSENT_OUTPUT, indexToolOutput, type IndexedToolOutput } from './tool-output.js';

const TOP_LEVEL_WATCHED = ['messages', 'model', 'prompt_cache_key'];
const MESSAGE_WATCHED = ['role', 'content', 'tool_call_id', 'tool_calls'];
const CALL_WATCHED = ['id'];

/** Indexes a Chat Completions request body given as raw UTF-8 bytes. Never throws. */
export function indexChat(body: Uint8Array): OpenAiIndexOutcome {
  return indexOrFailure(body, buildIndex);
}

function buildIndex(b: Uint8Array): OpenAiIndex {
  let messagesSpan: Span | undefined;
  const messages: MessageInfo[] = [];
  const toolResults: ToolResultInfo[] = [];
  const { model, promptCacheKey } = scanTopLevel(b, TOP_LEVEL_WATCHED, (key, valueStart, depth) => {
    if (key !== 'messages') return undefined;
    if (b[valueStart] !== 0x5b) throw new ShapeError('not_messages_body', '"messages" is not an array');
    const valueEnd = scanArray(b, valueStart, depth + 1, (messageStart, index, d) => indexMessage(b, messageStart, index, d, messages, toolResults));
    messagesSpan = { start: valueStart, end: valueEnd };
    return valueEnd;
  });
  if (messagesSpan === undefined) throw new ShapeError('not_messages_body', 'no "messages" key');
  return { byteLength: b.length, messagesSpan, messages, toolResults, model, promptCacheKey };
}

function indexMessage(b: Uint8Array, start: number, index: number, depth: number, messages: MessageInfo[], toolResults: ToolResultInfo[]): number {
  const where = `message ${index}`;
  if (b[start] !== 0x7b) throw new ShapeError('not_messages_body', `${where} is not an object`);
  let role: string | undefined;
  let toolCallId: string | undefined;
  let content: IndexedToolOutput = ABSENT_OUTPUT;
  const calls: BlockInfo[] = [];
  const guard = makeDuplicateGuard(MESSAGE_WATCHED, where);
  const end = scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const key = readToken(b, keyStart, keyEnd);
    guard(key);
    switch (key) {
      case 'role':
        role = readStringValue(b, valueStart, `${where} role`);
        return scanString(b, valueStart);
      case 'tool_call_id': {
        if (b[valueStart] !== 0x22) return scanValue(b, valueStart, d);
        const valueEnd = scanString(b, valueStart);
        toolCallId = readToken(b, valueStart, valueEnd);
        return valueEnd;
      }
      case 'content':
        content = indexToolOutput(b, valueStart, d, 'text');
        return content.content.end;
      case 'tool_calls':
        if (b[valueStart] !== 0x5b) return scanValue(b, valueStart, d);
        return scanArray(b, valueStart, d + 1, (callStart, k, dd) => indexCall(b, callStart, dd, `${where} tool call ${k}`, calls));
      default:
        return scanValue(b, valueStart, d);
    }
  });
  if (role === undefined) throw new ShapeError('not_messages_body', `${where} has no role`);
  let self: BlockInfo = { start, end, type: 'message', id: '' };
  if (role === 'tool') {
    if (toolCallId === undefined) throw new ShapeError('unknown_shape', `${where} (tool) has no string tool_call_id`);
    self = { start, end, type: 'tool_result', id: toolCallId };
    toolResults.push({
      start,
      end,
      ordinal: toolResults.length,
      messageIndex: index,
      blockIndex: 0,
      toolUseId: toolCallId,
      content: content.content,
      isError: false,
      hasCacheControl: content.hasCacheMark,
      textOnly: content.textOnly,
    });
  }
  // The message is its own content's one block; its tool calls lie inside it.
  messages.push({ start, end, role, content: { start, end, kind: 'array' }, blocks: [self, ...calls] });
  return end;
}

function indexCall(b: Uint8Array, start: number, depth: number, where: string, calls: BlockInfo[]): number {
  if (b[start] !== 0x7b) throw new ShapeError('unknown_shape', `${where} is not an object`);
  let id = '';
  const guard = makeDuplicateGuard(CALL_WATCHED, where);
  const end = scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const key = readToken(b, keyStart, keyEnd);
    guard(key);
    if (key !== 'id' || b[valueStart] !== 0x22) return scanValue(b, valueStart, d);
    const valueEnd = scanString(b, valueStart);
    id = readToken(b, valueStart, valueEnd);
    return valueEnd;
  });
  calls.push({ start, end, type: 'tool_use', id });
  return end;
}
