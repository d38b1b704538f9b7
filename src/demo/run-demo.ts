/**
 * `ctxshed demo`: a scripted client runs a session against a scripted model through the real
 * proxy (the same `startProxy` that `rescue` and `serve` use), and reports what the proxy logged.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { conversationKeyOf, findFirstMessage } from '../core/index.js';
import { startProxy } from '../proxy/start-proxy.js';
import type { ProxySettings } from '../proxy/transport-settings.js';
import { contextWindowFor } from '../rescue/index.js';
import { openStateDir } from '../state/open-state-dir.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { verifyState } from '../state/verify-state.js';
import { BYTES_PER_TOKEN } from '../scripted/cache-pricing.js';
import { createDemoClient } from './demo-client.js';
import { startDemoModel } from './demo-model.js';
import { playTurn, type DemoProgress, type DemoRun } from './demo-turn.js';
import type { DemoEvent, DemoReport, DemoSummary, TurnReport } from './demo-report.js';
import { WireTail } from './wire-tail.js';

export const DEFAULT_DEMO_TURNS = 40;
/** A small window, so a few seconds of scripted turns cross the threshold more than once. */
export const DEFAULT_DEMO_WINDOW = 40_000;

export interface DemoOptions {
  readonly turns: number;
  /** The proxy's settings as `rescue` would build them; the upstream becomes the scripted model. */
  readonly config: ProxySettings;
  /** Default: a fresh directory under the system's temp dir, so a demo never mixes into real state. */
  readonly stateDir?: string;
  readonly onEvent?: (event: DemoEvent) => void;
  /** How to run ctxshed in the printed commands, shell-quoted (default `ctxshed`). */
  readonly cli?: string;
}

/** Runs the demo session and reports it; rejects when a request fails. */
export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  const dir = path.resolve(options.stateDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-demo-'))));
  const state = await openStateDir(dir);
  const tail = await WireTail.at(state.wirePath);
  const model = await startDemoModel();
  const cleanups: Array<() => Promise<void> | void> = [() => model.close()];
  const emit = options.onEvent ?? (() => undefined);
  const progress: DemoProgress = { turns: [], epochs: [], readBack: undefined };
  let key = '';
  try {
    const { engine, transport } = options.config;
    const proxy = await startProxy({ engine, transport: { ...transport, upstream: new URL(model.url) } }, state, 0);
    cleanups.push(() => proxy.close());
    const { mode } = engine;
    const { threshold } = engine.latch.thresholds;
    emit({
      kind: 'start',
      stateDir: dir,
      proxyUrl: proxy.url,
      modelUrl: model.url,
      window: contextWindowFor(engine.window.given, undefined),
      threshold,
      mode,
    });
    const client = createDemoClient(proxy.url, randomUUID().slice(0, 8));
    cleanups.push(() => client.close());
    key = keyOf(client.body());
    const run: DemoRun = { state, tail, model, client, key, mode, threshold, emit };
    for (let turn = 1; turn <= options.turns; turn++) await playTurn(run, progress, turn);
  } finally {
    // In reverse: the client lets go of the proxy, the proxy flushes its log, then the model stops.
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
  const verified = await verifyState(dir);
  const cli = options.cli ?? 'ctxshed';
  const { turns, epochs, readBack } = progress;
  return {
    state: dir,
    conversationKey: key,
    turns,
    epochs,
    readBack,
    mode: options.config.engine.mode,
    summary: summarize(turns, options.config.engine.latch.thresholds.threshold),
    verify: { ok: verified.problems.length === 0, ...verified },
    commands: [`${cli} verify --state ${shellWord(dir)}`, `${cli} ls --state ${shellWord(dir)}`, `${cli} show ${key} --state ${shellWord(dir)}`],
  };
}

/** `word` as one shell word, so a printed command can be pasted as is. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The conversation key the proxy will log for this body (its first message, no agent id). */
function keyOf(body: Buffer): string {
  const first = findFirstMessage(body);
  if (first === null || first === undefined) throw new Error('the demo client built a body without a first message');
  return conversationKeyOf(body, first, undefined, sha256Hex);
}

/** The figures of the whole session, from its turns. */
function summarize(turns: readonly TurnReport[], threshold: number): DemoSummary {
  const last = turns[turns.length - 1];
  const window = last?.window ?? 0;
  const read = turns.reduce((sum, t) => sum + t.cacheRead, 0);
  const written = turns.reduce((sum, t) => sum + t.cacheWrite, 0);
  return {
    requests: turns.length,
    epochs: last?.epochs ?? 0,
    window,
    threshold,
    lastBytesIn: last?.bytesIn ?? 0,
    lastBytesOut: last?.bytesOut ?? 0,
    bytesSaved: (last?.bytesIn ?? 0) - (last?.bytesOut ?? 0),
    lastFullness: last?.fullness ?? 0,
    fullnessWithout: last === undefined || window === 0 ? 0 : last.bytesIn / BYTES_PER_TOKEN / window,
    cacheHitRatio: read + written === 0 ? 0 : read / (read + written),
    cacheWriteTokens: written,
  };
}
