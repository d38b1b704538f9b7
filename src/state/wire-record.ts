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

/** Never headers, never bodies: only what a person needs to see what ctxshed did. */
export interface WireRecord {
  readonly t: string;
  readonly method: string;
  /** The path without its query string (a query could carry anything). */
  readonly path: string;
  readonly route: ModelRoute | null;
  /** Conversation key (64 hex), when the request was a model call with messages. */
  readonly key: string | null;
  readonly agentId?: string;
  /** Claude Code's `x-claude-code-request-class` (main, subagent, workflow, compaction, auxiliary, side_reply, unknown), when it sent one. */
  readonly requestClass?: RequestClass;
  readonly model?: string;
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
  /** The epoch this request latched. */
  readonly latched?: number;
  /** Over the threshold and no epoch latched: why (docs/reasons.md, "Why no epoch latched"). */
  readonly hold?: HoldReason;
  readonly reason?: PassthroughReason;
  /** ctxshed refused the request itself (403 a web page, 408 or 429 a body it would not hold; never forwarded): why (docs/reasons.md, "Refused requests"). */
  readonly refused?: RefusalReason;
  readonly skipped?: Readonly<Record<string, number>>;
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
  /** Frozen thinking blocks this request went without (docs/rescue.md, "Preserved thinking"); absent: none. */
  readonly thinkingRemoved?: number;
  /** Frozen thinking blocks left in it, counted by reason (docs/reasons.md); absent: none. */
  readonly thinkingSkipped?: Readonly<Record<string, number>>;
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
  readonly ms: { readonly total: number; readonly prepare: number; readonly headers?: number };
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
  /** A WebSocket warm-up (`generate: false`) ctxshed answered itself: nothing was forwarded. */
  readonly warmup?: true;
  /** The close code a WebSocket was closed with on the client's bad frame (1002, 1007, 1009). */
  readonly closeCode?: number;
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
  readonly key: string | undefined;
  readonly agentId: string | undefined;
  readonly requestClass?: RequestClass | undefined;
  /** The context window the request was measured against. */
  readonly window: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly rescued: number;
  readonly bytesElided: number;
  readonly epochs: number;
  readonly latched?: number | undefined;
  readonly hold?: HoldReason | undefined;
  readonly reason?: PassthroughReason | undefined;
  readonly refused?: RefusalReason | undefined;
  /** Frozen blocks the rewrite left alone, each with why; counted by reason. */
  readonly skipped?: readonly { readonly reason: string }[] | undefined;
  readonly rewritePath?: RewritePath | undefined;
  readonly refaults?: readonly Refault[] | undefined;
  readonly retry?: WireRetry | undefined;
  readonly thinkingRemoved?: number | undefined;
  readonly thinkingSkipped?: readonly { readonly reason: string }[] | undefined;
  readonly thinkingDropped?: ThinkingDropped | undefined;
  readonly status: number;
  readonly responseBytes: number;
  readonly usage: Usage | undefined;
  /** Milliseconds, unrounded. */
  readonly ms: { readonly total: number; readonly prepare: number; readonly headers?: number | undefined };
  readonly error?: string | undefined;
  readonly streamError?: string | undefined;
  readonly classifier?: WireClassifier | undefined;
  readonly transport?: WireTransport | undefined;
  readonly warmup?: true | undefined;
  readonly closeCode?: number | undefined;
}

/** The fields of a record for a request that sent nothing upstream (a refusal, a warm-up ctxshed answered, a socket's close). */
export const NOTHING_FORWARDED = {
  key: undefined,
  agentId: undefined,
  window: 0,
  bytesIn: 0,
  bytesOut: 0,
  rescued: 0,
  bytesElided: 0,
  epochs: 0,
  responseBytes: 0,
  usage: undefined,
} as const;

/** The record for one request: the query string, headers and bodies never make it in. */
export function buildWireRecord(r: WireRecordInput): WireRecord {
  const q = r.target.indexOf('?');
  const skipped: Record<string, number> = {};
  for (const s of r.skipped ?? []) skipped[s.reason] = (skipped[s.reason] ?? 0) + 1;
  const { usage } = r;
  const model = usage?.model;
  return {
    t: r.t,
    method: r.method,
    path: q < 0 ? r.target : r.target.slice(0, q),
    route: r.route ?? null,
    key: r.key ?? null,
    ...(r.agentId === undefined ? {} : { agentId: r.agentId }),
    ...(r.requestClass === undefined ? {} : { requestClass: r.requestClass }),
    ...(model === undefined ? {} : { model }),
    status: r.status,
    bytesIn: r.bytesIn,
    bytesOut: r.bytesOut,
    responseBytes: r.responseBytes,
    rescued: r.rescued,
    bytesElided: r.bytesElided,
    epochs: r.epochs,
    ...(r.latched === undefined ? {} : { latched: r.latched }),
    ...(r.hold === undefined ? {} : { hold: r.hold }),
    ...(r.reason === undefined ? {} : { reason: r.reason }),
    ...(r.refused === undefined ? {} : { refused: r.refused }),
    ...(Object.keys(skipped).length === 0 ? {} : { skipped }),
    ...(r.rewritePath === undefined ? {} : { rewritePath: r.rewritePath }),
    ...(r.refaults === undefined || r.refaults.length === 0 ? {} : { refaults: r.refaults.length, refaulted: r.refaults.map(wireRefaultOf) }),
    ...(r.retry === undefined ? {} : { retry: r.retry }),
    ...(r.thinkingRemoved === undefined || r.thinkingRemoved === 0 ? {} : { thinkingRemoved: r.thinkingRemoved }),
    ...(r.thinkingSkipped === undefined || r.thinkingSkipped.length === 0 ? {} : { thinkingSkipped: countByReason(r.thinkingSkipped) }),
    ...(r.thinkingDropped === undefined || r.thinkingDropped.count === 0
      ? {}
      : { thinkingDropped: r.thinkingDropped.count, thinkingDroppedBy: { ...r.thinkingDropped.byReason } }),
    ...(usage === undefined
      ? {}
      : {
          usage: { input: usage.inputTokens, cacheCreation: usage.cacheCreationInputTokens, cacheRead: usage.cacheReadInputTokens, output: usage.outputTokens },
          ...(readsFullness(r.route) ? { window: r.window, fullness: round4(contextTokensOf(usage) / r.window) } : {}),
        }),
    ms: {
      total: round1(r.ms.total),
      prepare: round1(r.ms.prepare),
      ...(r.ms.headers === undefined ? {} : { headers: round1(r.ms.headers) }),
    },
    ...(r.error === undefined ? {} : { error: r.error }),
    ...(r.streamError === undefined ? {} : { streamError: r.streamError }),
    ...(r.classifier === undefined ? {} : { classifier: r.classifier }),
    ...(r.transport === undefined ? {} : { transport: r.transport }),
    ...(r.warmup === undefined ? {} : { warmup: r.warmup }),
    ...(r.closeCode === undefined ? {} : { closeCode: r.closeCode }),
  };
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
