/**
 * Back-to-back requests of one prompt cache, each with what the clock predicts and what the
 * provider billed. Pure: plain data in and out.
 *
 * What counts as one cache chain:
 * - the requests of one conversation, in order (a compaction starts a new conversation: its
 *   first request carries a summary, not the old prefix, so it is no boundary of the old one);
 * - a compaction call (Claude Code's `agent-acompact-*` file) sends the main thread's transcript
 *   with a summary prompt after it, so it continues the latest main-thread request of its session;
 * - a resume into a new file copies the old records, whose `message.id`s stay the provider's:
 *   a request seen before is a copy, not a request, and the first new one continues the last copy;
 * - a request on another model than its predecessor cannot read that model's cache: skipped;
 * - subagents and side calls are chains of their own.
 *
 * Refresh on use: an entry is kept for its TTL after it was written or last read, and every
 * request that read it (billed warm) refreshed it. In one conversation the entry a request reads
 * was written by the request just before it; the refresh matters when one prefix is read twice
 * (a resume from the middle of a session, a compaction call and a fork).
 */
import type { RecordedUsage } from './rebuild-conversations.js';
import { cachedPrefixTokens, conversationTtls, isBilledWarm, isPredictedWarm, type CacheTtl } from './ttl-rules.js';

/** One request, as far as the TTL is concerned. */
export interface TtlRequest {
  /** The provider's response id (`message.id`). */
  readonly id: string;
  readonly model: string;
  /** When it was sent (ms since the epoch; NaN when unknown). */
  readonly sentMs: number;
  readonly usage: RecordedUsage;
  /** The TTL the body's `cache_control` asked for, when the caller has the body (transcripts do not). */
  readonly ttl?: CacheTtl;
}

/** One conversation of one session. */
export interface TtlConversation {
  /** Unique across the input. */
  readonly id: string;
  /** The session file it belongs to (a subagent file belongs to its session). */
  readonly session: string;
  readonly kind: 'main' | 'subagent';
  /** A compaction call: it continues the main thread's cache. */
  readonly compaction: boolean;
  readonly requests: readonly TtlRequest[];
}

/** How a pair's two requests are related. */
export type PairKind = 'turn' | 'compaction' | 'resume';

/** Two back-to-back requests of one cache chain. */
export interface TtlPair {
  readonly session: string;
  readonly conversation: string;
  readonly kind: PairKind;
  readonly previous: TtlRequest;
  readonly next: TtlRequest;
  /** Since the previous request's prefix was last written or read. */
  readonly gapMs: number;
  readonly ttl: CacheTtl;
  readonly predictedWarm: boolean;
  readonly billedWarm: boolean;
}

