/** How the proxy talks to the upstream, and its defaults: the one place they live. */
import type { EngineSettings } from '../rescue/engine-settings.js';
import type { PaceLimits } from './body-pace.js';

/** The transport's settings (the epoch engine's live in rescue/engine-settings.ts). */
export interface TransportSettings {
  /** Where requests go: `--upstream`, else the ANTHROPIC_BASE_URL ctxshed was started with, else the API. */
  readonly upstream: URL;
  /** Requests bigger than this get a 413 (the API's own limit is 32 MB). */
  readonly maxRequestBytes: number;
  /** A request body silent this long is given up (408); absent: `DEFAULT_BODY_IDLE_TIMEOUT_MS`. */
  readonly bodyIdleTimeoutMs?: number;
  /** A request body not whole this long after it began is given up (408); absent: `DEFAULT_BODY_DEADLINE_MS`; 0: none. */
  readonly bodyDeadlineMs?: number;
  /** A request body must bring at least this many bytes a second in each rate window (else 408); absent: `DEFAULT_BODY_MIN_BYTES_PER_SECOND`; 0: none. */
  readonly bodyMinBytesPerSecond?: number;
  /** The window the body's rate is judged over; absent: `DEFAULT_BODY_RATE_WINDOW_MS`. */
  readonly bodyRateWindowMs?: number;
  /** The request body bytes all connections may hold at once (over it: 429); absent: `DEFAULT_MAX_BODY_BYTES_IN_FLIGHT`. */
  readonly maxBodyBytesInFlight?: number;
  /** What one body may hold of those whatever the others hold (body-budget.ts); absent: `DEFAULT_BODY_SHARE_BYTES`. */
  readonly bodyShareBytes?: number;
  readonly timeouts: { readonly headersMs: number; readonly idleMs: number };
}

/** What a running proxy is configured with: the CLI builds both halves from its flags. */
export interface ProxySettings {
  readonly transport: TransportSettings;
  readonly engine: EngineSettings;
}

/** The default upstream when nothing else is named. */
export const DEFAULT_UPSTREAM = 'https://api.anthropic.com';
/** The API refuses bodies over 32 MB; ctxshed refuses them before buffering more. */
export const DEFAULT_MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/** An agent sends its body at once; one silent for a minute is stalled. */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000;
/** Four bodies at the API's limit at once; an agent's are a few MB each. */
export const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT = 128 * 1024 * 1024;
/**
 * An agent's request (a few MB even at a 1M-token window) fits in one share; a body past it grows
 * only while four shares of the budget stay free for the others (body-budget.ts).
 */
export const DEFAULT_BODY_SHARE_BYTES = 8 * 1024 * 1024;
/** A body at the API's 32 MB limit arrives in five minutes at about 110 KB/s; an agent's, on loopback, in milliseconds. */
export const DEFAULT_BODY_DEADLINE_MS = 300_000;
/** 32 KiB a second (256 kbit/s): a slow link keeps it; a drip-feed of a byte every few seconds does not. */
export const DEFAULT_BODY_MIN_BYTES_PER_SECOND = 32 * 1024;
/** The rate is judged over whole windows of 10 s, so a short stall on a working link is forgiven. */
export const DEFAULT_BODY_RATE_WINDOW_MS = 10_000;
/** Wait for upstream response headers: the SDK's own default request timeout (10 minutes). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 600_000;
/** Silence allowed mid-response; the API pings a live stream far more often than this. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** The transport's defaults, for an upstream. */
export function defaultTransport(upstream: URL): TransportSettings {
  return {
    upstream,
    maxRequestBytes: DEFAULT_MAX_REQUEST_BYTES,
    bodyIdleTimeoutMs: DEFAULT_BODY_IDLE_TIMEOUT_MS,
    bodyDeadlineMs: DEFAULT_BODY_DEADLINE_MS,
    bodyMinBytesPerSecond: DEFAULT_BODY_MIN_BYTES_PER_SECOND,
    bodyRateWindowMs: DEFAULT_BODY_RATE_WINDOW_MS,
    maxBodyBytesInFlight: DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
    bodyShareBytes: DEFAULT_BODY_SHARE_BYTES,
    timeouts: { headersMs: DEFAULT_HEADERS_TIMEOUT_MS, idleMs: DEFAULT_IDLE_TIMEOUT_MS },
  };
}

/** The pace a request body must keep under `transport` (body-pace.ts), each limit its default when not set. */
export function bodyPaceOf(transport: TransportSettings): { readonly [K in keyof PaceLimits]-?: number } {
  return {
    idleTimeoutMs: transport.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
    deadlineMs: transport.bodyDeadlineMs ?? DEFAULT_BODY_DEADLINE_MS,
    minBytesPerSecond: transport.bodyMinBytesPerSecond ?? DEFAULT_BODY_MIN_BYTES_PER_SECOND,
    rateWindowMs: transport.bodyRateWindowMs ?? DEFAULT_BODY_RATE_WINDOW_MS,
  };
}
