/** How the proxy talks to the upstream, and its defaults: the one place they live. */
import type { EngineSettings } from '../rescue/engine-settings.js';

/** The transport's settings (the epoch engine's live in rescue/engine-settings.ts). */
export interface TransportSettings {
  /** Where requests go: `--upstream`, else the ANTHROPIC_BASE_URL ctxshed was started with, else the API. */
  readonly upstream: URL;
  /** Requests bigger than this get a 413 (the API's own limit is 32 MB). */
  readonly maxRequestBytes: number;
  /** A request body silent this long is given up (408); absent: `DEFAULT_BODY_IDLE_TIMEOUT_MS`. */
  readonly bodyIdleTimeoutMs?: number;
  /** The request body bytes all connections may hold at once (over it: 429); absent: `DEFAULT_MAX_BODY_BYTES_IN_FLIGHT`. */
  readonly maxBodyBytesInFlight?: number;
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
    maxBodyBytesInFlight: DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
    timeouts: { headersMs: DEFAULT_HEADERS_TIMEOUT_MS, idleMs: DEFAULT_IDLE_TIMEOUT_MS },
  };
}
