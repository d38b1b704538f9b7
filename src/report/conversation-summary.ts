/**
 * A conversation as a person asks about it: its record (who it is, its epochs) and its wire tally
 * (how it went) merged into one summary. Pure.
 *
 * An epoch's shed is counted once, in the epoch that made it: the same bytes are elided again on
 * every later request of the conversation, so adding them up over requests would count one
 * shed many times over.
 */
import { countVerdicts, priceShed, type Label, type ShedPrice } from '../core/index.js';
import { triggerOf } from '../core/epoch-trigger.js';
import { epochKindOf, type Epoch, type EpochKind, type EpochMode, type EpochTrigger } from '../core/epoch-types.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import type { ConversationTally, WireTally } from './wire-tally.js';

/** Tokens per byte of a request when a conversation reported no usage to measure its own by. */
export const DEFAULT_TOKENS_PER_BYTE = 0.25;

/**
 * What a shed epoch shed (docs/shed.md): one span of whole messages. Its figures are the epoch's
 * own and are never added to rescue's blocks, nor summed over epochs into a session total.
 */
export interface SpanSummary {
  readonly first: number;
  readonly last: number;
  readonly messages: number;
  /** The span's exact bytes (`spans/<sha256>.json`). */
  readonly bytes: number;
  /** `bytes` in estimated tokens, at the conversation's tokens per byte. */
  readonly tokens: number;
  /** The handle: the sha256 of those bytes. */
  readonly sha256: string;
  readonly pins: number;
  readonly tombstone: boolean;
  /**
   * How often the span was read back by its handle (restore, or a Read of its file): a refault of
   * the span. Twice or more means the policy cut too close (docs/shed.md).
   */
  readonly restores: number;
  /**
   * What each later turn no longer pays for, priced as the provider would have billed it, with
   * its basis (`priceShed`); null when the wire log has no cache reading from before the latch.
   */
  readonly perTurn: ShedPrice | null;
}

/** One epoch: when, why, and what it shed. */
export interface EpochSummary {
  readonly n: number;
  /** `rescue` (tool results, `blocks`) or `shed` (a span of whole messages, `span`). */
  readonly mode: EpochMode;
  /** What it froze (core/epoch-types.ts `epochKindOf`): a correction epoch is `thinking_only` in either mode. */
  readonly kind: EpochKind;
  readonly latchedAt: string | null;
  /** What made it latch; a record from before triggers were recorded reads `threshold`. */
  readonly trigger: EpochTrigger | null;
  readonly fullness: number | null;
  readonly threshold: number | null;
  readonly window: number | null;
  readonly contextTokens: number | null;
  /** Overflow: the maximum the API's error named. */
  readonly limit: number | null;
  /** The token threshold in force and which threshold fired, when one was in force (docs/rescue.md "Thresholds"). */
  readonly fired: { readonly crossed: 'fullness' | 'tokens'; readonly thresholdTokens: number } | null;
  readonly policy: { readonly name: string; readonly version: number; readonly keepRecent: number; readonly minBytes: number } | null;
  /** Blocks this epoch added (0 for a shed epoch: its span is in `span`). */
  readonly blocks: number;
  /** Text bytes of those blocks. */
  readonly bytes: number;
  /** Thinking blocks this epoch removed, on a model that runs the prefix check (docs/rescue.md, "Preserved thinking"). */
  readonly thinking: number;
  /** `bytes` in estimated tokens. */
  readonly tokens: number;
  /** Reads of this epoch's blocks by later tool calls (docs/rescue.md, "Refaults"). */
  readonly refaults: number;
  /** How many of its blocks were read back at least once. */
  readonly blocksRefaulted: number;
  /** `record`: from the conversation's record (exact); `wire`: estimated from the wire log alone. */
  readonly source: 'record' | 'wire';
  /** The ledger's rows by verdict (docs/labels.md); `null` for an epoch without a ledger (before version 3). */
  readonly labels: Readonly<Record<Label, number>> | null;
  /** A shed epoch's span; null for a rescue epoch. */
  readonly span: SpanSummary | null;
}

