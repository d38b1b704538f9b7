/** One turn of `ctxshed demo` (run-demo.ts): the client's request, the proxy's wire record of it, and what the demo reports. */
import { spanOf as spanOfEpoch } from '../core/index.js';
import type { ModeWord } from '../rescue/index.js';
import type { WireRecord } from '../state/wire-record.js';
import { spanPath, type StateDir } from '../state/layout.js';
import { readConversation } from '../state/read-conversation.js';
import type { ScriptedClient } from '../scripted/client.js';
import type { DemoModel } from './demo-model.js';
import { spansOf } from './format-demo.js';
import type { DemoEvent, DemoSpan, EpochReport, ReadBackReport, TurnReport } from './demo-report.js';
import type { WireTail } from './wire-tail.js';

/** What every turn of one demo shares. */
export interface DemoRun {
  readonly state: StateDir;
  readonly tail: WireTail;
  readonly model: DemoModel;
  readonly client: ScriptedClient;
  /** The conversation key the proxy logs the demo's requests under. */
  readonly key: string;
  readonly mode: ModeWord;
  readonly threshold: number;
  readonly emit: (event: DemoEvent) => void;
}

/** The turns so far, their epochs, and the read-back once the model made one. */
export interface DemoProgress {
  readonly turns: TurnReport[];
  readonly epochs: EpochReport[];
  readBack: ReadBackReport | undefined;
}

/** Runs turn `turn` and reports it as it goes; throws when the request fails. */
export async function playTurn(run: DemoRun, progress: DemoProgress, turn: number): Promise<void> {
  const sent = await run.client.turnOnce();
  const record = await run.tail.next(run.key);
  if (sent.status !== 200)
    throw new Error(`turn ${turn}: the request failed with status ${sent.status}${record.error === undefined ? '' : ` (${record.error})`}`);
  const report = turnReport(turn, record);
  const before = progress.turns[progress.turns.length - 1];
  progress.turns.push(report);
  // The turn's line first, then the epoch its request latched, so the epoch shows under its own turn.
  run.emit({ kind: 'turn', turn: report, threshold: run.threshold });
  if (report.latched !== undefined) {
    const epoch: EpochReport = {
      epoch: report.latched,
      turn,
      fullness: before?.fullness ?? 0,
      toolResults: report.rescued - (before?.rescued ?? 0),
      bytes: report.bytesElided - (before?.bytesElided ?? 0),
      elidedDir: run.state.elidedDir,
      ...(spansOf(run.mode) ? { span: await spanOf(run.state, run.key, report.latched) } : {}),
    };
    progress.epochs.push(epoch);
    run.emit({ kind: 'epoch', epoch });
  }
  const seen = readBackOf(run.model);
  if (seen !== undefined && (seen.askedAtTurn === turn || seen.answeredAtTurn === turn)) {
    progress.readBack = seen;
    run.emit({ kind: 'read-back', readBack: seen });
  }
}

/** The span a shed epoch froze, as its record says (the wire log knows only its bytes). */
async function spanOf(state: StateDir, key: string, n: number): Promise<DemoSpan> {
  const epoch = (await readConversation(state, key))?.epochs.find((e) => e.n === n);
  const span = epoch === undefined ? undefined : spanOfEpoch(epoch);
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

/** A turn's figures from its wire record. */
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

/** The model's read-back of a stub's file, once it asked for one. */
function readBackOf(model: DemoModel): ReadBackReport | undefined {
  const rb = model.readBack;
  if (rb === undefined) return undefined;
  const base = { askedAtTurn: rb.askedAtCall, path: rb.stub.path, expectedSha256: rb.stub.sha256, expectedBytes: rb.stub.bytes };
  if (rb.checked === undefined) return { ...base, matched: false };
  return { ...base, answeredAtTurn: rb.checked.atCall, receivedSha256: rb.checked.sha256, receivedBytes: rb.checked.bytes, matched: rb.checked.matched };
}
