/**
 * The tool calls of a request: for each tool_use block, its `name` and the plain fields of its
 * `input`, read from the block's own bytes (the transcript index gives where each block lies).
 * The labels read every call; refault counting reads the newest assistant message's alone.
 */
import { decodeJsonString } from './json-string.js';
import { scanObject, scanString, scanValue } from './json-scan.js';
import { UNKNOWN_TOOL } from './labels/label-types.js';
import type { TranscriptIndex } from './transcript-index-types.js';

/** One tool_use block, as much of it as the labels need. */
export interface ToolCall {
  readonly id: string;
  /** The tool's name, or UNKNOWN_TOOL when it is not a plain API tool name. */
  readonly name: string;
  /** The input's top-level string fields, in document order (bulky ones left out). */
  readonly strings: ReadonlyArray<readonly [key: string, value: string]>;
  /** The input's top-level number fields (Read's `offset` and `limit`). */
  readonly numbers: ReadonlyMap<string, number>;
}

/** A string field longer than this (as JSON) is not decoded: no main input is that long. */
export const INPUT_FIELD_MAX_BYTES = 64 * 1024;

// The API's own rule for tool names; anything else is recorded as unknown, so a stub can quote
// a name without escaping it.
const TOOL_NAME = /^[A-Za-z0-9_-]{1,128}$/;

// Fields that hold a file's new content rather than what the call is about.
const BULKY_FIELDS = new Set(['content', 'old_string', 'new_string', 'edits', 'new_source']);

const UTF8 = new TextDecoder('utf-8');

/** Every tool_use block of the request by its `id` (the first one, if an id repeats). Never throws. */
export function readToolCalls(body: Uint8Array, index: TranscriptIndex): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of index.messages) {
    for (const block of message.blocks) {
      if (block.type !== 'tool_use' || block.id === '' || calls.has(block.id)) continue;
      calls.set(block.id, readToolCall(body, block.start, block.id));
    }
  }
  return calls;
}

/**
 * The tool_use blocks of the newest assistant message, in order: the calls the model made since
 * the client's last request. A client resends its whole transcript every turn, so reading only
 * the newest assistant message sees each call once, whatever the turn. Never throws.
 */
export function readNewestToolCalls(body: Uint8Array, index: TranscriptIndex): ToolCall[] {
  const newest = index.messages.findLast((m) => m.role === 'assistant');
  if (newest === undefined) return [];
  return newest.blocks.filter((block) => block.type === 'tool_use' && block.id !== '').map((block) => readToolCall(body, block.start, block.id));
}

/** The value of a call's top-level string field `key`, if it has one. */
export function stringField(call: ToolCall, key: string): string | undefined {
  return call.strings.find(([k]) => k === key)?.[1];
}

function readToolCall(b: Uint8Array, start: number, id: string): ToolCall {
  let name = UNKNOWN_TOOL;
  const strings: Array<readonly [string, string]> = [];
  const numbers = new Map<string, number>();
  try {
    scanObject(b, start, 0, (keyStart, keyEnd, valueStart, depth) => {
      const key = decodeString(b, keyStart, keyEnd);
      if (key === 'name' && b[valueStart] === 0x22) {
        const end = scanString(b, valueStart);
        const value = decodeString(b, valueStart, end);
        if (value !== undefined && TOOL_NAME.test(value)) name = value;
        return end;
      }
      if (key !== 'input' || b[valueStart] !== 0x7b) return scanValue(b, valueStart, depth);
      return scanObject(b, valueStart, depth + 1, (fieldStart, fieldEnd, fieldValue, d) => {
        const end = scanValue(b, fieldValue, d);
        const field = decodeString(b, fieldStart, fieldEnd);
        if (field === undefined) return end;
        if (b[fieldValue] === 0x22) {
          if (BULKY_FIELDS.has(field) || end - fieldValue > INPUT_FIELD_MAX_BYTES) return end;
          const value = decodeString(b, fieldValue, end);
          if (value !== undefined) strings.push([field, value]);
        } else if (end - fieldValue <= 24) {
          const value = Number(UTF8.decode(b.subarray(fieldValue, end)));
          if (Number.isFinite(value)) numbers.set(field, value);
        }
        return end;
      });
    });
  } catch {
    // The index validated the body; a block it accepted always scans. Keep what was read.
  }
  return { id, name, strings, numbers };
}

function decodeString(b: Uint8Array, start: number, end: number): string | undefined {
  const bytes = decodeJsonString(b, start, end);
  return bytes === undefined ? undefined : UTF8.decode(bytes);
}
