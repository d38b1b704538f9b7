/**
 * The wire record: one line per proxied request in `<state>/wire.jsonl` (docs/design.md "Wire record").
 * This file owns its shape and how one is built; wire-log.ts appends lines and wire-line.ts reads
 * them back.
 */
import { readsFullness, type ModelRoute } from '../core/dialects/index.js';
import type { RefaultVia, Refault } from '../core/detect-refaults.js';
import type { HoldReason } from '../core/decide/hold-reasons.js';
import type { PassthroughReason } from '../core/passthrough-reasons.js';
import type { RefusalReason } from '../core/refusal-reasons.js';
import type { RequestClass } from '../core/request-class.js';
import type { ThinkingDropped } from '../core/thinking/thinking-dropped.js';
import { contextTokensOf, type Usage } from '../core/usage.js';
import { sha256Hex } from './sha256-hex.js';

/**
 * One request's line: never headers, never bodies, only what a person needs to see what ctxshed
 * did. A union by what came of the request (`wireOutcomeOf` names it): a request the engine sent
 * upstream unchanged (`WirePassthrough`), held (`WireHeld`) or rewritten (`WireRewritten`); one
 * ctxshed refused (`WireRefused`); one ctxshed answered itself (`WireOwnAnswer`). Each declares the
 * others' own fields as `never`, so a reader may ask any field of any line and the type says
 * which can be there. The format on disk is one flat JSON object, as it always was.
 */
export type WireRecord = WirePassthrough | WireHeld | WireRewritten | WireRefused | WireOwnAnswer;

/** What every line carries, whatever came of its request. */
export interface WireLine {
  readonly t: string;
  readonly method: string;
  /** The path without its query string (a query could carry anything). */
  readonly path: string;
  readonly route: ModelRoute | null;
  /** Conversation key (64 hex), when the request was a model call with messages. */
  readonly key: string | null;
  readonly status: number;
  /** Request bytes as received from the client. */
  readonly bytesIn: number;
  /** Request bytes as sent upstream. */
  readonly bytesOut: number;
  /** Response bytes sent to the client. */
  readonly responseBytes: number;
  /** Stubs in the request sent. */
  readonly rescued: number;
  /** Text bytes those stubs stand for. */
  readonly bytesElided: number;
  /** Epochs of the conversation when the request was sent. */
  readonly epochs: number;
  readonly ms: { readonly total: number; readonly prepare: number; readonly headers?: number };
}

/** What a request the engine sent upstream may carry besides, whatever the engine made of it. */
export interface WireSentFacts {
  readonly agentId?: string;
  /** Claude Code's `x-claude-code-request-class` (main, subagent, workflow, compaction, auxiliary, side_reply, unknown), when it sent one. */
  readonly requestClass?: RequestClass;
  readonly model?: string;
  /**
   * How the rewrite ran, when one ran: from the conversation's last rewrite (`incremental`) or from
   * scratch (`full`); the bytes are the same either way, only the cost differs (docs/core.md).
   */
  readonly rewritePath?: RewritePath;
  /** Elided blocks this request's new tool calls read back (docs/rescue.md, "Refaults"). */
  readonly refaults?: number;
  /** Each of them: the epoch that froze the block, its ordinal, and how it was read. */
  readonly refaulted?: readonly WireRefault[];
  /** The API refused the request as too long: what the proxy did about it. */
  readonly retry?: WireRetry;
  /** Thinking blocks the API dropped from the request, as its response's `input_transformations` listed them; absent: none. */
  readonly thinkingDropped?: number;
  /** The same, counted by the API's reason (`prefix_binding_mismatch`, `model_binding_mismatch`, `other`). */
  readonly thinkingDroppedBy?: Readonly<Record<string, number>>;
  readonly usage?: {
    readonly input: number;
    readonly cacheCreation: number;
    readonly cacheRead: number;
    readonly output: number;
  };
  readonly window?: number;
  /** Context tokens of this request over the window. */
  readonly fullness?: number;
  /** A proxy-side failure's stable code. */
  readonly error?: string;
  /** The API's `event: error` type, when the stream carried one. */
  readonly streamError?: string;
  /**
   * `--labels model`: ctxshed's own classifier call, made while this request latched, with its
   * usage and cost (docs/labels.md). Its tokens are not this request's `usage`.
   */
  readonly classifier?: WireClassifier;
  /** `websocket`: a `response.create` message of a Responses WebSocket (docs/openai.md "WebSockets"); absent: plain HTTP. */
  readonly transport?: WireTransport;
}

