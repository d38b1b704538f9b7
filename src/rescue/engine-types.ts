/** What goes into the epoch engine and what comes out: plain data, no sockets. */
import type {
  LatchHold,
  ModelRoute,
  OverflowReading,
  PassthroughReason,
  Refault,
  RequestClass,
  SkippedBlock,
  SkippedSpan,
  SkippedThinking,
  Usage,
} from '../core/index.js';
import type { ConversationView } from './conversation-table.js';
import type { WireClassifier } from '../state/wire-record.js';

/** One request as the client sent it. Header names in lower case, as `node:http` gives them. */
export interface EngineRequest {
  readonly method: string;
  /** The request-target: path and query, relative to the proxy's root. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Uint8Array;
}

/**
 * What to send upstream, and everything the wire record and the next reading need of it: a closed
 * union on `outcome`, each variant with only the fields that can occur in it.
 *
 * - `passthrough`: the input bytes unchanged, with the reason from the closed list
 *   (core/passthrough-reasons.ts). A request that latched and whose apply then failed says which
 *   epoch it latched.
 * - `held`: over the threshold, no epoch latched (`hold` says why, core/decide/hold-reasons.ts), and the
 *   input bytes went unchanged (`reason`: no epoch to apply yet, or the apply failed).
 * - `rewritten`: the body with the conversation's epochs applied. It may have latched one, or been
 *   held: a request over the threshold whose latch was held is still rewritten by the epochs the
 *   conversation already has, and says why it latched nothing (never both `latched` and `hold`).
 *
 * The engine builds them with prepared-of.ts; a consumer switches on `outcome`.
 */
export type Prepared = PassedThrough | Held | Rewritten;

/** What every answer carries, whatever its outcome. */
export interface PreparedFacts {
  /** The bytes to send: the input itself on a pass-through or a hold, else the rewrite. */
  readonly body: Uint8Array;
  readonly route: ModelRoute | undefined;
  /** The window this request is measured against (`--window`, else the beta header's). */
  readonly window: number;
  readonly agentId: string | undefined;
  /** Claude Code's request class, when it named one (core/request-class.ts). */
  readonly requestClass?: RequestClass;
  /** Conversation key (64 hex), once the first message was read. */
  readonly key?: string;
  /**
   * The conversation as it was when this request was prepared: plain values (its record, its
   * frozen items, its last reading), never the engine's live entry; `observe` finds that by `key`.
   */
  readonly conversation?: ConversationView;
  /** How many epochs the conversation had when this request was sent. */
  readonly epochs: number;
  /** The state directory failed during this request (its wire record must not report it healthy). */
  readonly stateFailed?: true;
  /** `--labels model`: ctxshed's own call to the classifier while latching, for the wire record. */
  readonly classifier?: ClassifierReport;
  /** Elided blocks the request's new tool calls read back (counted once per call and conversation). */
  readonly refaults?: readonly Refault[];
  /** Whether the apply ran from the conversation's last rewrite or from scratch (same bytes either way). */
  readonly rewritePath?: RewritePath;
}

/** The input bytes unchanged, for a reason. */
export interface PassedThrough extends PreparedFacts {
  readonly outcome: 'passthrough';
  readonly reason: PassthroughReason;
  readonly detail: string;
  /** The epoch this request latched before its apply failed, if it did. */
  readonly latched?: number;
  /** Frozen blocks (or spans) the failed apply left alone, each with why. */
  readonly skipped?: readonly (SkippedBlock | SkippedSpan)[];
}

/** Over the threshold, no epoch latched, and the input bytes unchanged. */
export interface Held extends PreparedFacts {
  readonly outcome: 'held';
  /** Why no epoch latched (core/decide/hold-reasons.ts). */
  readonly hold: LatchHold;
  /** Why the input bytes went through unchanged (`no_epoch`: nothing frozen yet). */
  readonly reason: PassthroughReason;
  readonly detail: string;
  readonly skipped?: readonly (SkippedBlock | SkippedSpan)[];
}

/**
 * What one request's latch step came to: the epoch it latched, or why it held, or neither (under
 * the threshold, or no latch asked). Never both: the type says so, not a convention.
 */
export type LatchNote =
  | { readonly latched: number; readonly hold?: never }
  | { readonly hold: LatchHold; readonly latched?: never }
  | { readonly latched?: never; readonly hold?: never };

/** The body with the conversation's epochs applied, and what its latch step came to. */
export type Rewritten = RewrittenFields & LatchNote;

/** A rewritten answer's own fields. */
export interface RewrittenFields extends PreparedFacts {
  readonly outcome: 'rewritten';
  /** Stubs in the body sent (the wire record's `rescued`): tool-result stubs, or span stubs in shed mode. */
  readonly rescued: number;
  /** Bytes those stubs stand for: the elided texts, or the shed spans. */
  readonly bytesElided: number;
  /** Frozen blocks (or, in shed mode, spans) the rewrite left alone, each with why. */
  readonly skipped: readonly (SkippedBlock | SkippedSpan)[];
  /** Frozen thinking blocks this request went without (docs/rescue.md, "Preserved thinking"); absent: none. */
  readonly thinkingRemoved?: number;
  /** Frozen thinking blocks left in it, each with why; absent: none. */
  readonly thinkingSkipped?: readonly SkippedThinking[];
  /** Answers sent as a pointer to an earlier copy of the text they brought back (docs/shed.md, "A text is carried once"); absent: none. */
  readonly repeats?: number;
}

/** Whether the apply ran from the conversation's last rewrite or from scratch. */
export type RewritePath = 'incremental' | 'full';

/**
 * ctxshed's own call for `--labels model` (docs/labels.md): a Messages API request body to send
 * upstream with the given headers (the conversation's own auth). Resolves to the response, or
 * `undefined` when there was none; honours `signal`. The proxy makes it; tests hand in their own.
 */
export type ClassifierCall = (
  request: { readonly body: string; readonly headers: Readonly<Record<string, string>> },
  signal: AbortSignal,
) => Promise<{ readonly status: number; readonly body: string } | undefined>;

/** What ctxshed's own classifier call did, for the wire record (never a body or a header). */
export type ClassifierReport = WireClassifier;

/** Why an overflow was not rescued: the client then gets the API's refusal as it was. */
export type OverflowDeclined =
  /** Not a model call of a conversation (or shed mode on an API without spans), or a request ctxshed sent unchanged for a reason. */
  | 'not_rescuable'
  /** Every eligible block is frozen already (shed mode: no message is left to shed after the last span). */
  | 'nothing_new'
  /** What could be freed would leave the request over the maximum (core/overflow-decision.ts). */
  | 'not_enough'
  /** A correction epoch (prefix check): no thinking block is left to remove after the request's first change. */
  | 'no_thinking'
  /** A correction epoch (prefix check): removing the thinking blocks would leave an assistant message empty. */
  | 'empty_message'
  /** The latch could not be written. */
  | 'state_unavailable'
  /** The rewrite (or shed body) with the new epoch carried no more stubs than the refused request, or was not smaller. */
  | 'no_smaller_body'
  | 'internal_error';

/** What `prepareAfterOverflow` decided: send the retry, or give the client the refusal. */
export type OverflowOutcome =
  | { readonly kind: 'retry'; readonly prepared: Prepared; readonly overflow: OverflowReading }
  | { readonly kind: 'declined'; readonly why: OverflowDeclined; readonly overflow: OverflowReading; readonly detail?: string };

/** What `prepareAfterPrefixMismatch` decided: send the retry, or give the client the refusal. */
export type RetryOutcome =
  | { readonly kind: 'retry'; readonly prepared: Prepared }
  | { readonly kind: 'declined'; readonly why: OverflowDeclined; readonly detail?: string };

/** A response as the engine needs to see it: its status and the usage read from it. */
export interface ObservedResponse {
  readonly status: number;
  readonly usage: Usage | undefined;
  /**
   * Bytes the measured request stood for upstream, when more than `prepared.body` (replay adds
   * the system prompt and tools it does not rebuild). Default: the body sent.
   */
  readonly requestBytes?: number;
}
