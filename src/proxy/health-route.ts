/**
 * `GET /_ctxshed/health`: whether a running proxy serves, for a service manager or a probe. It is
 * answered like the metrics (own-routes.ts: loopback only, never forwarded, never in the wire log).
 * `ok` is false while the state directory cannot be written: requests then still pass through,
 * unchanged, but nothing is rescued (docs/reliability.md). It names no path: any local user can
 * ask it, and where a person keeps their state is theirs (issue 41).
 */
import fs from 'node:fs/promises';
import type { StateHealth } from './state-health.js';

/** The health route's JSON body. */
export interface HealthReport {
  /** The proxy serves and can write its state directory. */
  readonly ok: boolean;
  /** ctxshed's version (package.json). */
  readonly version: string;
  /** Seconds since the proxy started listening. */
  readonly uptimeSeconds: number;
  /** Whether it can be written: the last write there worked, and the directory is writable. */
  readonly stateWritable: boolean;
}

/** Builds the report on demand. */
export type DescribeHealth = () => Promise<HealthReport>;

/** What the report is made of: fixed at start, except the state's health. */
export interface HealthSources {
  readonly version: string;
  /** `performance.now()` when the proxy started. */
  readonly startedAt: number;
  readonly stateDir: string;
  readonly health: Pick<StateHealth, 'failing'>;
}

/** The health report of a proxy, as of now. Never rejects. */
export function healthDescriber(sources: HealthSources): DescribeHealth {
  return async () => {
    const writable = !sources.health.failing && (await isWritableDir(sources.stateDir));
    return {
      ok: writable,
      version: sources.version,
      uptimeSeconds: Math.round(performance.now() - sources.startedAt) / 1000,
      stateWritable: writable,
    };
  };
}

async function isWritableDir(dir: string): Promise<boolean> {
  return fs.access(dir, fs.constants.W_OK).then(
    () => true,
    () => false,
  );
}