/** One conversation, from its record and its wire records. */
export interface ConversationSummary {
  readonly key: string;
  readonly agentId: string | null;
  readonly model: string | null;
  /** Only a conversation with epochs has a record, and so a first prompt. */
  readonly firstPrompt: string | null;
  readonly createdAt: string | null;
  readonly firstSeen: string | null;
  readonly lastSeen: string | null;
  readonly requests: number;
  /** The last messages request's fullness, 0..1+. */
  readonly fullness: number | null;
  readonly window: number | null;
  readonly epochs: readonly EpochSummary[];
  /** `shed` when its epochs shed spans (a conversation keeps the mode of its first epoch), else `rescue`. */
  readonly mode: EpochMode;
  /** Shed epochs' spans, and the whole messages in them: counts, never a sum of their bytes. */
  readonly spansShed: number;
  readonly messagesShed: number;
  /** Over all rescue epochs, each counted once (a shed epoch adds no blocks). */
  readonly blocksElided: number;
  readonly bytesElided: number;
  readonly tokensElided: number;
  /** Reads of elided blocks, over all epochs. */
  readonly refaults: number;
  /** Elided blocks read back at least once. */
  readonly blocksRefaulted: number;
  /** blocksRefaulted / blocksElided: the policy's miss rate; null with nothing elided. */
  readonly refaultRate: number | null;
  readonly tokensPerByte: number;
  readonly tally: ConversationTally | null;
}

/** Every conversation the records or the wire log know, the most recently seen first. */
export function summarizeConversations(tally: WireTally, records: readonly ConversationRecord[]): ConversationSummary[] {
  const byKey = new Map(records.map((record) => [record.key, record]));
  const keys = new Set([...byKey.keys(), ...tally.conversations.keys()]);
  const summaries = [...keys].map((key) => summarizeConversation(byKey.get(key), tally.conversations.get(key) ?? null, key));
  return summaries.sort((a, b) => compareDesc(a.lastSeen, b.lastSeen) || compareDesc(a.createdAt, b.createdAt) || a.key.localeCompare(b.key));
}

/** One conversation's summary; `record` and `tally` may each be missing, not both. */
export function summarizeConversation(record: ConversationRecord | undefined, tally: ConversationTally | null, key: string): ConversationSummary {
  const tokensPerByte = tokensPerByteOf(tally);
  const epochs = record !== undefined && record.epochs.length > 0 ? epochsFromRecord(record, tokensPerByte, tally) : epochsFromWire(tally, tokensPerByte);
  const sum = (pick: (e: EpochSummary) => number): number => epochs.reduce((total, e) => total + pick(e), 0);
  const blocksElided = sum((e) => e.blocks);
  const blocksRefaulted = sum((e) => e.blocksRefaulted);
  const spans = epochs.flatMap((e) => (e.span === null ? [] : [e.span]));
  return {
    key,
    agentId: record?.agentId ?? tally?.agentId ?? null,
    model: tally?.model ?? record?.model ?? null,
    firstPrompt: record?.firstPrompt ?? null,
    createdAt: record?.createdAt ?? null,
    firstSeen: tally?.firstSeen ?? null,
    lastSeen: tally?.lastSeen ?? null,
    requests: tally?.requests ?? 0,
    fullness: tally?.lastReading?.fullness ?? null,
    window: tally?.lastReading?.window ?? null,
    epochs,
    mode: spans.length > 0 ? 'shed' : 'rescue',
    spansShed: spans.length,
    messagesShed: spans.reduce((total, span) => total + span.messages, 0),
    blocksElided,
    bytesElided: sum((e) => e.bytes),
    tokensElided: sum((e) => e.tokens),
    refaults: sum((e) => e.refaults),
    blocksRefaulted,
    refaultRate: refaultRateOf(blocksRefaulted, blocksElided),
    tokensPerByte,
    tally,
  };
}

/** A conversation's own context tokens per byte sent, measured over its requests with usage. */
export function tokensPerByteOf(tally: ConversationTally | null): number {
  if (tally === null || tally.usageBytes <= 0 || tally.usageTokens <= 0) return DEFAULT_TOKENS_PER_BYTE;
  return tally.usageTokens / tally.usageBytes;
}

/** Blocks read back over blocks elided, rounded to 4 places; null when nothing was elided. */
export function refaultRateOf(blocksRefaulted: number, blocksElided: number): number | null {
  return blocksElided === 0 ? null : Math.round((blocksRefaulted / blocksElided) * 10_000) / 10_000;
}

