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
import type { TranscriptIndex } from '../transcript-index-types.js';
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

/** What a span must leave alone besides the recent window. */
export interface SpanKeep {
  /** The first message of the working set (-1: none): no span holds it or what follows it up to `keepTo`. */
  readonly keepFrom?: number;
  /** Its last message: a span may start after it (-1: spans end before `keepFrom`). */
  readonly keepTo?: number;
  /**
   * Answers that go together (core/repeats/: a pointer and the earlier copies it points to), as the
   * first and last message they lie in: a span holds all of such a group or none of it.
   */
  readonly together?: ReadonlyArray<{ readonly from: number; readonly to: number }>;
  /**
   * The bytes of messages `first` to `last` that answer a call that brought stored text back: a
   * span before the working set and one after it are compared on what else they take (their new
   * weight), since an epoch is for new weight (core/decide/decide-epoch.ts). Absent: on their bytes.
   */
  readonly broughtBack?: (first: number, last: number) => number;
}

/**
 * Chooses the span a new epoch would shed from this request, leaving a recent window of
 * `recentTokens` (recentBudgetTokens) and what `keep` names. A span never holds a message of the
 * working set: it ends before its first message, or starts after its last one (the messages
 * between the last span and the working set then stay in front of the model for good, like those
 * before a tool's load); of the two, the one that takes more new weight. Pure; never throws on an
 * indexed body.
 */
export function chooseSpan(
  index: TranscriptIndex,
  facts: readonly MessageFacts[],
  frozen: readonly FrozenSpan[],
  recentTokens: number = recentBudgetTokens(DEFAULT_SHED_POLICY, undefined),
  keep: SpanKeep = {},
): SpanChoice {
  const { keepFrom = -1, keepTo = -1, together = [] } = keep;
  const recentStart = recentWindowStart(index, facts, recentTokens);
  const afterLast = (frozen[frozen.length - 1]?.last ?? 0) + 1;
  const cut = keepFrom >= 0 && keepFrom < recentStart && recentStart > afterLast;
  if (!cut) return chooseBefore(facts, afterLast, recentStart, together);
  const before: SpanChoice = { ...chooseBefore(facts, afterLast, keepFrom, together), cutByWorkingSet: true };
  // After the working set: only when it ends before the recent window.
  if (keepTo < keepFrom || keepTo + 1 >= recentStart) return before;
  const after: SpanChoice = { ...chooseBefore(facts, Math.max(afterLast, keepTo + 1), recentStart, together), cutByWorkingSet: true };
  if (after.kind !== 'span') return before;
  if (before.kind !== 'span') return after;
  return newWeight(index, after, keep) > newWeight(index, before, keep) ? after : before;
}

/** A span's bytes, less what of them answers a bring-back when `keep` says. */
function newWeight(index: TranscriptIndex, span: Extract<SpanChoice, { kind: 'span' }>, keep: SpanKeep): number {
  const bytes = index.messages[span.last]!.end - index.messages[span.first]!.start;
  return bytes - (keep.broughtBack?.(span.first, span.last) ?? 0);
}

function chooseBefore(facts: readonly MessageFacts[], afterLast: number, windowStart: number, together: SpanKeep['together'] & {}): SpanChoice {
  if (windowStart <= afterLast) return none('too_few_messages', `the window starts at message ${windowStart}, the span would start at ${afterLast}`);
  const lastLoad = facts.findLastIndex((f, i) => i < windowStart && (f.loadsTool || f.barrier === true));
  const open = openPairs(facts);
  // A span starts where no pair is open (a call answered later, a reasoning item and its next),
  // and not inside a group that goes together.
  let first = Math.max(afterLast, lastLoad + 1);
  for (let moved = true; moved; ) {
    moved = false;
    while (first < windowStart && open[first]! > 0) first++;
    for (const g of together) {
      if (g.from < first && first <= g.to) {
        first = g.to + 1;
        moved = true;
      }
    }
  }
  if (windowStart <= first) {
    if (lastLoad < afterLast) return none('split_tool_pair', `a pair stays open from message ${afterLast} to the window at message ${windowStart}`);
    const what = facts[lastLoad]!.loadsTool ? 'loads a deferred tool' : 'is one no span crosses';
    return none('loaded_tool', `message ${lastLoad} ${what} and the window starts at message ${windowStart}`);
  }
  const partners = partnerRanges(facts);
  const firstCached = facts.findIndex((f, i) => i >= first && f.cacheControl);
  let sawCandidate = false;
  let blockedByCache = true;
  // Grow the span one message at a time: it stays closed under tool pairs when no message in it
  // names a partner outside it (prefix minimum and maximum of the partners' positions), and no
  // pair from before it is still open after it.
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  let best: number | undefined;
  for (let last = first; last < windowStart; last++) {
    const range = partners[last]!;
    low = Math.min(low, range.low);
    high = Math.max(high, range.high);
    if (facts[last + 1]?.role !== 'assistant') continue;
    // Never between a pointer and the earlier copies it points to.
    if (together.some((g) => g.from <= last && last < g.to)) continue;
    sawCandidate = true;
    if (firstCached >= 0 && firstCached <= last) continue;
    blockedByCache = false;
    if (low >= first && high <= last && open[last + 1] === 0) best = last;
  }
  if (best === undefined) {
    if (first > afterLast && lastLoad >= afterLast)
      return none('loaded_tool', `${keptBefore(facts, lastLoad)}no span after it ends before message ${windowStart}`);
    if (!sawCandidate) return none('too_few_messages', `no assistant message between ${first + 1} and ${windowStart} to follow a stub`);
    if (blockedByCache) return none('cached_span', `message ${firstCached} carries cache_control`);
    return none('split_tool_pair', `every boundary before message ${windowStart} separates a tool_use from its tool_result`);
  }
  return { kind: 'span', first, last: best, windowStart };
}

function keptBefore(facts: readonly MessageFacts[], at: number): string {
  if (at < 0) return '';
  return facts[at]!.loadsTool
    ? `message ${at} loads a deferred tool, and `
    : `message ${at} is one no span crosses (a compaction, the tools, the leading items), and `;
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
    // A reasoning item and the item after it go together.
    let low = facts[i - 1]?.pairsWithNext ? i - 1 : i;
    let high = f.pairsWithNext && i + 1 < facts.length ? i + 1 : i;
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

/**
 * For each position p, how many pairs are open across the boundary before message p: a call at
 * a < p answered at b >= p, or a reasoning item at p - 1. A span may start at p, or end right
 * before p, only where none is. (A tool_result whose tool_use is nowhere opens nothing here; the
 * partner ranges keep it out of every span.)
 */
function openPairs(facts: readonly MessageFacts[]): number[] {
  const delta = new Array<number>(facts.length + 2).fill(0);
  const useAt = new Map<string, number>();
  facts.forEach((f, i) => {
    for (const id of f.toolUseIds) if (!useAt.has(id)) useAt.set(id, i);
  });
  const open = (a: number, b: number): void => {
    if (a >= 0 && b > a) {
      delta[a + 1]! += 1;
      delta[b + 1]! -= 1;
    }
  };
  facts.forEach((f, i) => {
    for (const id of f.toolResultIds) open(useAt.get(id) ?? -1, i);
    if (f.pairsWithNext && i + 1 < facts.length) open(i, i + 1);
  });
  const out: number[] = [];
  let running = 0;
  for (let p = 0; p <= facts.length; p++) {
    running += delta[p]!;
    out.push(running);
  }
  return out;
}
