/** The wire record: one line per proxied request in `<state>/wire.jsonl` (DESIGN.md "Wire record"). */
import type { PassthroughReason } from '../core/index.js';
import type { ModelRoute } from './model-route.js';

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
  readonly reason?: PassthroughReason;
  readonly skipped?: Readonly<Record<string, number>>;
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
}

/** A note in the wire log that is not about one request (e.g. the state directory failed). */
export interface WireNote {
  readonly t: string;
  readonly note: 'state_unavailable' | 'state_recovered';
  readonly detail: string;
}
