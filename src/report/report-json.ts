/**
 * The `--json` shapes of `ls` and `show` (docs/commands.md documents them; scripts rely on them,
 * so fields are only ever added). `stats` and `status` print their report types as they are. Pure.
 */
import type { Epoch } from '../core/epoch-types.js';
import { blocksOf, itemsOfEpoch, type EpochKindInfo, type EpochMode, type OriginalFileExt } from '../core/index.js';
import type { ConversationRecord } from '../state/conversation-record.js';
import type { ConversationSummary, EpochSummary, SpanSummary } from './conversation-summary.js';
import { shortId } from './resolve-id.js';

/** One conversation as `ls --json` lists it. */
export interface ConversationJson {
  readonly key: string;
  readonly shortKey: string;
  readonly agentId: string | null;
  readonly model: string | null;
  readonly firstPrompt: string | null;
  readonly createdAt: string | null;
  readonly firstSeen: string | null;
  readonly lastSeen: string | null;
  readonly fullness: number | null;
  readonly window: number | null;
  readonly epochs: number;
  readonly blocksElided: number;
  readonly bytesElided: number;
  readonly tokensElided: number;
  readonly requests: number;
  /** Reads of elided blocks, blocks read back, and blocks read back over blocks elided. */
  readonly refaults: number;
  readonly blocksRefaulted: number;
  readonly refaultRate: number | null;
  /** `shed` when its epochs shed spans of whole messages (docs/shed.md); its block figures are then 0. */
  readonly mode: EpochMode;
  /** Spans shed and the whole messages in them: counts, never a sum of their bytes. */
  readonly spansShed: number;
  readonly messagesShed: number;
  /** Each shed epoch's span with its own bytes, tokens and per-turn price; empty in rescue mode. */
  readonly spans: readonly SpanJson[];
  /** The items each registered epoch kind froze, by its tag; only when some did. */
  readonly itemsFrozen?: Readonly<Record<string, number>>;
}

/** A shed epoch's span as `ls --json` and `show KEY --json` list it. */
export interface SpanJson extends SpanSummary {
  readonly epoch: number;
}

/** A block as `show KEY --json` lists it, with where its original is. */
export interface BlockJson {
  readonly ordinal: number;
  readonly toolUseId: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly path: string;
}

/** The `ls --json` line of a conversation. */
export function conversationJson(s: ConversationSummary): ConversationJson {
  return {
    key: s.key,
    shortKey: shortId(s.key),
    agentId: s.agentId,
    model: s.model,
    firstPrompt: s.firstPrompt,
    createdAt: s.createdAt,
    firstSeen: s.firstSeen,
    lastSeen: s.lastSeen,
    fullness: s.fullness,
    window: s.window,
    epochs: s.epochs.length,
    blocksElided: s.blocksElided,
    bytesElided: s.bytesElided,
    tokensElided: s.tokensElided,
    requests: s.requests,
    refaults: s.refaults,
    blocksRefaulted: s.blocksRefaulted,
    refaultRate: s.refaultRate,
    mode: s.mode,
    spansShed: s.spansShed,
    messagesShed: s.messagesShed,
    spans: s.epochs.flatMap((e) => (e.span === null ? [] : [{ epoch: e.n, ...e.span }])),
    ...(Object.keys(s.itemsFrozen).length === 0 ? {} : { itemsFrozen: s.itemsFrozen }),
  };
}

/** `show KEY --json`: the conversation, then each epoch with its blocks. */
export function showConversationJson(
  s: ConversationSummary,
  recordEpochs: readonly Epoch[],
  pathOf: (sha256: string) => string,
  spanPathOf: (sha256: string) => string,
): object {
  return {
    kind: 'conversation',
    conversation: conversationJson(s),
    epochs: s.epochs.map((e) => {
      const recorded = recordEpochs.find((r) => r.n === e.n);
      const blocks: BlockJson[] = (recorded === undefined ? [] : blocksOf(recorded)).map((b) => ({
        ordinal: b.ordinal,
        toolUseId: b.toolUseId,
        bytes: b.bytes,
        sha256: b.sha256,
        path: pathOf(b.sha256),
      }));
      return {
        n: e.n,
        latchedAt: e.latchedAt,
        trigger: e.trigger,
        reason: e.fullness === null ? null : readingJson(e),
        policy: e.policy,
        source: e.source,
        blockCount: e.blocks,
        bytes: e.bytes,
        thinking: e.thinking,
        tokens: e.tokens,
        refaults: e.refaults,
        blocksRefaulted: e.blocksRefaulted,
        blocks,
        ledger: recorded?.ledger ?? null,
        mode: e.mode,
        span: e.span === null ? null : { ...e.span, path: spanPathOf(e.span.sha256) },
        gate: recorded?.gate ?? null,
      };
    }),
  };
}

/** The reading that latched an epoch, as its record keeps it (`limit` only for an overflow). */
function readingJson(e: EpochSummary): object {
  const reading = { fullness: e.fullness, threshold: e.threshold, window: e.window, contextTokens: e.contextTokens };
  const fired = e.fired === null ? reading : { ...reading, crossed: e.fired.crossed, thresholdTokens: e.fired.thresholdTokens };
  return e.limit === null ? fired : { ...fired, limit: e.limit };
}

/** Where an original is used: which conversation and epoch, and what its kind's `shown.usedBy` says of the item (a block's ordinal, a span's messages). */
export interface UsageJson {
  readonly key: string;
  readonly epoch: number;
  readonly [field: string]: unknown;
}

/**
 * Every item of `kind` in every record that names its file `<sha256>.<ext>`, by the kind's
 * `shown.usedBy`; a kind without one, once per epoch that names it.
 */
export function usagesOfFile(kind: EpochKindInfo, sha256: string, ext: OriginalFileExt, records: readonly ConversationRecord[]): UsageJson[] {
  return records.flatMap((record) =>
    record.epochs.flatMap((epoch) => {
      const items = itemsOfEpoch(epoch, kind);
      const at = { key: record.key, epoch: epoch.n };
      const { shown } = kind;
      if (shown === undefined) return items.some((item) => kind.filesOf(item).some((f) => f.sha256 === sha256 && f.ext === ext)) ? [at] : [];
      return items.flatMap((item) => {
        const used = shown.usedBy(item, sha256, ext);
        return used === undefined ? [] : [{ ...at, ...used }];
      });
    }),
  );
}