/** Each outcome's own fields, as the variant that has them types them. */
export interface WireOutcomeFields {
  /** Why the request went upstream unchanged (docs/reasons.md). */
  readonly reason: PassthroughReason;
  /** Over the threshold and no epoch latched: why (docs/reasons.md, "Why no epoch latched"). */
  readonly hold: HoldReason;
  /** The epoch this request latched. */
  readonly latched: number;
  /** Frozen blocks the rewrite (or a failed apply) left alone, counted by reason. */
  readonly skipped: Readonly<Record<string, number>>;
  /** Answers sent as a pointer to an earlier copy of the text they brought back (docs/shed.md, "A text is carried once"); absent: none. */
  readonly repeats: number;
  /** Frozen thinking blocks this request went without (docs/rescue.md, "Preserved thinking"); absent: none. */
  readonly thinkingRemoved: number;
  /** Frozen thinking blocks left in it, counted by reason (docs/reasons.md); absent: none. */
  readonly thinkingSkipped: Readonly<Record<string, number>>;
  /** ctxshed refused the request itself (403 a web page, 408 or 429 a body it would not hold; never forwarded): why (docs/reasons.md, "Refused requests"). */
  readonly refused: RefusalReason;
  /** A WebSocket warm-up (`generate: false`) ctxshed answered itself: nothing was forwarded. */
  readonly warmup: true;
  /** The close code a WebSocket was closed with on the client's bad frame (1002, 1007, 1009). */
  readonly closeCode: number;
}

/** Fields a line cannot have: declared, so a reader may ask them, and `never`, so none is written. */
type Without<T> = { readonly [K in keyof T]?: never };

/** The fields of the outcomes of a request ctxshed did not forward. */
type OwnFields = Pick<WireOutcomeFields, 'refused' | 'warmup' | 'closeCode'>;

/** The input bytes went upstream unchanged, for a `reason`; a request whose apply failed after it latched says which epoch. */
export type WirePassthrough = WireLine &
  WireSentFacts &
  Pick<WireOutcomeFields, 'reason'> &
  Partial<Pick<WireOutcomeFields, 'latched' | 'skipped'>> &
  Without<Pick<WireOutcomeFields, 'hold' | 'repeats' | 'thinkingRemoved' | 'thinkingSkipped'> & OwnFields>;

/** Over the threshold, no epoch latched (`hold` says why), and the input bytes went upstream unchanged (`reason`). */
export type WireHeld = WireLine &
  WireSentFacts &
  Pick<WireOutcomeFields, 'reason' | 'hold'> &
  Partial<Pick<WireOutcomeFields, 'skipped'>> &
  Without<Pick<WireOutcomeFields, 'latched' | 'repeats' | 'thinkingRemoved' | 'thinkingSkipped'> & OwnFields>;

/** The request went upstream with the conversation's epochs applied: it may have latched one, or been held (never both). */
export type WireRewritten = WireLine &
  WireSentFacts &
  (
    | (Partial<Pick<WireOutcomeFields, 'latched'>> & Without<Pick<WireOutcomeFields, 'hold'>>)
    | (Pick<WireOutcomeFields, 'hold'> & Without<Pick<WireOutcomeFields, 'latched'>>)
  ) &
  Partial<Pick<WireOutcomeFields, 'skipped' | 'repeats' | 'thinkingRemoved' | 'thinkingSkipped'>> &
  Without<Pick<WireOutcomeFields, 'reason'> & OwnFields>;

/** ctxshed refused the request itself: nothing forwarded, the body dropped, `refused` says why. */
export type WireRefused = WireLine & Pick<WireOutcomeFields, 'refused'> & Without<WireSentFacts & Omit<WireOutcomeFields, 'refused'>>;

