/**
 * A conversation as a person asks about it: its record (who it is, its epochs) and its wire tally
 * (how it went) merged into one summary. Pure.
 *
 * An epoch's shed is counted once, in the epoch that made it: the same bytes are elided again on
 * every later request of the conversation, so adding them up over requests would count one
 * shed many times over.
 */
import type { ConversationRecord } from '../state/conversation-record.js';
import type { EpochMode } from '../core/epoch-types.js';
import { epochKindInfos, itemsOfEpoch, modeOfConversation } from '../core/index.js';
import { epochsFromRecord, type EpochSummary } from './epoch-summary.js';
import { epochsFromWire } from './wire-epochs.js';
import type { ConversationTally, WireTally } from './wire-tally.js';

export type { EpochSummary, SpanSummary } from './epoch-summary.js';

/** Tokens per byte of a request when a conversation reported no usage to measure its own by. */
export const DEFAULT_TOKENS_PER_BYTE = 0.25;

/** One conversation, from its record and its wire records. */
export interface ConversationSummary {
  readonly key: string;
  readonly agentId: string | null;
  readonly model: string | null;
  /** From its record (epochs), else its preview (previews/, from its first model call); null when neither holds it. */
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
  /**
   * The items each registered epoch kind froze (core/epochs/kind-record.ts `itemsOfEpoch`) over the
   * record's epochs, by its tag; a kind with none is absent, so a conversation of the built-in
   * kinds alone has `{}`.
   */
  readonly itemsFrozen: Readonly<Record<string, number>>;
}

/** Every conversation the records or the wire log know, the most recently seen first. */
export function summarizeConversations(
  tally: WireTally,
  records: readonly ConversationRecord[],
  prompts: ReadonlyMap<string, string> = new Map(),
): ConversationSummary[] {
  const byKey = new Map(records.map((record) => [record.key, record]));
  const keys = new Set([...byKey.keys(), ...tally.conversations.keys()]);
  const summaries = [...keys].map((key) => summarizeConversation(byKey.get(key), tally.conversations.get(key) ?? null, key, prompts.get(key)));
  return summaries.sort((a, b) => compareDesc(a.lastSeen, b.lastSeen) || compareDesc(a.createdAt, b.createdAt) || a.key.localeCompare(b.key));
}

/** One conversation's summary; `record` and `tally` may each be missing, not both. */
export function summarizeConversation(
  record: ConversationRecord | undefined,
  tally: ConversationTally | null,
  key: string,
  preview?: string,
): ConversationSummary {
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
    firstPrompt: record?.firstPrompt ?? preview ?? null,
    createdAt: record?.createdAt ?? null,
    firstSeen: tally?.firstSeen ?? null,
    lastSeen: tally?.lastSeen ?? null,
    requests: tally?.requests ?? 0,
    fullness: tally?.lastReading?.fullness ?? null,
    window: tally?.lastReading?.window ?? null,
    epochs,
    // A conversation keeps its first epoch's kind (a correction goes with any), and shows that kind's mode.
    mode: modeOfConversation(record?.epochs ?? []),
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
    itemsFrozen: itemsFrozenOf(record),
  };
}

/** The items each kind the reports count by its items (`counts: 'items'`, a registered kind's) froze over the record's epochs, by its tag; none: absent. */
function itemsFrozenOf(record: ConversationRecord | undefined): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of epochKindInfos().filter((k) => k.counts === 'items')) {
    const n = (record?.epochs ?? []).reduce((total, epoch) => total + itemsOfEpoch(epoch, kind).length, 0);
    if (n > 0) counts[kind.tag] = n;
  }
  return counts;
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

function compareDesc(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? 1 : -1;
}
