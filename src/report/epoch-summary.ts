/**
 * One epoch of a conversation as the reports show it (conversation-summary.ts), from the
 * conversation's record: when and why it latched, what it shed, and how often that was read back.
 * A shed epoch's span is priced per later turn here (docs/shed.md).
 */
import { countVerdicts, figuresOfEpoch, modeOfConversation, type Label, type SpanSummary } from '../core/index.js';
import { triggerOf } from '../core/epoch-trigger.js';
import type { EpochMode, KindTag, EpochTrigger } from '../core/epoch-types.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import type { ConversationTally } from './wire-tally.js';

export type { SpanSummary } from '../core/index.js';

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
    // Every kind's part, from the epoch's items and what the wire log saw of them (core/epochs/epoch-figures.ts).
    const figures = figuresOfEpoch({
      epoch,
      tokensPerByte,
      readsOf: (ordinal) => tally?.refaultsByEpoch.get(epoch.n)?.get(ordinal) ?? 0,
      restores: tally?.spanRestoresByEpoch.get(epoch.n) ?? 0,
      cacheReadBefore: tally?.latches.find((l) => l.n === epoch.n)?.cacheReadBefore ?? null,
    });
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
      blocks: figures.blocks,
      bytes: figures.bytes,
      thinking: figures.thinking,
      tokens: figures.tokens,
      refaults: figures.refaults,
      blocksRefaulted: figures.blocksRefaulted,
      source: 'record',
      labels: epoch.ledger === undefined ? null : countVerdicts(epoch.ledger),
      span: figures.span,
    };
  });
}