/** ctxshed answered a Responses WebSocket itself: a warm-up, or a socket it closed on a bad frame; nothing forwarded. */
export type WireOwnAnswer = WireLine &
  Without<Omit<WireSentFacts, 'transport'> & Omit<WireOutcomeFields, 'warmup' | 'closeCode'>> & { readonly transport: WireTransport } & (
    | (Pick<WireOutcomeFields, 'warmup'> & Without<Pick<WireOutcomeFields, 'closeCode'>>)
    | (Pick<WireOutcomeFields, 'closeCode'> & Without<Pick<WireOutcomeFields, 'warmup'>>)
  );

/** What came of a request, as its line says: the union's variant, by the fields only it has. */
export type WireOutcome = 'passthrough' | 'held' | 'rewritten' | 'refused' | 'own';

/** The variant a line is (a line read from disk is trusted this far: wire-line.ts checks its fields' types). */
export function wireOutcomeOf(record: WireRecord): WireOutcome {
  if (record.refused !== undefined) return 'refused';
  if (record.warmup !== undefined || record.closeCode !== undefined) return 'own';
  if (record.reason === undefined) return 'rewritten';
  return record.hold === undefined ? 'passthrough' : 'held';
}

/** How a request reached the proxy, when not as plain HTTP. */
export type WireTransport = 'websocket';

/** How a rescue mode rewrite ran (core/incremental-rewrite.ts). */
export type RewritePath = 'incremental' | 'full';

/** ctxshed's own classifier call, as the wire log keeps it. */
export interface WireClassifier {
  readonly model: string;
  /** `scored`: its scores were used; otherwise why the local rules decided. */
  readonly outcome: 'scored' | 'timeout' | 'failed' | 'unreadable';
  /** The HTTP status, when a response came. */
  readonly status?: number;
  readonly ms: number;
  /** Chunks sent, and how many came back with usable scores. */
  readonly chunks: number;
  readonly scored: number;
  readonly usage?: { readonly input: number; readonly output: number };
  /** USD at the list price of `model`, when the usage and the price are known. */
  readonly costUsd?: number;
}

/** One block read back, as the wire record names it. */
export interface WireRefault {
  readonly epoch: number;
  readonly ordinal: number;
  readonly via: RefaultVia;
  /**
   * The call that read it, as the first 16 hex digits of the sha256 of its tool_use id (never the
   * id): a request resent after a restart names the same call, so reports count it once.
   */
  readonly call?: string;
  /** Present when the call read a shed span back (`ordinal` is then its first message). */
  readonly span?: true;
}

/**
 * A refusal and its retry (the proxy's overflow-retry.ts builds it): as too long (`overflow`, with
 * the API's count), or a thinking block of a request ctxshed changed failing its prefix check
 * (`prefix_check`, with the block's place as the API named it).
 */
export type WireRetry =
  | {
      readonly reason: 'overflow';
      readonly firstStatus: number;
      readonly tokens: number;
      readonly limit?: number;
      /** The refusal named no count: `tokens` is ctxshed's estimate (docs/openai.md, "Rescue on overflow"). */
      readonly estimated?: true;
      readonly sent: boolean;
      readonly why?: string;
      readonly status?: number;
    }
  | {
      readonly reason: 'prefix_check';
      readonly firstStatus: number;
      readonly at: string;
      readonly sent: boolean;
      readonly why?: string;
      readonly status?: number;
    };

/**
 * A note in the wire log that is not about one request: the state directory failed, or can be
 * written again; or an original is not what its name says (`original_changed`: its problem, a
 * reason of core/original-problems.ts, begins its detail).
 */
export interface WireNote {
  readonly t: string;
  readonly note: 'state_unavailable' | 'state_recovered' | 'original_changed';
  readonly detail: string;
}

/** What one request's record is built from: the proxy's plain facts, no sockets. */
export interface WireRecordInput {
  /** ISO-8601 time the record is written. */
  readonly t: string;
  readonly method: string;
  /** The request-target as the client sent it; the record keeps its path only. */
  readonly target: string;
  readonly route: ModelRoute | undefined;
  readonly status: number;
  readonly responseBytes: number;
  /** Milliseconds, unrounded. */
  readonly ms: { readonly total: number; readonly prepare: number; readonly headers?: number | undefined };
  /** What came of the request. */
  readonly outcome: WireOutcomeInput;
}

