/**
 * What shed mode needs to know of each Responses API input item (docs/openai.md, "Shed mode"),
 * read in the words the span chooser already speaks for the Messages API:
 *
 * - `role`: an item only the model writes (an assistant message, a `reasoning` item, a call) is
 *   `assistant`, so a span ends right before one as it ends before an assistant turn; a user
 *   message and a tool's output (`*_output`, what the client sends) are `user`; a `developer` or
 *   `system` message is `system` (its texts ride in the stub as notices); any other item keeps its type.
 * - `toolUseIds` / `toolResultIds`: the `call_id` of every call and of every output (function,
 *   custom tool, local shell, tool search), so no span separates a call from its output.
 * - `pairsWithNext`: a `reasoning` item, which the API refuses without the item after it.
 * - `barrier`: an item no span may take or cross: `additional_tools` (Codex's tool list), a
 *   `compaction` item, which the API writes and reads back whole, and a compaction request's
 *   trigger; a span starts after the last one. The leading items (up to the first user message:
 *   Codex's instructions, its environment, the conversation's key) are one too (message-facts.ts).
 * - `texts`: a message's `content` string, or the `text` of each of its parts.
 * - `prompt`: a user message with a text of the person's, not one Codex writes itself.
 */
import { scanArray, scanObject, scanString, scanValue } from '../json-scan.js';
import { readToken } from '../openai/index-support.js';
import type { MessageInfo, Span } from '../transcript-index-types.js';
import type { MessageFacts } from './message-facts-type.js';
import { lenientText } from './text-of.js';

const CALL_TYPES: ReadonlySet<string> = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);
const OUTPUT_TYPES: ReadonlySet<string> = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output', 'tool_search_output']);
/** Items only the model writes (besides an assistant message): a span ends right before one. */
export const MODEL_ITEM_TYPES: ReadonlySet<string> = new Set([
  ...CALL_TYPES,
  'reasoning',
  'web_search_call',
  'file_search_call',
  'image_generation_call',
  'code_interpreter_call',
  'computer_call',
  'mcp_call',
]);
const BARRIER_TYPES: ReadonlySet<string> = new Set(['additional_tools', 'compaction', 'compaction_trigger', 'context_compaction']);

// Texts Codex writes into a user message by itself (its environment, the project's AGENTS.md, a
// note that a turn was cut): not the person speaking.
const CODEX_TEXT_HEADS: readonly string[] = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<turn_aborted>',
  '<user_shell_command>',
];

/** Whether a role, as an index names an item (its role, else its type), is the model's turn. */
export function isModelTurnRole(role: string): boolean {
  return role === 'assistant' || MODEL_ITEM_TYPES.has(role);
}

/**
 * Whether an indexed message is a Responses (or chat) item that stands for itself: the OpenAI
 * indexes give each item a content span that is the item (responses-index.ts), which a Messages
 * API message never has.
 */
export function isItemMessage(message: MessageInfo): boolean {
  return message.content.start === message.start && message.content.end === message.end;
}

interface ItemFields {
  type: string | undefined;
  role: string | undefined;
  callId: string | undefined;
  texts: Span[];
}

/** The facts of one Responses input item. `restoring` holds the call ids of calls that read stored text back. */
export function responsesItemFacts(b: Uint8Array, message: MessageInfo, restoring: ReadonlySet<string>): MessageFacts {
  const item = readItem(b, message.start);
  const type = item.type ?? (item.role === undefined ? '' : 'message');
  const isCall = CALL_TYPES.has(type);
  const isOutput = OUTPUT_TYPES.has(type);
  const role = roleOf(type, item.role);
  const callId = item.callId ?? '';
  const prompt = role === 'user' && type === 'message' && item.texts.some((t) => isPersonItemText(lenientText(b, t)));
  return {
    role,
    cacheControl: false,
    thinking: false,
    toolUseIds: isCall ? [callId] : [],
    toolResultIds: isOutput ? [callId] : [],
    loadsTool: false,
    texts: type === 'message' ? item.texts : [],
    prompt,
    restores: isOutput && restoring.has(callId),
    ...(type === 'reasoning' ? { pairsWithNext: true as const } : {}),
    ...(BARRIER_TYPES.has(type) ? { barrier: true as const } : {}),
  };
}

function roleOf(type: string, role: string | undefined): string {
  if (MODEL_ITEM_TYPES.has(type)) return 'assistant';
  if (OUTPUT_TYPES.has(type)) return 'user';
  if (type !== 'message') return type;
  if (role === 'developer' || role === 'system') return 'system';
  return role ?? 'user';
}

function isPersonItemText(text: string): boolean {
  const start = text.trimStart();
  return start.length > 0 && !CODEX_TEXT_HEADS.some((head) => start.startsWith(head));
}

// The index validated these bytes; these depths only feed the scanner's nesting check.
const ITEM_DEPTH = 3;

function readItem(b: Uint8Array, start: number): ItemFields {
  const fields: ItemFields = { type: undefined, role: undefined, callId: undefined, texts: [] };
  scanObject(b, start, ITEM_DEPTH, (keyStart, keyEnd, valueStart, d) => {
    const key = readToken(b, keyStart, keyEnd);
    const isString = b[valueStart] === 0x22;
    if (key === 'content' && b[valueStart] === 0x5b) return scanArray(b, valueStart, d + 1, (at, _i, dd) => readPart(b, at, dd, fields.texts));
    if (!isString) return scanValue(b, valueStart, d);
    const end = scanString(b, valueStart);
    if (key === 'type') fields.type = readToken(b, valueStart, end);
    else if (key === 'role') fields.role = readToken(b, valueStart, end);
    else if (key === 'call_id') fields.callId = readToken(b, valueStart, end);
    else if (key === 'content') fields.texts.push({ start: valueStart, end });
    return end;
  });
  return fields;
}

/** A content part's `text` string token, when it has one (`input_text`, `output_text`). */
function readPart(b: Uint8Array, at: number, depth: number, texts: Span[]): number {
  if (b[at] !== 0x7b) return scanValue(b, at, depth);
  return scanObject(b, at, depth + 1, (keyStart, keyEnd, valueStart, d) => {
    if (b[valueStart] !== 0x22 || readToken(b, keyStart, keyEnd) !== 'text') return scanValue(b, valueStart, d);
    const end = scanString(b, valueStart);
    texts.push({ start: valueStart, end });
    return end;
  });
}
