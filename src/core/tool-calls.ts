/**
 * The tool calls the model made since the client's last request: the tool_use blocks of the
 * newest assistant message. A client resends its whole transcript every turn, so reading only the
 * newest assistant message sees each call once, whatever the turn, even after a restart.
 */
import { isRecord } from '../errors.js';
import type { TranscriptIndex } from './transcript-index.js';

/** One tool_use block: its id, the tool's name and its input. */
export interface NewestToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

const UTF8 = new TextDecoder('utf-8');

/** The tool_use blocks of the newest assistant message, in order. Never throws. */
export function readNewestToolCalls(body: Uint8Array, index: TranscriptIndex): NewestToolCall[] {
  const newest = index.messages.findLast((m) => m.role === 'assistant');
  if (newest === undefined) return [];
  const calls: NewestToolCall[] = [];
  for (const block of newest.blocks) {
    if (block.type !== 'tool_use' || block.id === '') continue;
    const call = parseToolUse(body.subarray(block.start, block.end), block.id);
    if (call !== undefined) calls.push(call);
  }
  return calls;
}

// The index validated these bytes as JSON; a block is small (one call), so parsing it is cheap.
function parseToolUse(bytes: Uint8Array, id: string): NewestToolCall | undefined {
  try {
    const value: unknown = JSON.parse(UTF8.decode(bytes));
    if (!isRecord(value) || typeof value['name'] !== 'string') return undefined;
    const input = value['input'];
    return { id, name: value['name'], input: isRecord(input) ? input : {} };
  } catch {
    return undefined;
  }
}
