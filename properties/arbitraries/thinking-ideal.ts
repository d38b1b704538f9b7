/**
 * The ideal keeper: given the requests actually sent, in order, which thinking blocks of each one
 * a perfect proxy could keep. Worked out from the history alone (never from a signature): a block
 * made in answer to request j can stay in request k when the current model reads its model, its
 * canonical prefix in k equals the one it had in j (plus the blocks before it in its own reply),
 * and the kept blocks before it in k end with the block that was last kept in j (or none is
 * kept before it: blocks may go from the start) and start no earlier than they did in j (a block
 * put back before it fails). The scripted API's signatures must agree with this on every request
 * (properties/preserved-thinking.test.ts).
 */
import { canonicalPrefix, canonicalText, contentBlocks, isThinkingBlock } from '../../src/scripted/preserved-thinking/canonical-prefix.js';
import { canRead } from '../../src/scripted/preserved-thinking/models.js';
import { signatureOf } from '../../src/scripted/preserved-thinking/signature.js';
import type { ThinkingRequestBody } from './thinking-conversation.js';

/** A kept block: its signature and the message it is in. */
export interface KeptBlock {
  readonly signature: string;
  readonly message: number;
}

/** For each request, the blocks (in order) a perfect proxy could keep in it. */
export function idealKeptBlocks(sent: readonly ThinkingRequestBody[]): KeptBlock[][] {
  const kept: KeptBlock[][] = [];
  sent.forEach((body, k) => {
    const now: KeptBlock[] = [];
    for (const t of thinkingBlocksOf(body)) {
      if (keepable(sent, kept, k, t, now)) now.push({ signature: t.signature, message: t.message });
    }
    kept.push(now);
  });
  return kept;
}

interface Located {
  readonly signature: string;
  readonly message: number;
  readonly block: number;
}

function keepable(sent: readonly ThinkingRequestBody[], kept: readonly KeptBlock[][], k: number, t: Located, now: readonly KeptBlock[]): boolean {
  const first = sent.findIndex((b) => thinkingBlocksOf(b).some((x) => x.signature === t.signature));
  const j = first - 1;
  const producer = sent[j];
  const returned = sent[first]?.messages[t.message];
  if (producer === undefined || returned === undefined || producer.messages.length !== t.message) return false;
  if (!canRead(sent[k]!.model, producer.model)) return false;
  const atProduction = contentBlocks(returned.content).findIndex((b) => isThinkingBlock(b) && signatureOf(b) === t.signature);
  const then = canonicalText(
    canonicalPrefix(
      { system: producer.system, tools: producer.tools, messages: [...producer.messages, returned] },
      { message: t.message, block: atProduction },
    ),
  );
  if (canonicalText(canonicalPrefix(sent[k]!, t)) !== then) return false;
  // What the model had seen when it wrote the block: the blocks kept in j, then its reply's earlier ones.
  const earlierInReply = contentBlocks(returned.content)
    .slice(0, atProduction)
    .filter(isThinkingBlock)
    .map((b) => ({ signature: String(signatureOf(b)), message: t.message }));
  const seenThen = [...(kept[j] ?? []), ...earlierInReply];
  const before = now[now.length - 1];
  if (before !== undefined && before.signature !== seenThen[seenThen.length - 1]?.signature) return false;
  return (now[0]?.message ?? t.message) >= (seenThen[0]?.message ?? t.message);
}

function thinkingBlocksOf(body: ThinkingRequestBody): Located[] {
  const out: Located[] = [];
  body.messages.forEach((m, message) => {
    contentBlocks(m.content).forEach((b, block) => {
      if (isThinkingBlock(b)) out.push({ signature: String(signatureOf(b)), message, block });
    });
  });
  return out;
}
