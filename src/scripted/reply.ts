/**
 * What the scripted Messages API can answer: a model's message (priced by the API, sent as SSE or
 * JSON as the request asks), or a reply written exactly as scripted, faults included.
 */
import type { ServerResponse } from 'node:http';
import type { ReplyBlock, StopReason, UsageCounts } from './message.js';
import type { SseEvent } from './sse-encode.js';

/** A compression the API may apply to a body (the client asked for it with accept-encoding). */
export type ContentEncoding = 'gzip' | 'deflate' | 'br';

/** A piece of a streamed body: bytes, or a pause before the next piece. */
export type BodyStep = string | Buffer | { readonly afterMs: number } | { readonly until: PromiseLike<unknown> };

/**
 * How a streamed body ends: `end` it, `hang` (keep the connection open and send nothing more),
 * close the connection (`destroy`: a stream broken off) or `reset` it (a TCP RST, as from a crashed
 * server), or keep sending `repeat` every `everyMs` until the other side leaves (a long
 * generation, pinging).
 */
export type StreamEnd = 'end' | 'hang' | 'destroy' | 'reset' | { readonly repeat: string | Buffer; readonly everyMs: number };

/** An API error's `error` member. */
export interface ApiErrorDetail {
  readonly type: string;
  readonly message: string;
}

/** The status line and headers of a scripted reply. */
export interface ReplyHead {
  readonly status?: number;
  readonly statusMessage?: string;
  /** Headers over the reply's defaults; a flat raw list `[name, value, ...]` replaces them, as is. */
  readonly headers?: Readonly<Record<string, string>> | readonly string[];
  /** Called once the response has closed: `finished` when it was written whole, else cut off by either side. */
  readonly onClose?: (finished: boolean) => void;
}

/** How a stream misbehaves, if at all. */
export interface StreamFaults {
  readonly encoding?: ContentEncoding;
  /** A pause before each event, so a client sees a stream rather than one write. */
  readonly delayMs?: number;
  /** After this many events, an `event: error` with `error`, and the stream ends (HTTP status stays 200). */
  readonly errorAfter?: { readonly events: number; readonly error: ApiErrorDetail };
  readonly end?: StreamEnd;
}

/**
 * The model's answer: the API prices the request with its prompt-cache model for the usage, and
 * streams it when the request says `"stream": true`, else sends it as one JSON body.
 */
export interface MessageReply extends ReplyHead, StreamFaults {
  readonly kind: 'message';
  readonly content: readonly ReplyBlock[];
  /** Default: `tool_use` when the content calls a tool, else `end_turn`. */
  readonly stopReason?: StopReason;
  /** Counts that replace the priced ones. */
  readonly usage?: Partial<UsageCounts>;
  /** Default: the content's JSON length in scripted tokens. */
  readonly outputTokens?: number;
  /** Default: the model the request named. */
  readonly model?: string;
  readonly id?: string;
}

/** One JSON body. */
export interface JsonReply extends ReplyHead {
  readonly kind: 'json';
  readonly body: unknown;
  readonly encoding?: ContentEncoding;
}

/** A `text/event-stream` of these events. */
export interface SseReply extends ReplyHead, StreamFaults {
  readonly kind: 'sse';
  readonly events: readonly SseEvent[];
}

/** Bytes exactly as given, with pauses between them if asked. */
export interface RawReply extends ReplyHead {
  readonly kind: 'raw';
  readonly chunks: Iterable<BodyStep>;
  readonly end?: StreamEnd;
}

/** No answer at all: the request waits until the other side gives up. */
export interface SilentReply {
  readonly kind: 'silent';
  readonly onClose?: (finished: boolean) => void;
}

/** No answer either: the connection is reset (TCP RST) before any response. */
export interface ResetReply {
  readonly kind: 'reset';
}

/** The caller writes the response itself (a forwarding hop, say). */
export interface CustomReply {
  readonly kind: 'custom';
  write(res: ServerResponse): void | Promise<void>;
}

/** Anything the scripted API can answer with. */
export type ScriptedReply = MessageReply | JsonReply | SseReply | RawReply | SilentReply | ResetReply | CustomReply;

/** A reply ready for the wire: a message already priced and encoded. */
export type WireReply = Exclude<ScriptedReply, MessageReply>;
