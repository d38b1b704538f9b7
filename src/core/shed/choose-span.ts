/**
 * The span choice at a latch: the run of whole messages between the head (message 0) and the
 * recent window that a new shed epoch would replace with one stub. docs/shed.md gives the rule
 * and the Messages API rules it relies on; in short:
 *
 * - It starts right after the head, or right after the last shed span: a later epoch never
 *   re-cuts an earlier span, so a grown transcript keeps its prefix. It starts later still when a
 *   message before the window loads a deferred tool (a tool search answer holding a
 *   `tool_reference`): the API expands a deferred tool from that block, so shedding it would
 *   unload a tool the kept turns may call. Those messages stay, with everything before them.
 * - It ends before the recent window (recent-window.ts): the newest messages within a budget of
 *   tokens, the last assistant message always (its thinking blocks stay), and a restore's answer
 *   while it is recent.
 * - It ends right before an assistant message, so the stub (a user message) follows the head or
 *   an earlier stub (consecutive user turns are combined by the API) and is followed by an
 *   assistant turn, as the roles require.
 * - No tool_result is separated from its tool_use, and no message carrying cache_control is in it.
 */
import type { TranscriptIndex } from '../transcript-index.js';
import type { MessageFacts } from './message-facts.js';
import { recentWindowStart } from './recent-window.js';
import { DEFAULT_SHED_POLICY, recentBudgetTokens, type FrozenSpan, type ShedRefusal } from './shed-types.js';

/** Where a new span would go, or why there is none. */
export type SpanChoice =
  | {
      readonly kind: 'span';
      readonly first: number;
      readonly last: number;
      /** Where the recent window began before the boundary was moved back to an assistant message. */
      readonly windowStart: number;
      /** Present when the working set moved the window's start back (core/epochs/working-set.ts). */
      readonly cutByWorkingSet?: true;
    }
  | { readonly kind: 'none'; readonly reason: ShedRefusal; readonly detail: string; readonly cutByWorkingSet?: true };

/**
 * Chooses the span a new epoch would shed from this request, leaving a recent window of
 * `recentTokens` (recentBudgetTokens) and, from `keepFrom` on, the working set (-1: none). Pure;
 * never throws on an indexed body.
 */
export function chooseSpan(
  index: TranscriptIndex,
  facts: readonly MessageFacts[],
  frozen: readonly FrozenSpan[],
  recentTokens: number = recentBudgetTokens(DEFAULT_SHED_POLICY, undefined),
  keepFrom = -1,
): SpanChoice {
  const recentStart = recentWindowStart(index, facts, recentTokens);
  const afterLast = (frozen[frozen.length - 1]?.last ?? 0) + 1;
  const cut = keepFrom >= 0 && keepFrom < recentStart && recentStart > afterLast;
  const choice = chooseBefore(facts, afterLast, cut ? keepFrom : recentStart);
  return cut ? { ...choice, cutByWorkingSet: true } : choice;
}

function chooseBefore(facts: readonly MessageFacts[], afterLast: number, windowStart: number): SpanChoice {
  if (windowStart <= afterLast) return none('too_few_messages', `the window starts at message ${windowStart}, the span would start at ${afterLast}`);
  const lastLoad = facts.findLastIndex((f, i) => i < windowStart && f.loadsTool);
  const first = Math.max(afterLast, lastLoad + 1);
  if (windowStart <= first) return none('loaded_tool', `message ${lastLoad} loads a deferred tool and the window starts at message ${windowStart}`);
  const partners = partnerRanges(facts);
  const firstCached = facts.findIndex((f, i) => i >= first && f.cacheControl);
  let sawCandidate = false;
  let blockedByCache = true;
  // Grow the span one message at a time: it stays closed under tool pairs when no message in it
  // names a partner outside it (prefix minimum and maximum of the partners' positions).
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  let best: number | undefined;
  for (let last = first; last < windowStart; last++) {
    const range = partners[last]!;
    low = Math.min(low, range.low);
    high = Math.max(high, range.high);
    if (facts[last + 1]?.role !== 'assistant') continue;
    sawCandidate = true;
    if (firstCached >= 0 && firstCached <= last) continue;
    blockedByCache = false;
    if (low >= first && high <= last) best = last;
  }
  if (best === undefined) {
    if (first > afterLast) return none('loaded_tool', `message ${lastLoad} loads a deferred tool, and no span after it ends before message ${windowStart}`);
    if (!sawCandidate) return none('too_few_messages', `no assistant message between ${first + 1} and ${windowStart} to follow a stub`);
    if (blockedByCache) return none('cached_span', `message ${firstCached} carries cache_control`);
    return none('split_tool_pair', `every boundary before message ${windowStart} separates a tool_use from its tool_result`);
  }
  return { kind: 'span', first, last: best, windowStart };
}

function none(reason: ShedRefusal, detail: string): SpanChoice {
  return { kind: 'none', reason, detail };
}

/**
 * For each message, the lowest and highest position of a message it is paired with: the
 * tool_results answering its tool_uses, the tool_uses its tool_results answer. A tool_result
 * whose tool_use is nowhere pairs with -1, so no span may hold it.
 */
function partnerRanges(facts: readonly MessageFacts[]): Array<{ low: number; high: number }> {
  const useAt = new Map<string, number>();
  const resultsAt = new Map<string, number[]>();
  facts.forEach((f, i) => {
    for (const id of f.toolUseIds) if (!useAt.has(id)) useAt.set(id, i);
    for (const id of f.toolResultIds) resultsAt.set(id, [...(resultsAt.get(id) ?? []), i]);
  });
  return facts.map((f, i) => {
    let low = i;
    let high = i;
    for (const id of f.toolUseIds) {
      for (const j of resultsAt.get(id) ?? []) {
        low = Math.min(low, j);
        high = Math.max(high, j);
      }
    }
    for (const id of f.toolResultIds) {
      const j = useAt.get(id) ?? -1;
      low = Math.min(low, j);
      high = Math.max(high, j);
    }
    return { low, high };
  });
}
