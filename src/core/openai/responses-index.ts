/**
 * The index of an OpenAI Responses API request body (`POST /v1/responses`) in the neutral shape.
 *
 * `input` plays the part of `messages`. Each input item is one "message" whose content is the
 * one-element list [the item itself]: so the item's span is both the message and its only block,
 * and `role` is the item's role, or its type when it has none (`function_call_output`, ...).
 * - `function_call_output` and `custom_tool_call_output` items are the tool_result blocks: their
 *   `call_id` is the id, their `output` value is what a stub replaces (a string, or a list of
 *   `input_text` parts).
 * - `function_call` and `custom_tool_call` items are the tool_use blocks (id `call_id`), so the
 *   plan sees which calls read an elided file back.
 * - Every other item (messages, reasoning, Codex's `additional_tools`, ...) is a block of its own
 *   type, copied through untouched. An item with a `role` and no `type` is a `message`.
 *
 * A body that continues a conversation kept upstream (`previous_response_id`, `conversation`) does
 * not resend its transcript, so there is nothing stable to elide: it is refused as unknown_shape.
 * A string `input` (a lone prompt) indexes with no items.
 */
import { scanArray, scanObject, scanString, scanValue } from '../json-scan.js';
import type { BlockInfo, MessageInfo, Span, ToolResultInfo } from '../transcript-index-types.js';
import { indexOrFailure, isNullAt, makeDuplicateGuard, readStringValue, readToken, scanTopLevel, ShapeError } from './index-support.js';
import type { OpenAiIndex, OpenAiIndexOutcome } from './openai-index.js';
import { ABSENT_OUTPUT, indexToolOutput, type IndexedToolOutput } from './tool-output.js';

/** Item types whose output a stub may replace. */
export const RESPONSES_OUTPUT_TYPES: ReadonlySet<string> = new Set(['function_call_output', 'custom_tool_call_output']);
/** Item types that call a tool (and name what it reads in their arguments or input). */
export const RESPONSES_CALL_TYPES: ReadonlySet<string> = new Set(['function_call', 'custom_tool_call']);

const TOP_LEVEL_WATCHED = ['input', 'model', 'prompt_cache_key', 'previous_response_id', 'conversation'];
const ITEM_WATCHED = ['type', 'role', 'call_id', 'output'];

/** Indexes a Responses API request body given as raw UTF-8 bytes. Never throws. */
export function indexResponses(body: Uint8Array): OpenAiIndexOutcome {
  return indexOrFailure(body, buildIndex);
}

function buildIndex(b: Uint8Array): OpenAiIndex {
  let inputSpan: Span | undefined;
  let upstreamState: string | undefined;
  const messages: MessageInfo[] = [];
  const toolResults: ToolResultInfo[] = [];
  const { model, promptCacheKey } = scanTopLevel(b, TOP_LEVEL_WATCHED, (key, valueStart, depth) => {
    switch (key) {
      case 'previous_response_id':
      case 'conversation':
        if (!isNullAt(b, valueStart)) upstreamState = key;
        return undefined;
      case 'input': {
        if (b[valueStart] === 0x22) {
          inputSpan = { start: valueStart, end: scanString(b, valueStart) };
          return inputSpan.end;
        }
        if (b[valueStart] !== 0x5b) throw new ShapeError('not_messages_body', '"input" is neither an array nor a string');
        const valueEnd = scanArray(b, valueStart, depth + 1, (itemStart, index, d) => indexItem(b, itemStart, index, d, messages, toolResults));
        inputSpan = { start: valueStart, end: valueEnd };
        return valueEnd;
      }
      default:
        return undefined;
    }
  });
  if (inputSpan === undefined) throw new ShapeError('not_messages_body', 'no "input" key');
  if (upstreamState !== undefined) throw new ShapeError('unknown_shape', `"${upstreamState}": the transcript is kept upstream, not resent`);
  return { byteLength: b.length, messagesSpan: inputSpan, messages, toolResults, model, promptCacheKey };
}

function indexItem(b: Uint8Array, start: number, index: number, depth: number, messages: MessageInfo[], toolResults: ToolResultInfo[]): number {
  const where = `input item ${index}`;
  if (b[start] !== 0x7b) throw new ShapeError('unknown_shape', `${where} is not an object`);
  let type: string | undefined;
  let role: string | undefined;
  let callId: string | undefined;
  let output: IndexedToolOutput = ABSENT_OUTPUT;
  const guard = makeDuplicateGuard(ITEM_WATCHED, where);
  const end = scanObject(b, start, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    const key = readToken(b, keyStart, keyEnd);
    guard(key);
    switch (key) {
      case 'type':
        type = readStringValue(b, valueStart, `${where} type`);
        return scanString(b, valueStart);
      case 'role':
        role = readStringValue(b, valueStart, `${where} role`);
        return scanString(b, valueStart);
      case 'call_id': {
        if (b[valueStart] !== 0x22) return scanValue(b, valueStart, d);
        const valueEnd = scanString(b, valueStart);
        callId = readToken(b, valueStart, valueEnd);
        return valueEnd;
      }
      case 'output':
        output = indexToolOutput(b, valueStart, d, 'input_text');
        return output.content.end;
      default:
        return scanValue(b, valueStart, d);
    }
  });
  const kind = type ?? (role === undefined ? undefined : 'message');
  if (kind === undefined) throw new ShapeError('unknown_shape', `${where} has neither type nor role`);
  let block: BlockInfo;
  if (RESPONSES_OUTPUT_TYPES.has(kind)) {
    if (callId === undefined) throw new ShapeError('unknown_shape', `${where} (${kind}) has no string call_id`);
    block = { start, end, type: 'tool_result', id: callId };
    toolResults.push({
      start,
      end,
      ordinal: toolResults.length,
      messageIndex: index,
      blockIndex: 0,
      toolUseId: callId,
      content: output.content,
      isError: false,
      hasCacheControl: output.hasCacheMark,
      textOnly: output.textOnly,
    });
  } else if (RESPONSES_CALL_TYPES.has(kind)) {
    block = { start, end, type: 'tool_use', id: callId ?? '' };
  } else {
    block = { start, end, type: kind, id: '' };
  }
  // The item is a message whose content is [the item]: its span stands for both.
  messages.push({ start, end, role: role ?? kind, content: { start, end, kind: 'array' }, blocks: [block] });
  return end;
}
