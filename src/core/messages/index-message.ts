/** One entry of `messages`, indexed (transcript-index.ts): its role, its content, and each of its blocks. */
import { scanArray, scanObject, scanString, scanValue } from '../json-scan.js';
import { indexBlock } from './index-block.js';
import { ShapeError } from './index-shape-error.js';
import { readKey, readStringValue } from './index-strings.js';
import type { BlockInfo, MessageInfo, Span, ToolResultInfo } from '../transcript-index-types.js';

/** Indexes the message at `start` into `messages`, its tool results into `toolResults`; returns its end. */
export function indexMessage(
  b: Uint8Array,
  start: number,
  messageIndex: number,
  depth: number,
  messages: MessageInfo[],
  toolResults: ToolResultInfo[],
): number {
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