/** What came of a request, as the proxy knows it: sent upstream by the engine, refused, or answered by ctxshed. */
export type WireOutcomeInput =
  | WireSentInput
  | { readonly kind: 'refused'; readonly refused: RefusalReason }
  /** A WebSocket warm-up ctxshed answered itself; `bytesIn` its message's. */
  | { readonly kind: 'warmup'; readonly bytesIn: number }
  /** A WebSocket ctxshed closed on the client's bad frame. */
  | { readonly kind: 'closed'; readonly closeCode: number };

/** A request the engine sent upstream: the request's and the response's facts, and what the engine made of it. */
export interface WireSentInput {
  readonly kind: 'sent';
  readonly key: string | undefined;
  readonly agentId: string | undefined;
  readonly requestClass?: RequestClass | undefined;
  /** The context window the request was measured against. */
  readonly window: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly epochs: number;
  readonly usage: Usage | undefined;
  readonly rewritePath?: RewritePath | undefined;
  readonly refaults?: readonly Refault[] | undefined;
  readonly retry?: WireRetry | undefined;
  readonly thinkingDropped?: ThinkingDropped | undefined;
  readonly error?: string | undefined;
  readonly streamError?: string | undefined;
  readonly classifier?: WireClassifier | undefined;
  readonly transport?: WireTransport | undefined;
  readonly engine: WireEngineInput;
}

/** Frozen items left alone, each with why; counted by reason in the record. */
type Skips = readonly { readonly reason: string }[] | undefined;

/** What the engine made of a request it sent upstream (rescue/engine-types.ts `Prepared`, as the record keeps it). */
export type WireEngineInput =
  | { readonly kind: 'passthrough'; readonly reason: PassthroughReason; readonly latched?: number | undefined; readonly skipped?: Skips }
  | { readonly kind: 'held'; readonly reason: PassthroughReason; readonly hold: HoldReason; readonly skipped?: Skips }
  | {
      readonly kind: 'rewritten';
      readonly rescued: number;
      readonly bytesElided: number;
      /** The epoch it latched, or why it latched none over the threshold: never both. */
      readonly latched?: number | undefined;
      readonly hold?: HoldReason | undefined;
      readonly skipped?: Skips;
      /** Answers sent as a pointer to an earlier copy (core/repeats/). */
      readonly repeats?: number | undefined;
      readonly thinkingRemoved?: number | undefined;
      readonly thinkingSkipped?: Skips;
    };

/** The record for one request: the query string, headers and bodies never make it in. Its fields keep the order they always had. */
export function buildWireRecord(r: WireRecordInput): WireRecord {
  const { outcome } = r;
  switch (outcome.kind) {
    case 'sent':
      return sentRecord(r, outcome);
    case 'refused':
      return { ...unsentLine(r, 0), refused: outcome.refused, ms: msOf(r.ms) };
    case 'warmup':
      return { ...unsentLine(r, outcome.bytesIn), ms: msOf(r.ms), transport: 'websocket', warmup: true };
    case 'closed':
      return { ...unsentLine(r, 0), ms: msOf(r.ms), transport: 'websocket', closeCode: outcome.closeCode };
  }
}