function epochsFromRecord(record: ConversationRecord, tokensPerByte: number, tally: ConversationTally | null): EpochSummary[] {
  return record.epochs.map((epoch) => {
    // Only the epoch's own blocks count: a line naming another ordinal is not believed.
    const reads = epoch.blocks.map((b) => tally?.refaultsByEpoch.get(epoch.n)?.get(b.ordinal) ?? 0);
    const bytes = epoch.blocks.reduce((total, block) => total + block.bytes, 0);
    const { name, version, keepRecent, minBytes } = epoch.policy;
    return {
      n: epoch.n,
      mode: epoch.mode ?? 'rescue',
      kind: epochKindOf(epoch),
      latchedAt: epoch.latchedAt,
      trigger: triggerOf(epoch),
      fullness: epoch.reason.fullness,
      threshold: epoch.reason.threshold,
      window: epoch.reason.window,
      contextTokens: epoch.reason.contextTokens,
      limit: epoch.reason.limit ?? null,
      fired:
        epoch.reason.crossed === undefined || epoch.reason.thresholdTokens === undefined
          ? null
          : { crossed: epoch.reason.crossed, thresholdTokens: epoch.reason.thresholdTokens },
      policy: { name, version, keepRecent, minBytes },
      blocks: epoch.blocks.length,
      bytes,
      thinking: epoch.thinking?.length ?? 0,
      tokens: Math.round(bytes * tokensPerByte),
      refaults: reads.reduce((total, n) => total + n, 0),
      blocksRefaulted: reads.filter((n) => n > 0).length,
      source: 'record',
      labels: epoch.ledger === undefined ? null : countVerdicts(epoch.ledger),
      span: spanSummaryOf(epoch, tokensPerByte, tally),
    };
  });
}

// A shed epoch's span, priced per later turn: what it stops sending (the gate's dropped tokens,
// the span less its stub), warm up to the cache read of the call it latched after (seed 000).
function spanSummaryOf(epoch: Epoch, tokensPerByte: number, tally: ConversationTally | null): SpanSummary | null {
  const span = epoch.span;
  if (span === undefined) return null;
  const tokens = Math.round(span.bytes * tokensPerByte);
  const cacheRead = tally?.latches.find((l) => l.n === epoch.n)?.cacheReadBefore ?? null;
  return {
    first: span.first,
    last: span.last,
    messages: span.last - span.first + 1,
    bytes: span.bytes,
    tokens,
    sha256: span.sha256,
    pins: span.pins.length,
    tombstone: span.tombstone !== undefined,
    restores: tally?.spanRestoresByEpoch.get(epoch.n) ?? 0,
    perTurn: cacheRead === null ? null : pricedPerTurn(epoch.gate?.droppedCachedTokens ?? tokens, cacheRead),
  };
}

// Rounded to a tenth of a token: 0.1 x 7,744 is 774.4, not 774.4000000000001.
function pricedPerTurn(shedTokens: number, cacheReadTokens: number): ShedPrice {
  const price = priceShed({ shedTokens, cacheReadTokens });
  return { ...price, inputTokenEquivalent: Math.round(price.inputTokenEquivalent * 10) / 10 };
}

// Without a record (deleted, or a wire log read on its own), an epoch's shed is what the
// requests carrying it stubbed beyond the requests before it: the elided set only grows.
function epochsFromWire(tally: ConversationTally | null, tokensPerByte: number): EpochSummary[] {
  if (tally === null) return [];
  const count = Math.max(tally.maxBytesElidedByEpochs.length - 1, ...tally.latches.map((l) => l.n), 0);
  const epochs: EpochSummary[] = [];
  let bytesBefore = tally.maxBytesElidedByEpochs[0] ?? 0;
  let blocksBefore = tally.maxRescuedByEpochs[0] ?? 0;
  for (let n = 1; n <= count; n++) {
    const bytesNow = Math.max(bytesBefore, tally.maxBytesElidedByEpochs[n] ?? 0);
    const blocksNow = Math.max(blocksBefore, tally.maxRescuedByEpochs[n] ?? 0);
    const bytes = bytesNow - bytesBefore;
    epochs.push({
      n,
      // Without a record an epoch's mode is unknown: a shed epoch reads as tool-result stubs.
      mode: 'rescue',
      kind: 'tool_results',
      latchedAt: tally.latches.find((l) => l.n === n)?.t ?? null,
      trigger: null,
      fullness: null,
      threshold: null,
      window: null,
      contextTokens: null,
      limit: null,
      fired: null,
      policy: null,
      blocks: blocksNow - blocksBefore,
      thinking: 0,
      bytes,
      tokens: Math.round(bytes * tokensPerByte),
      ...wireRefaults(tally.refaultsByEpoch.get(n), blocksNow - blocksBefore),
      source: 'wire',
      labels: null,
      span: null,
    });
    bytesBefore = bytesNow;
    blocksBefore = blocksNow;
  }
  return epochs;
}

// Without a record the blocks are unknown: at most as many refaulted as the epoch stubbed.
function wireRefaults(byOrdinal: ReadonlyMap<number, number> | undefined, blocks: number): { refaults: number; blocksRefaulted: number } {
  if (byOrdinal === undefined) return { refaults: 0, blocksRefaulted: 0 };
  return { refaults: [...byOrdinal.values()].reduce((total, n) => total + n, 0), blocksRefaulted: Math.min(byOrdinal.size, blocks) };
}

function compareDesc(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}
