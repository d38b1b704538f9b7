/**
 * Signing: the thinking blocks of a scripted model's reply, each bound to its model, its prefix,
 * the block the model saw before it and the first block it saw (signature.ts).
 */
import type { ReplyBlock, ThinkingBlock } from '../message.js';
import { prefixDigest, type PrefixSource } from './canonical-prefix.js';
import { formatSignature, previousLinkOf } from './signature.js';

/** A thinking block the model saw in the request: where it is and what it was signed with. */
export interface SeenBlock {
  readonly position: { readonly message: number };
  readonly signature: string;
}

/** The signature of a block at `messages[message].content[block]` of `source`, given what the model saw before it. */
export function signThinkingBlock(
  model: string,
  source: PrefixSource,
  at: { readonly message: number; readonly block: number },
  seen: readonly SeenBlock[],
): string {
  const before = seen[seen.length - 1];
  return formatSignature({
    model,
    prefix: prefixDigest(source, at),
    previous: previousLinkOf(before?.signature),
    root: seen[0]?.position.message ?? at.message,
  });
}

/**
 * The reply's content with every thinking block signed, and one empty-text thinking block put
 * first when it has none there (a preserved-thinking model's turn opens with one).
 */
export function signReplyContent(
  model: string,
  source: PrefixSource,
  content: readonly ReplyBlock[],
  seen: readonly SeenBlock[],
  thinkingText: string,
): ReplyBlock[] {
  const blocks: ReplyBlock[] = content[0]?.type === 'thinking' ? [...content] : [{ type: 'thinking', thinking: thinkingText, signature: '' }, ...content];
  const at = source.messages.length;
  const signed: ReplyBlock[] = [];
  const seenSoFar: SeenBlock[] = [...seen];
  for (const block of blocks) {
    if (block.type !== 'thinking') {
      signed.push(block);
      continue;
    }
    const withReply = { ...source, messages: [...source.messages, { role: 'assistant', content: signed }] };
    const signature = signThinkingBlock(model, withReply, { message: at, block: signed.length }, seenSoFar);
    const done: ThinkingBlock = { ...block, signature };
    signed.push(done);
    seenSoFar.push({ position: { message: at }, signature });
  }
  return signed;
}
