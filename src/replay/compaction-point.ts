/**
 * Where the client compacts a conversation, in its own count (the last response's input, cache
 * and output tokens): from the session's first `compact_boundary` when the client's threshold
 * fired it (`trigger: auto`, its `preTokens`), else from the client's rule. Pure.
 *
 * The rule is the client's own, `clientCompactionPoint` (core/client-compaction.ts): the effective
 * window (the window, or `CLAUDE_CODE_AUTO_COMPACT_WINDOW` when smaller) less 20,000 reserved
 * output tokens and a 13,000 buffer (167,000 of 200,000). An auto boundary says the same: one at
 * 200,000 reads `preTokens: 167094`. At another window the margin below it is kept, so a session
 * replayed at 60,000 compacts at 27,000.
 */
import { AUTOCOMPACT_BUFFER_TOKENS, CLIENT_OUTPUT_RESERVE_TOKENS, clientCompactionPoint } from '../core/index.js';
import type { CompactionFacts, RebuiltConversation } from './rebuild-conversations.js';

/** The compaction point of a replay. */
export interface CompactionPoint {
  /** The client compacts after a response whose count reaches this. */
  readonly tokens: number;
  /** The window less `tokens`. */
  readonly marginTokens: number;
  /** `transcript`: an auto boundary's `preTokens` set the margin; `rule`: the client's rule did. */
  readonly source: 'transcript' | 'rule';
  /** `CLAUDE_CODE_AUTO_COMPACT_WINDOW` in tokens, when it moved the point (it was under the window). */
  readonly autoCompactWindow?: number;
  /** The main thread's first compaction as recorded (any trigger), and the conversation it ended. */
  readonly recorded?: CompactionFacts & { readonly conversation: string };
}

/**
 * The point for a replay at `window` of a session that ran at `recordedWindow`: the margin the
 * session's own first auto boundary shows, else the rule's, below the effective window
 * (`autoCompactWindow`: `CLAUDE_CODE_AUTO_COMPACT_WINDOW` in tokens, as the client reads it).
 */
export function findCompactionPoint(
  conversations: readonly RebuiltConversation[],
  window: number,
  recordedWindow: number,
  autoCompactWindow?: number,
): CompactionPoint {
  const first = firstCompaction(conversations);
  const facts = first?.compaction;
  const recorded = first === undefined || facts === undefined ? {} : { recorded: { ...facts, conversation: first.id } };
  const measured = facts?.trigger === 'auto' && facts.preTokens !== undefined ? recordedWindow - facts.preTokens : undefined;
  const source = measured !== undefined && measured > 0 ? 'transcript' : 'rule';
  const marginTokens = source === 'transcript' && measured !== undefined ? measured : CLIENT_OUTPUT_RESERVE_TOKENS + AUTOCOMPACT_BUFFER_TOKENS;
  // A margin as wide as the window leaves the client compacting at once; never below one token.
  const tokens = clientCompactionPoint(window, autoCompactWindow, marginTokens);
  const moved = autoCompactWindow !== undefined && autoCompactWindow < window ? { autoCompactWindow } : {};
  return { tokens, marginTokens, source, ...moved, ...recorded };
}

/** The conversation whose runway is measured: the main thread's first, else the session's first. */
export function runwayConversation(conversations: readonly RebuiltConversation[]): RebuiltConversation | undefined {
  return conversations.find((c) => c.kind === 'main') ?? conversations[0];
}

/** The main thread's first conversation that ended in a compaction (the session's first when it has no main thread). */
function firstCompaction(conversations: readonly RebuiltConversation[]): RebuiltConversation | undefined {
  const hasMain = conversations.some((c) => c.kind === 'main');
  return conversations.find((c) => (!hasMain || c.kind === 'main') && c.compaction !== undefined);
}
