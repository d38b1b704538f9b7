/**
 * The tool calls an OpenAI client's model made in the current turn, read for refaults: every call
 * after the person's last message. A Responses body lists each call as an item (`function_call`,
 * whose `arguments` is a JSON text; `custom_tool_call`, whose `input` is free text); a chat body
 * lists them in an assistant message's `tool_calls` (`function.arguments`). Both indexes map a call
 * to a tool_use block spanning it, so only those bytes are parsed.
 */
import { isRecord } from '../../errors.js';
import type { ToolCall } from '../read-tool-calls.js';
import type { TranscriptIndex } from '../transcript-index-types.js';

const UTF8 = new TextDecoder('utf-8');
const NO_NUMBERS: ReadonlyMap<string, number> = new Map();

/** Every call of the request by its id (the first one, if an id repeats), as the labels read them. Never throws. */
export function readOpenAiCalls(body: Uint8Array, index: TranscriptIndex): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of index.messages) {
    for (const block of message.blocks) {
      if (block.type !== 'tool_use' || block.id === '' || calls.has(block.id)) continue;
      const call = parseCall(body.subarray(block.start, block.end), block.id);
      if (call !== undefined) calls.set(block.id, call);
    }
  }
  return calls;
}

/** The calls after the last `user` message, in order, with their inputs' string fields. Never throws. */
export function readNewestOpenAiCalls(body: Uint8Array, index: TranscriptIndex): ToolCall[] {
  const lastUser = index.messages.findLastIndex((m) => m.role === 'user');
  const calls: ToolCall[] = [];
  for (const message of index.messages.slice(lastUser + 1)) {
    for (const block of message.blocks) {
      if (block.type !== 'tool_use' || block.id === '') continue;
      const call = parseCall(body.subarray(block.start, block.end), block.id);
      if (call !== undefined) calls.push(call);
    }
  }
  return calls;
}

// The index validated these bytes as JSON; a call is small, so parsing it is cheap.
function parseCall(bytes: Uint8Array, id: string): ToolCall | undefined {
  let value: unknown;
  try {
    value = JSON.parse(UTF8.decode(bytes));
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const fn = isRecord(value['function']) ? value['function'] : value;
  const name = typeof fn['name'] === 'string' ? fn['name'] : '';
  if (typeof fn['arguments'] === 'string') return { id, name, strings: argumentStrings(fn['arguments']), numbers: NO_NUMBERS };
  if (typeof value['input'] === 'string') return { id, name, strings: [['input', value['input']]], numbers: NO_NUMBERS };
  return { id, name, strings: [], numbers: NO_NUMBERS };
}

// A function call's arguments are meant to be a JSON object; its string fields are what it names.
// Arguments that are not one are kept whole, so a path inside them still counts.
function argumentStrings(text: string): Array<readonly [string, string]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [['arguments', text]];
  }
  if (!isRecord(parsed)) return [['arguments', text]];
  return Object.entries(parsed).flatMap(([k, v]) => {
    if (typeof v === 'string') return [[k, v] as const];
    const line = COMMAND_FIELDS.has(k) ? shellLine(v) : undefined;
    return line === undefined ? [] : [[k, line] as const];
  });
}

// A command may come as an argv array (`{"cmd": ["bash", "-lc", "cat f"]}`); it is named by the shell
// line that runs it.
const COMMAND_FIELDS = new Set(['cmd', 'command']);

/** An array of strings as one shell line, each word quoted where the shell would split or expand it. */
export function shellLine(argv: unknown): string | undefined {
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) return undefined;
  return argv.map((a: string) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(' ');
}
