/**
 * What was paid (issue 40): the recorded session billed from the usage its transcript records,
 * request by request, at the price table (core/price-table.ts): the main thread before and after
 * every compaction, each subagent, and the compaction calls. No model of the cache is involved:
 * each request is billed for the input, cache reads, 5-minute and 1-hour cache writes and output
 * the provider reported for it (its last record's usage: the client writes one record per content
 * block, and only the last carries the final output count). A request the session holds twice (the
 * same `message.id` in two of its files) is billed once. A request on a model the table does not
 * know is not billed and is named, never priced as another model: the bill is then a floor. Pure.
 */
import { priceRecorded } from './prompt-cache.js';
import type { RebuiltConversation } from './rebuild-conversations.js';
import { isCompactionConversation } from './session-steps.js';

/** Requests of one part of the session and their cost. */
export interface BillPart {
  readonly requests: number;
  readonly costUsd: number;
}

/** The session's bill. */
export interface RecordedBill {
  /** USD, rounded to 1/10,000: every request billed, the unknown models' left out (a floor when there are any). */
  readonly costUsd: number;
  readonly requests: number;
  /** By part: the main thread (before and after its compactions), the subagents, the compaction calls. */
  readonly parts: { readonly main: BillPart; readonly subagents: BillPart; readonly compactionCalls: BillPart };
  /** Models the price table does not know, whose requests are not billed; empty when every request was. */
  readonly unpricedModels: readonly string[];
  /** How many requests those are. */
  readonly unpricedRequests: number;
}

/** The bill of a session's conversations as recorded; `priceAs` bills every request at that model's prices (`--price-as`). */
export function billOf(conversations: readonly RebuiltConversation[], priceAs?: string): RecordedBill {
  const parts = { main: { requests: 0, costUsd: 0 }, subagents: { requests: 0, costUsd: 0 }, compactionCalls: { requests: 0, costUsd: 0 } };
  const seen = new Set<string>();
  const unpriced = new Set<string>();
  let unpricedRequests = 0;
  for (const c of conversations) {
    const part = isCompactionConversation(c) ? parts.compactionCalls : c.kind === 'main' ? parts.main : parts.subagents;
    for (const r of c.requests) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      const model = priceAs ?? r.model;
      const cost = priceRecorded(model, r.usage);
      if (cost === undefined) {
        unpriced.add(model);
        unpricedRequests++;
        continue;
      }
      part.requests++;
      part.costUsd += cost;
    }
  }
  const round = (p: BillPart): BillPart => ({ requests: p.requests, costUsd: round4(p.costUsd) });
  return {
    costUsd: round4(parts.main.costUsd + parts.subagents.costUsd + parts.compactionCalls.costUsd),
    requests: parts.main.requests + parts.subagents.requests + parts.compactionCalls.requests + unpricedRequests,
    parts: { main: round(parts.main), subagents: round(parts.subagents), compactionCalls: round(parts.compactionCalls) },
    unpricedModels: [...unpriced].sort(),
    unpricedRequests,
  };
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
