/** The shapes of one forward (forward.ts): what it is given, what it holds back, what it returns. */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { ApiName } from '../core/dialects/dialect.js';
import type { ThinkingDropped } from '../core/thinking/thinking-dropped.js';
import type { UpstreamAgents } from './agents.js';
import type { Reply } from './reply.js';
import type { ForwardError } from './upstream-errors.js';
import type { StreamError, Usage, UsageTap } from './usage-tap.js';

/** Passed to `onUsage` with the usage. */
export interface UsageMeta {
  readonly status: number;
  readonly streamError?: StreamError;
}

/** Everything `forwardToUpstream` needs; the caller owns the agents and the reply. */
export interface ForwardArgs {
  readonly upstream: URL;
  readonly method: string;
  /** The client's request-target (path and query), sent verbatim after the upstream's path. */
  readonly path: string;
  /** Forwardable request headers (see `forwardableHeaders`); content-length is recomputed. */
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer | undefined;
  /** Where the response goes: the request's one answer (reply.ts), its signal the client going away. */
  readonly reply: Reply;
  readonly agents: UpstreamAgents;
  /** Aborting cancels the exchange: 502 if nothing was sent yet, else the client is cut off. */
  readonly signal?: AbortSignal;
  readonly timeouts: { readonly headersMs: number; readonly idleMs: number };
  /** The API of the request, which says how the response writes its usage (Messages by default). */
  readonly api?: ApiName | undefined;
  /** Monotonic clock in ms for the timings; `performance.now` by default. */
  readonly now?: () => number;
  /** Called once upstream headers arrive, before they are relayed. Exceptions are swallowed. */
  onResponseStart?(status: number, headers: IncomingHttpHeaders): void;
  /**
   * Called with the usage read from the response copy, if any, before the client sees the
   * response end. A promise it returns (a replica's shared reading being written) holds the end
   * back until it settles, for at most `USAGE_HOOK_WAIT_MS`. Exceptions are swallowed.
   */
  onUsage?(usage: Usage, meta: UsageMeta): void | Promise<void>;
  /**
   * Hold the last chunk of a body of known length until `onUsage`'s promise settles: with a
   * content-length the client has the response at its last byte, not at the body's end. Set when
   * the reading is shared with other replicas; otherwise nothing waits on it.
   */
  readonly holdEndForUsage?: boolean;
  /**
   * Hold back a response with this status instead of relaying it, when its body is small: the
   * caller reads it, then relays it with `sendHeldResponse` or answers otherwise (an overflow's
   * 400 is retried, docs/rescue.md). A body over `maxBytes` is relayed as usual after all.
   * Every other status is relayed as it arrives.
   */
  readonly holdBack?: {
    readonly status: number;
    readonly maxBytes: number;
    /**
     * Also hold the head of a 200 event stream until its first event after `response.created` and
     * `response.in_progress` (core/openai/stream-head.ts): a `response.failed` is then held back
     * whole like the status above; anything else is relayed from its first byte, and streams on.
     */
    readonly streamHead?: boolean;
  };
}

/** A response held back whole, ready to relay byte for byte. */
export interface HeldResponse {
  readonly status: number;
  readonly statusMessage: string | undefined;
  /** The headers as they would have been relayed (hop-by-hop ones dropped). */
  readonly headers: OutgoingHttpHeaders;
  /** The body as received (still compressed if it was). */
  readonly body: Buffer;
}

/** The outcome; `status` is what the client got (0 if it got no status line). */
export interface ForwardResult {
  /** 0 too when the response was held back: the client got nothing yet. */
  readonly status: number;
  /** Response body bytes relayed to the client, as received (still compressed if they were). */
  readonly bytesOut: number;
  readonly usage?: Usage;
  readonly tapError?: string;
  readonly streamError?: StreamError;
  /** The thinking blocks the API dropped from the request, as its response listed them; absent: none. */
  readonly thinkingDropped?: ThinkingDropped;
  readonly error?: ForwardError;
  /** The response `holdBack` asked for, when it came: nothing of it reached the client. */
  readonly held?: HeldResponse;
  readonly timings: { readonly headersMs?: number; readonly totalMs: number };
}

/** What one exchange learned as it ran, for its `ForwardResult`. */
export interface ExchangeFacts {
  status: number;
  bytesOut: number;
  headersMs?: number;
  tap?: UsageTap;
  /** Whether `onUsage` was called already. */
  usageReported?: boolean;
  error?: ForwardError;
  held?: HeldResponse;
}
