/**
 * The latch side of an epoch kind: what both kinds, tool results (rescue mode) and spans of whole
 * messages (shed mode, docs/shed.md), answer alike, so that one threshold latch, one overflow
 * latch and one record (rescue/maybe-latch.ts, rescue/overflow-latch.ts, core/plan-record.ts)
 * serve both. Pure: the sha256 function and the state's directories are handed in.
 */
import type { EpochLatch, EpochTake } from '../epoch-take.js';
import type { KindTag } from '../epoch-types.js';
import type { FullnessReading } from '../fullness-reading.js';
import type { OverflowTake } from '../overflow-decision.js';
import type { PlannedBlock } from '../plan-elision.js';
import type { EpochPart } from '../plan-record.js';
import type { GateDecision } from '../break-even.js';
import type { TranscriptIndex } from '../transcript-index-types.js';
import type { FrozenItems } from './frozen-items.js';
import type { CallReader } from './working-set.js';
import type { MessageFactsReader } from '../shed/message-facts-type.js';
import type { PartSiteReader } from '../part-sites.js';

/** One request over the threshold, as a planner weighs it. */
export interface EpochAsk {
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  /** The conversation's last reading, which is over the threshold. */
  readonly reading: FullnessReading;
  /** What the conversation's epochs froze so far, by kind (frozen-items.ts): each kind reads its own. */
  readonly items: FrozenItems;
  /** The sha256s the latest epoch froze (its blocks', or its span's): their read-backs are in the working set (working-set.ts). */
  readonly latest?: readonly string[];
  /** The conversation record's bring-back counts (ConversationRecord.bringBacks), for the working set. */
  readonly bringBacks?: Readonly<Record<string, number>>;
  /** How the body's calls are read (the API dialect's `calls`), for the working set; absent: the Messages API's way. */
  readonly readCalls?: CallReader;
  /** How the body's messages are read (the API dialect's `messageFacts`), for spans and the working set. */
  readonly readFacts: MessageFactsReader;
  /** The model calls the body records (the API dialect's `modelCalls`): the burst gate's turns so far. */
  readonly modelCalls: number;
  /** Where the deeper cut may take parts (the API dialect's `partSites`); absent: tool results only. */
  readonly readParts?: PartSiteReader;
}

/** A request the API refused as too long, as a planner weighs it. */
export interface OverflowAsk {
  /** The body as the client sent it (the plan reads the original bytes). */
  readonly body: Uint8Array;
  readonly index: TranscriptIndex;
  /** As EpochAsk's. */
  readonly items: FrozenItems;
  readonly latest?: readonly string[];
  readonly bringBacks?: Readonly<Record<string, number>>;
  readonly readCalls?: CallReader;
  readonly readFacts: MessageFactsReader;
  readonly modelCalls: number;
  readonly readParts?: PartSiteReader;
  /** The prompt's tokens as the API's error counted them. */
  readonly tokens: number;
  /** The most tokens the retry may carry: the maximum the error named, else the window. */
  readonly limit: number;
  /** The request's window (the span kind's recent budget is the window's). */
  readonly window: number;
  /** Bytes of the refused request as it was sent: with `tokens`, its own tokens per byte. */
  readonly sentBytes: number;
}

/** A decision that latches, of the kind decide-epoch.ts gives. */
export type LatchingDecision = EpochLatch<PlannedBlock>;

/** One kind's latch side. `C` is what the kind chose to freeze, handed back to it to make the epoch. */
export interface EpochPlanner<C, P extends EpochPart = EpochPart> {
  /** The kind's tag (core/epoch-types.ts `KindTag`): what its epochs freeze. */
  readonly kind: KindTag;
  /** What a threshold latch would take out (core/decide/decide-epoch.ts weighs it): the plan the epoch freezes. */
  take(ask: EpochAsk): EpochTake<PlannedBlock>;
  /** What a latching threshold decision chose. */
  chosen(decision: LatchingDecision): C;
  /** What an overflow latch would take out (core/overflow-decision.ts weighs it), or why nothing. */
  takeOnOverflow(ask: OverflowAsk): OverflowTake<C>;
  /** The kind's part of the epoch and the files it names, with the gate's figures when the epoch was gated. */
  epochOf(choice: C, gate: GateDecision | undefined): P;
}
