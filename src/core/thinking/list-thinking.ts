/** Where the thinking blocks of a body are, in document order. */
import type { BlockInfo, TranscriptIndex } from '../transcript-index-types.js';
import type { ThinkingType } from './thinking-types.js';

/** One thinking or redacted_thinking block of an index. */
export interface ThinkingAt {
  readonly ordinal: number;
  readonly messageIndex: number;
  readonly blockIndex: number;
  readonly type: ThinkingType;
  readonly block: BlockInfo;
}

/** Whether a block type is bound to its prefix by the prefix check. */
export function isThinkingType(type: string): type is ThinkingType {
  return type === 'thinking' || type === 'redacted_thinking';
}

/** Every thinking and redacted_thinking block of `messages`, with its ordinal. */
export function listThinking(index: TranscriptIndex): ThinkingAt[] {
  const found: ThinkingAt[] = [];
  for (const [messageIndex, message] of index.messages.entries()) {
    for (const [blockIndex, block] of message.blocks.entries()) {
      if (isThinkingType(block.type)) found.push({ ordinal: found.length, messageIndex, blockIndex, type: block.type, block });
    }
  }
  return found;
}

/** A place in `messages`: a message, and a block in it. */
export interface BlockPosition {
  readonly messageIndex: number;
  readonly blockIndex: number;
}

/** Whether `a` lies at or after `b` in document order. */
export function isAtOrAfter(a: BlockPosition, b: BlockPosition): boolean {
  return a.messageIndex > b.messageIndex || (a.messageIndex === b.messageIndex && a.blockIndex >= b.blockIndex);
}
