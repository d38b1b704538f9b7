/** Where a running proxy's metrics are: the line `rescue` and `serve` print, and the file `status` reads. */
import { METRICS_PATH } from '../proxy/own-routes.js';
import type { StateDir } from '../state/layout.js';
import { readProxyFiles, writeProxyFile, type ProxyFile } from '../state/proxy-file.js';

/** The metrics URL of the proxy at `url`. */
export function metricsUrlOf(url: string): string {
  return `${url}${METRICS_PATH}`;
}

/** The line that says where the metrics are. */
export function metricsLine(url: string): string {
  return `ctxshed: Prometheus metrics at ${metricsUrlOf(url)}`;
}

/**
 * Writes `<state>/proxies/<pid>.json` for this process; resolves to what removes it. A state
 * directory that refuses it costs only `status`'s line about it: the proxy runs on.
 */
export async function announceProxy(state: StateDir, url: string, command: string): Promise<() => Promise<void>> {
  const file: ProxyFile = { pid: process.pid, command, url, metricsUrl: metricsUrlOf(url), startedAt: new Date().toISOString() };
  return writeProxyFile(state, file).catch(() => async () => undefined);
}

/** The proxies running over `state` now, by their files. */
export function runningProxies(state: StateDir): Promise<ProxyFile[]> {
  return readProxyFiles(state, isAlive);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
