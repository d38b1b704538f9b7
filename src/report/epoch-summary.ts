/**
 * One epoch of a conversation as the reports show it (conversation-summary.ts), from the
 * conversation's record: when and why it latched, what it shed, and how often that was read back.
 * A shed epoch's span is priced per later turn here (docs/shed.md).
 */
import { frozenThinkingOf, spanOf, blocksOf, countVerdicts, modeOfConversation, priceShed, type Label, type ShedPrice } from '../core/index.js';
import { triggerOf } from '../core/epoch-trigger.js';
import type { Epoch, EpochMode, KindTag, EpochTrigger } from '../core/epoch-types.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import type { ConversationTally } from './wire-tally.js';

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
  /** What it froze (its `kind`): a correction epoch is `thinking_only` in either mode. */
  readonly kind: KindTag;
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

/** The epochs of a conversation's record, with the refaults and latches its wire tally saw. */
export function epochsFromRecord(record: ConversationRecord, tokensPerByte: number, tally: ConversationTally | null): EpochSummary[] {
  return record.epochs.map((epoch) => {
    // Only the epoch's own blocks count: a line naming another ordinal is not believed.
    const reads = blocksOf(epoch).map((b) => tally?.refaultsByEpoch.get(epoch.n)?.get(b.ordinal) ?? 0);
    const bytes = blocksOf(epoch).reduce((total, block) => total + block.bytes, 0);
    const { name, version, keepRecent, minBytes } = epoch.policy;
    return {
      n: epoch.n,
      mode: modeOfConversation(record.epochs),
      kind: epoch.kind,
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
      blocks: blocksOf(epoch).length,
      bytes,
      thinking: frozenThinkingOf(epoch).length,
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
  const span = spanOf(epoch);
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
