/**
 * One exchange with the upstream as it runs: whether it is over, its two clocks (for the response
 * headers, then for silence mid-response), the upstream request to destroy, and what the client
 * got. open-upstream.ts sends the request, relay-response.ts relays the answer; both end the
 * exchange here, once.
 */
import type { ClientRequest } from 'node:http';
import { errorText } from '../errors.js';
import { errorShapeOf, sendErrorBody, shapedErrorBody } from './api-error.js';
import type { ExchangeFacts, ForwardArgs, UsageMeta } from './forward-types.js';
import type { ForwardError, UpstreamFailure } from './upstream-errors.js';
import type { Usage } from './usage-tap.js';

/** The state of one forward, shared by its steps. */
export class UpstreamExchange {
  readonly facts: ExchangeFacts = { status: 0, bytesOut: 0 };
  /** Settles once the exchange is over, however it ended. Never rejects. */
  readonly settled: Promise<ExchangeFacts>;
  readonly origin: string;
  done = false;
  /** Response headers arrived: a request error after that shows up on the response's own events. */
  responded = false;
  upstreamReq: ClientRequest | undefined;
  #resolve: (facts: ExchangeFacts) => void = () => undefined;
  #headersTimer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly args: ForwardArgs,
    readonly now: () => number,
    readonly startedAt: number,
  ) {
    this.origin = args.upstream.origin;
    this.settled = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** Starts the exchange with `send`, unless the client is already gone or the caller cancelled. */
  start(send: () => void): void {
    const { reply, signal, timeouts } = this.args;
    if (reply.gone || reply.answered) {
      this.finish({ code: 'CLIENT_CLOSED', message: 'the client closed the connection before the request was sent' });
      return;
    }
    reply.signal?.addEventListener('abort', this.onClientClose, { once: true });
    this.#headersTimer = setTimeout(() => {
      const message = `upstream ${this.origin} sent no response headers: timed out after ${timeouts.headersMs} ms`;
      this.fail({ code: 'UPSTREAM_HEADERS_TIMEOUT', status: 504, message });
    }, timeouts.headersMs);
    if (signal?.aborted === true) {
      this.#onAbort();
      return;
    }
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    send();
  }

  /** The response headers arrived: the headers clock stops. */
  headersArrived(): void {
    this.responded = true;
    clearTimeout(this.#headersTimer);
    this.facts.headersMs = this.now() - this.startedAt;
  }

  /** (Re)starts the clock for an upstream gone silent mid-response. */
  armIdle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      const message = `upstream ${this.origin} went silent mid-response: no data for ${this.args.timeouts.idleMs} ms`;
      this.fail({ code: 'UPSTREAM_IDLE_TIMEOUT', status: 504, message });
    }, this.args.timeouts.idleMs);
  }

  /** Data came: the upstream is not silent. */
  refreshIdle(): void {
    this.#idleTimer?.refresh();
  }

  /** Stops the idle clock: a slow reader or a finished body is not a silent upstream. */
  stopIdle(): void {
    clearTimeout(this.#idleTimer);
  }

  /** Ends the exchange, once. With an error the upstream request is destroyed. */
  finish(error?: ForwardError): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.#headersTimer);
    clearTimeout(this.#idleTimer);
    this.args.reply.signal?.removeEventListener('abort', this.onClientClose);
    this.args.signal?.removeEventListener('abort', this.#onAbort);
    if (error !== undefined) {
      this.facts.error = error;
      // Destroying (not just unpiping) closes the upstream socket, so nothing leaks or keeps
      // generating tokens for a response nobody reads; the agent never pools a destroyed socket.
      this.upstreamReq?.destroy();
    }
    this.#resolve(this.facts);
  }

  /**
   * A proxy-side failure: before response headers the client gets a 502/504 in the error shape of
   * the API its path speaks (a Codex request gets the OpenAI shape); after them the status cannot change, so the client is cut off (RFC 9112 §8).
   */
  fail(failure: UpstreamFailure): void {
    if (this.done) return;
    const reply = this.args.reply;
    const cut = reply.answered;
    const error = { anthropicType: 'api_error', openAiType: 'server_error', code: failure.code.toLowerCase(), message: failure.message };
    if (!cut && sendErrorBody(reply, failure.status, shapedErrorBody(errorShapeOf(this.args.path), error))) this.facts.status = failure.status;
    this.finish({ code: failure.code, message: failure.message });
    // After finish: the body's end is then the failure's, not a client gone.
    if (cut) reply.cut(failure.message);
  }

  /**
   * Hands the usage to `onUsage`, once per exchange (at the response's end, or when it broke off).
   * Resolves when what the hook started has settled, or after `USAGE_HOOK_WAIT_MS`, whichever is
   * first: the relay ends the client's body after it, so the conversation's next request, on this
   * replica or another, meets this reading.
   */
  reportUsage(usage: Usage | undefined): Promise<void> {
    if (usage === undefined || this.facts.usageReported === true) return Promise.resolve();
    this.facts.usageReported = true;
    const streamError = this.facts.tap?.streamError;
    const meta: UsageMeta = { status: this.facts.status, ...(streamError === undefined ? {} : { streamError }) };
    let pending: Promise<void> | undefined;
    runHook(() => {
      const started = this.args.onUsage?.(usage, meta);
      if (started instanceof Promise) pending = started;
    });
    return pending === undefined ? Promise.resolve() : settledWithin(pending, USAGE_HOOK_WAIT_MS);
  }

  /** The client went away (the reply's body destroyed, or its signal): the upstream request is cut. */
  readonly onClientClose = (): void => {
    this.finish({ code: 'CLIENT_CLOSED', message: 'the client closed the connection before the response was complete' });
  };

  readonly #onAbort = (): void => {
    this.fail({ code: 'ABORTED', status: 502, message: `request cancelled by the proxy: ${errorText(this.args.signal?.reason)}` });
  };
}

/**
 * The longest the end of a response waits on its usage hook: a shared store that answers slowly
 * delays no client by more, and the reading then lands after the end, as it did before.
 */
export const USAGE_HOOK_WAIT_MS = 1000;

/** Resolves when `work` settles (either way), or after `ms`. */
function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

/** A hook's bug must not break the client's response or the proxy. */
export function runHook(hook: () => void): void {
  try {
    hook();
  } catch {
    // swallowed on purpose, see above
  }
}
