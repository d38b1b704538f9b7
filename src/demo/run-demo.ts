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
import type { WireRecord } from '../state/wire-record.js';
import { spanPath, type StateDir } from '../state/layout.js';
import { openStateDir } from '../state/open-state-dir.js';
import { readConversation } from '../state/read-conversation.js';
import { sha256Hex } from '../state/sha256-hex.js';
import { verifyState } from '../state/verify-state.js';
import { BYTES_PER_TOKEN } from '../scripted/cache-pricing.js';
import { createDemoClient } from './demo-client.js';
import { startDemoModel, type DemoModel } from './demo-model.js';
import type { DemoEvent, DemoReport, DemoSpan, DemoSummary, EpochReport, ReadBackReport, TurnReport } from './demo-report.js';
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
}

/** Runs the demo session and reports it; rejects when a request fails. */
export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  const dir = path.resolve(options.stateDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'ctxshed-demo-'))));
  const state = await openStateDir(dir);
  const tail = await WireTail.at(state.wirePath);
  const model = await startDemoModel();
  const cleanups: Array<() => Promise<void> | void> = [() => model.close()];
  const emit = options.onEvent ?? (() => undefined);
  const turns: TurnReport[] = [];
  const epochs: EpochReport[] = [];
  let readBack: ReadBackReport | undefined;
  let key = '';
  try {
    const { engine, transport } = options.config;
    const proxy = await startProxy({ engine, transport: { ...transport, upstream: new URL(model.url) } }, state, 0);
    cleanups.push(() => proxy.close());
    const mode = engine.mode ?? 'rescue';
    emit({
      kind: 'start',
      stateDir: dir,
      proxyUrl: proxy.url,
      modelUrl: model.url,
      window: contextWindowFor(engine.window, undefined),
      threshold: engine.threshold,
      mode,
    });
    const client = createDemoClient(proxy.url, randomUUID().slice(0, 8));
    cleanups.push(() => client.close());
    key = keyOf(client.body());
    for (let turn = 1; turn <= options.turns; turn++) {
      const sent = await client.turnOnce();
      const record = await tail.next(key);
      if (sent.status !== 200)
        throw new Error(`turn ${turn}: the request failed with status ${sent.status}${record.error === undefined ? '' : ` (${record.error})`}`);
      const report = turnReport(turn, record);
      const before = turns[turns.length - 1];
      if (report.latched !== undefined) {
        const epoch: EpochReport = {
          epoch: report.latched,
          turn,
          fullness: before?.fullness ?? 0,
          toolResults: report.rescued - (before?.rescued ?? 0),
          bytes: report.bytesElided - (before?.bytesElided ?? 0),
          elidedDir: state.elidedDir,
          ...(mode === 'shed' ? { span: await spanOf(state, key, report.latched) } : {}),
        };
        epochs.push(epoch);
        emit({ kind: 'epoch', epoch });
      }
      turns.push(report);
      emit({ kind: 'turn', turn: report, threshold: options.config.engine.threshold });
      const seen = readBackOf(model);
      if (seen !== undefined && (seen.askedAtTurn === turn || seen.answeredAtTurn === turn)) {
        readBack = seen;
        emit({ kind: 'read-back', readBack: seen });
      }
    }
  } finally {
    // In reverse: the client lets go of the proxy, the proxy flushes its log, then the model stops.
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
  const verified = await verifyState(dir);
  return {
    stateDir: dir,
    conversationKey: key,
    turns,
    epochs,
    readBack,
    mode: options.config.engine.mode ?? 'rescue',
    summary: summarize(turns, options.config.engine.threshold),
    verify: { ok: verified.problems.length === 0, ...verified },
    commands: [`ctxshed verify --state ${shellWord(dir)}`, `ctxshed ls --state ${shellWord(dir)}`, `ctxshed show ${key} --state ${shellWord(dir)}`],
  };
}

/** The span a shed epoch froze, as its record says (the wire log knows only its bytes). */
async function spanOf(state: StateDir, key: string, n: number): Promise<DemoSpan> {
  const span = (await readConversation(state, key))?.epochs.find((e) => e.n === n)?.span;
  if (span === undefined) throw new Error(`epoch ${n} latched in shed mode without a span in its record`);
  return {
    first: span.first,
    last: span.last,
    messages: span.last - span.first + 1,
    bytes: span.bytes,
    sha256: span.sha256,
    path: spanPath(state, span.sha256, 'md'),
  };
}

/** `word` as one shell word, so a printed command can be pasted as is. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The conversation key the proxy will log for this body (its first message, no agent id). */
function keyOf(body: Buffer): string {
  const first = findFirstMessage(body);
  if (first === null || first === undefined) throw new Error('the demo client built a body without a first message');
  return conversationKeyOf(body, first, undefined, sha256Hex);
}

function turnReport(turn: number, r: WireRecord): TurnReport {
  return {
    turn,
    status: r.status,
    fullness: r.fullness ?? 0,
    window: r.window ?? 0,
    bytesIn: r.bytesIn,
    bytesOut: r.bytesOut,
    rescued: r.rescued,
    bytesElided: r.bytesElided,
    epochs: r.epochs,
    cacheRead: r.usage?.cacheRead ?? 0,
    cacheWrite: r.usage?.cacheCreation ?? 0,
    ...(r.latched === undefined ? {} : { latched: r.latched }),
  };
}

function readBackOf(model: DemoModel): ReadBackReport | undefined {
  const rb = model.readBack;
  if (rb === undefined) return undefined;
  const base = { askedAtTurn: rb.askedAtCall, path: rb.stub.path, expectedSha256: rb.stub.sha256, expectedBytes: rb.stub.bytes };
  if (rb.checked === undefined) return { ...base, matched: false };
  return { ...base, answeredAtTurn: rb.checked.atCall, receivedSha256: rb.checked.sha256, receivedBytes: rb.checked.bytes, matched: rb.checked.matched };
}

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
