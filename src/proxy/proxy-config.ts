/** What a running proxy is configured with (from the CLI flags). */
import type { ElisionPolicy } from '../core/index.js';

export interface ProxyConfig {
  /** Where requests go: `--upstream`, else the ANTHROPIC_BASE_URL ctxshed was started with, else the API. */
  readonly upstream: URL;
  /** `--rescue-pct` as a fraction, e.g. 0.7. */
  readonly threshold: number;
  readonly policy: ElisionPolicy;
  /** `--window`, when given. */
  readonly window?: number;
  /** Each epoch must free at least this fraction of the window. */
  readonly minGainFraction?: number;
  /** Requests bigger than this get a 413 (the API's own limit is 32 MB). */
  readonly maxRequestBytes: number;
  readonly timeouts: { readonly headersMs: number; readonly idleMs: number };
}

/** The default upstream when nothing else is named. */
export const DEFAULT_UPSTREAM = 'https://api.anthropic.com';
/** The API refuses bodies over 32 MB; ctxshed refuses them before buffering more. */
export const DEFAULT_MAX_REQUEST_BYTES = 32 * 1024 * 1024;
