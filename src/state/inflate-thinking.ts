/**
 * Inflate's last step on a Messages body: put back the thinking blocks a conversation's epochs
 * removed (docs/rescue.md, "Preserved thinking"). The body names no removed block, so the
 * conversation is found by its records: one whose first prompt is this body's and whose removed
 * blocks, put back, are exactly what its epochs would remove again (the same pure function).
 */
import {
  frozenThinkingOf,
  applySplices,
  firstPromptExcerpt,
  indexTranscript,
  judgeThinking,
  listThinking,
  planSplices,
  reinsertThinking,
  type ConversationRecord,
  type FrozenThinking,
  type RestoredThinking,
} from '../core/index.js';
import { bytesEqual } from '../core/block-text.js';
import type { StateDir } from './layout.js';
import { listConversations } from './read-conversation.js';
import { sha256Hex } from './sha256-hex.js';
import { readThinkingFile } from './thinking-file.js';

/** The body with its removed thinking blocks back, and how many; the body itself when it had none. */
export async function inflateThinking(state: StateDir, body: Uint8Array): Promise<{ body: Uint8Array; thinking: number }> {
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') return { body, thinking: 0 };
  const { index } = indexed;
  const prompt = firstPromptExcerpt(body, index);
  const records = (await listConversations(state)).filter((r) => r.firstPrompt === prompt && r.epochs.some((e) => frozenThinkingOf(e).length > 0));
  for (const record of records) {
    const rebuilt = await tryRecord(state, body, record);
    if (rebuilt !== undefined) return rebuilt;
  }
  return { body, thinking: 0 };
}

async function tryRecord(state: StateDir, body: Uint8Array, record: ConversationRecord): Promise<{ body: Uint8Array; thinking: number } | undefined> {
  const indexed = indexTranscript(body);
  if (indexed.kind !== 'indexed') return undefined;
  const { index } = indexed;
  const frozen: FrozenThinking[] = record.epochs.flatMap((e) => frozenThinkingOf(e)).filter((t) => t.messageIndex < index.messages.length);
  // A block still in the body (inside a span that came back whole) is not put back twice.
  const present = new Set(listThinking(index).map((t) => sha256Hex(body.subarray(t.block.start, t.block.end))));
  const missing = frozen.filter((t) => !present.has(t.sha256));
  if (missing.length === 0) return undefined;
  const restored: RestoredThinking[] = await Promise.all(missing.map(async (t) => ({ frozen: t, bytes: await readThinkingFile(state, t.sha256) })));
  const rebuilt = reinsertThinking(body, index, restored);
  if (rebuilt === undefined) return undefined;
  // Proof it is this conversation's: removing those blocks again gives the body back.
  const again = indexTranscript(rebuilt);
  if (again.kind !== 'indexed') return undefined;
  const judged = judgeThinking(rebuilt, again.index, missing, { sha256: sha256Hex });
  if (judged.count !== missing.length) return undefined;
  const splices = planSplices(
    judged.splices.map((s) => s.splice),
    rebuilt.length,
  );
  if (splices === undefined || !bytesEqual(applySplices(rebuilt, splices), body)) return undefined;
  return { body: rebuilt, thinking: missing.length };
}