// A sent request's line: the request, the engine's outcome, the response.
function sentRecord(r: WireRecordInput, o: WireSentInput): WirePassthrough | WireHeld | WireRewritten {
  const { usage, engine } = o;
  const model = usage?.model;
  const head = {
    t: r.t,
    method: r.method,
    path: pathOf(r.target),
    route: r.route ?? null,
    key: o.key ?? null,
    ...(o.agentId === undefined ? {} : { agentId: o.agentId }),
    ...(o.requestClass === undefined ? {} : { requestClass: o.requestClass }),
    ...(model === undefined ? {} : { model }),
    status: r.status,
    bytesIn: o.bytesIn,
    bytesOut: o.bytesOut,
    responseBytes: r.responseBytes,
  };
  const skipped = engine.skipped === undefined || engine.skipped.length === 0 ? {} : { skipped: countByReason(engine.skipped) };
  const middle = {
    ...(o.rewritePath === undefined ? {} : { rewritePath: o.rewritePath }),
    ...(o.refaults === undefined || o.refaults.length === 0 ? {} : { refaults: o.refaults.length, refaulted: o.refaults.map(wireRefaultOf) }),
    ...(o.retry === undefined ? {} : { retry: o.retry }),
  };
  const response = {
    ...(o.thinkingDropped === undefined || o.thinkingDropped.count === 0
      ? {}
      : { thinkingDropped: o.thinkingDropped.count, thinkingDroppedBy: { ...o.thinkingDropped.byReason } }),
    ...(usage === undefined
      ? {}
      : {
          usage: { input: usage.inputTokens, cacheCreation: usage.cacheCreationInputTokens, cacheRead: usage.cacheReadInputTokens, output: usage.outputTokens },
          ...(readsFullness(r.route) ? { window: o.window, fullness: round4(contextTokensOf(usage) / o.window) } : {}),
        }),
    ms: msOf(r.ms),
    ...(o.error === undefined ? {} : { error: o.error }),
    ...(o.streamError === undefined ? {} : { streamError: o.streamError }),
    ...(o.classifier === undefined ? {} : { classifier: o.classifier }),
    ...(o.transport === undefined ? {} : { transport: o.transport }),
  };
  switch (engine.kind) {
    case 'passthrough':
      return {
        ...head,
        rescued: 0,
        bytesElided: 0,
        epochs: o.epochs,
        ...(engine.latched === undefined ? {} : { latched: engine.latched }),
        reason: engine.reason,
        ...skipped,
        ...middle,
        ...response,
      };
    case 'held':
      return { ...head, rescued: 0, bytesElided: 0, epochs: o.epochs, hold: engine.hold, reason: engine.reason, ...skipped, ...middle, ...response };
    case 'rewritten':
      return {
        ...head,
        rescued: engine.rescued,
        bytesElided: engine.bytesElided,
        epochs: o.epochs,
        ...(engine.latched !== undefined ? { latched: engine.latched } : engine.hold !== undefined ? { hold: engine.hold } : {}),
        ...skipped,
        ...middle,
        ...(engine.repeats === undefined || engine.repeats === 0 ? {} : { repeats: engine.repeats }),
        ...(engine.thinkingRemoved === undefined || engine.thinkingRemoved === 0 ? {} : { thinkingRemoved: engine.thinkingRemoved }),
        ...(engine.thinkingSkipped === undefined || engine.thinkingSkipped.length === 0 ? {} : { thinkingSkipped: countByReason(engine.thinkingSkipped) }),
        ...response,
      };
  }
}

// The line of a request nothing was sent upstream for: no conversation, nothing rewritten.
function unsentLine(r: WireRecordInput, bytesIn: number): Omit<WireLine, 'ms'> {
  return {
    t: r.t,
    method: r.method,
    path: pathOf(r.target),
    route: r.route ?? null,
    key: null,
    status: r.status,
    bytesIn,
    bytesOut: 0,
    responseBytes: r.responseBytes,
    rescued: 0,
    bytesElided: 0,
    epochs: 0,
  };
}

// The path without its query string.
function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

function msOf(ms: WireRecordInput['ms']): WireLine['ms'] {
  return { total: round1(ms.total), prepare: round1(ms.prepare), ...(ms.headers === undefined ? {} : { headers: round1(ms.headers) }) };
}

function countByReason(items: readonly { readonly reason: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of items) counts[s.reason] = (counts[s.reason] ?? 0) + 1;
  return counts;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

/** How many hex digits of a call's hash the wire log keeps: enough to tell a conversation's calls apart. */
export const REFAULT_CALL_HEX = 16;

function wireRefaultOf({ epoch, ordinal, via, toolUseId, span }: Refault): WireRefault {
  return { epoch, ordinal, via, call: sha256Hex(Buffer.from(toolUseId, 'utf8')).slice(0, REFAULT_CALL_HEX), ...(span === undefined ? {} : { span }) };
}