/** Why a request was not paired with its predecessor. */
export const SKIP_REASONS = ['copy', 'modelChanged', 'nothingCached', 'noTime'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The pairs, and what was left out. */
export interface PairedRequests {
  readonly conversations: number;
  /** Requests, copies not counted. */
  readonly requests: number;
  /** Requests that start a chain (nothing before them to be warm or cold). */
  readonly starts: number;
  readonly pairs: TtlPair[];
  readonly skipped: Record<SkipReason, number>;
}

interface Node {
  readonly conversation: TtlConversation;
  readonly index: number;
  readonly request: TtlRequest;
  readonly ttl: CacheTtl;
}

interface Step {
  readonly node: Node;
  readonly previous?: Node;
  readonly kind: PairKind;
}

/** Pairs every request with the one whose prefix it carries, and judges each pair. */
export function pairRequests(conversations: readonly TtlConversation[]): PairedRequests {
  const skipped: Record<SkipReason, number> = { copy: 0, modelChanged: 0, nothingCached: 0, noTime: 0 };
  const nodes = canonicalNodes(conversations, skipped);
  const steps: Step[] = [];
  for (const c of conversations) {
    const own = nodes.get(c) ?? [];
    own.forEach((node, i) => {
      if (node.conversation !== c || node.index !== i) return; // a copy: its original is paired
      const before = i > 0 ? own[i - 1] : c.compaction ? latestMainBefore(conversations, nodes, c.session, node.request.sentMs) : undefined;
      if (before === undefined) steps.push({ node, kind: 'turn' });
      else steps.push({ node, previous: before, kind: i === 0 ? 'compaction' : before.conversation === c ? 'turn' : 'resume' });
    });
  }
  // Time order across conversations, so a prefix's refreshes happen before later reads of it.
  const ordered = steps.map((s, at) => ({ s, at })).sort((a, b) => byTime(a.s.node, b.s.node) || a.at - b.at);
  const lastUse = new Map<Node, number>();
  const pairs: TtlPair[] = [];
  let starts = 0;
  for (const { s } of ordered) {
    const { node, previous } = s;
    const next = node.request;
    lastUse.set(node, next.sentMs);
    if (previous === undefined) {
      starts++;
      continue;
    }
    const prev = previous.request;
    if (prev.model !== next.model) skipped.modelChanged++;
    else if (cachedPrefixTokens(prev.usage) <= 0) skipped.nothingCached++;
    else if (Number.isNaN(prev.sentMs) || Number.isNaN(next.sentMs)) skipped.noTime++;
    else {
      const gapMs = Math.max(0, next.sentMs - (lastUse.get(previous) ?? prev.sentMs));
      const billedWarm = isBilledWarm(prev.usage, next.usage);
      pairs.push({
        session: node.conversation.session,
        conversation: node.conversation.id,
        kind: s.kind,
        previous: prev,
        next,
        gapMs,
        ttl: previous.ttl,
        predictedWarm: isPredictedWarm(gapMs, previous.ttl),
        billedWarm,
      });
      if (billedWarm) lastUse.set(previous, next.sentMs);
    }
  }
  const requests = steps.length;
  return { conversations: conversations.length, requests, starts, pairs, skipped };
}

/**
 * Each conversation's requests as nodes, a copy pointing at its original. The original is the
 * occurrence in the conversation that ended first: a resumed file ends after the one it copied.
 */
function canonicalNodes(conversations: readonly TtlConversation[], skipped: Record<SkipReason, number>): Map<TtlConversation, Node[]> {
  const byEnd = conversations.map((c, at) => ({ c, at, end: c.requests.at(-1)?.sentMs ?? Number.NaN }));
  byEnd.sort((a, b) => (Number.isNaN(a.end) || Number.isNaN(b.end) ? Number(Number.isNaN(a.end)) - Number(Number.isNaN(b.end)) : a.end - b.end) || a.at - b.at);
  const original = new Map<string, Node>();
  const nodes = new Map<TtlConversation, Node[]>();
  for (const { c } of byEnd) {
    const ttls = conversationTtls(
      c.requests.map((r) => r.usage),
      c.requests.map((r) => r.ttl),
    );
    nodes.set(
      c,
      c.requests.map((request, index) => {
        const seen = original.get(request.id);
        if (seen !== undefined) {
          skipped.copy++;
          return seen;
        }
        const node: Node = { conversation: c, index, request, ttl: ttls[index] ?? '5m' };
        original.set(request.id, node);
        return node;
      }),
    );
  }
  return nodes;
}

/** The compaction call's predecessor: the session's latest main-thread request sent before it. */
function latestMainBefore(
  conversations: readonly TtlConversation[],
  nodes: ReadonlyMap<TtlConversation, Node[]>,
  session: string,
  sentMs: number,
): Node | undefined {
  let best: Node | undefined;
  for (const c of conversations) {
    if (c.session !== session || c.kind !== 'main') continue;
    for (const node of nodes.get(c) ?? []) {
      const t = node.request.sentMs;
      if (t <= sentMs && (best === undefined || t >= best.request.sentMs)) best = node;
    }
  }
  return best;
}

function byTime(a: Node, b: Node): number {
  const x = a.request.sentMs;
  const y = b.request.sentMs;
  // Requests without a time keep their place relative to each other and go last.
  if (Number.isNaN(x) || Number.isNaN(y)) return Number(Number.isNaN(x)) - Number(Number.isNaN(y));
  return x - y;
}
