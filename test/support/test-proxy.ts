/** Starts the real proxy in-process on port 0, with a small window so sessions cross it quickly. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_MAX_REQUEST_BYTES, type ProxySettings, type TransportSettings } from '../../src/proxy/transport-settings.js';
import { engineSettingsOf, type SettingsGiven } from '../../src/rescue/index.js';
import { startProxy, type ProxyOptions, type RunningProxy } from '../../src/proxy/start-proxy.js';
import { openStateDir } from '../../src/state/open-state-dir.js';

/** A fresh temporary state directory. */
export async function tempStateDir(prefix = 'ctxshed-test-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** The window the test proxy measures fullness against, and the scripted API refuses over (scripted-api.ts). */
export const TEST_WINDOW_TOKENS = 20_000;

/** The settings tests use unless they say otherwise; `overrides` may name fields of either half. */
export function testConfig(upstream: string, overrides: Partial<Omit<TransportSettings, 'upstream'>> & SettingsGiven = {}): ProxySettings {
  const {
    maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES,
    timeouts = { headersMs: 10_000, idleMs: 10_000 },
    bodyIdleTimeoutMs,
    bodyDeadlineMs,
    bodyMinBytesPerSecond,
    bodyRateWindowMs,
    maxBodyBytesInFlight,
    bodyShareBytes,
    ...engine
  } = overrides;
  const given = { bodyIdleTimeoutMs, bodyDeadlineMs, bodyMinBytesPerSecond, bodyRateWindowMs, maxBodyBytesInFlight, bodyShareBytes };
  const body = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<TransportSettings>;
  return {
    transport: { upstream: new URL(upstream), maxRequestBytes, timeouts, ...body },
    engine: engineSettingsOf({ threshold: 0.7, keepRecent: 6, minBytes: 1024, window: TEST_WINDOW_TOKENS, ...engine }),
  };
}

/**
 * Starts a proxy on 127.0.0.1:0 over the state directory `dir`. Its lines for a person (a failed
 * upstream request, the state's health) go nowhere unless `options.log` takes them: the fault and
 * load tests fail thousands of upstream requests on purpose.
 */
export async function startTestProxy(dir: string, config: ProxySettings, options: ProxyOptions = {}): Promise<RunningProxy> {
  return startProxy(config, await openStateDir(dir), 0, { log: () => undefined, ...options });
}

/** The wire log's records: its whole lines only, as one being appended may be read half-written. */
export async function readWire(dir: string): Promise<Array<Record<string, unknown>>> {
  const text = await fs.readFile(path.join(dir, 'wire.jsonl'), 'utf8').catch(() => '');
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or a line still being written
  return lines.filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The wire log once it holds at least `count` records (the proxy writes each after its response). */
export async function waitForWire(dir: string, count: number, timeoutMs = 5000): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const records = await readWire(dir);
    if (records.length >= count || Date.now() > deadline) return records;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
