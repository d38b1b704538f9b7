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

/** What to send upstream, and everything the wire record and the next reading need of it. */
export interface Prepared {
  /** The bytes to send: the input itself on a pass-through, else the rewrite. */
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
  /** Stubs in the body sent (the wire record's `rescued`): tool-result stubs, or span stubs in shed mode. */
  readonly rescued: number;
  /** Bytes those stubs stand for: the elided texts, or the shed spans. */
  readonly bytesElided: number;
  /** How many epochs the conversation had when this request was sent. */
  readonly epochs: number;
  /** The epoch this request latched, if it did. */
  readonly latched?: number;
  /** Over the threshold and no epoch latched: why (core/decide/hold-reasons.ts). */
  readonly hold?: LatchHold;
  /** Why the input bytes went through unchanged; absent when rewritten. */
  readonly reason?: PassthroughReason;
  readonly detail?: string;
  /** Frozen blocks (or, in shed mode, spans) the rewrite left alone, each with why. */
  readonly skipped?: readonly (SkippedBlock | SkippedSpan)[];
  /** Frozen thinking blocks this request went without (docs/rescue.md, "Preserved thinking"); absent: none. */
  readonly thinkingRemoved?: number;
  /** Frozen thinking blocks left in it, each with why; absent: none. */
  readonly thinkingSkipped?: readonly SkippedThinking[];
  /** The state directory failed during this request (its wire record must not report it healthy). */
  readonly stateFailed?: true;
  /** Whether the rewrite ran from the conversation's last rewrite or from scratch (same bytes either way). */
  readonly rewritePath?: 'incremental' | 'full';
  /** `--labels model`: ctxshed's own call to the classifier while latching, for the wire record. */
  readonly classifier?: ClassifierReport;
  /** Elided blocks the request's new tool calls read back (counted once per call and conversation). */
  readonly refaults?: readonly Refault[];
}

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
