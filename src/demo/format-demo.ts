/** The demo's human-readable output: a line per turn while it runs, a summary at the end. Pure. */
import { infoOfModeWord, type ModeWord } from '../rescue/index.js';

import type { DemoEvent, DemoReport, TurnReport } from './demo-report.js';

const BAR_CELLS = 30;
// In shed mode the stubs column counts span stubs, one per shed epoch.
const header = (mode: ModeWord): string =>
  ` turn  ${'window fullness (| = threshold)'.padEnd(BAR_CELLS + 2)}  ${'%'.padStart(6)}  ` +
  `${'client sent'.padStart(11)} -> ${'model got'.padEnd(11)}  ${(spansOf(mode) ? 'stubs' : 'rescued').padStart(7)}  cache read / write (tokens)`;
const INDENT = '       ';

/** Whether a mode's kind counts spans (its stubs stand for whole messages), not tool results. */
export const spansOf = (mode: ModeWord): boolean => infoOfModeWord(mode)?.counts === 'spans';

/** The lines to print for one event of a running demo. */
export function formatDemoEvent(event: DemoEvent): string[] {
  switch (event.kind) {
    case 'start':
      return [
        `ctxshed demo: a scripted client and a scripted model (no network, no API key) through the real proxy,`,
        `${event.mode} at ${pct(event.threshold)} of a ${num(event.window)}-token window${spansOf(event.mode) ? ' when the cache re-write pays back' : ''}; state directory ${event.stateDir}`,
        '',
        header(event.mode),
      ];
    case 'turn':
      return [turnLine(event.turn, event.threshold)];
    case 'epoch': {
      const e = event.epoch;
      // The turn whose request latched it, as the summary counts it; the reading is the turn before's.
      const before = e.turn > 1 ? ` (turn ${e.turn - 1} was ${pct(e.fullness)} full)` : '';
      const latched = `${INDENT}epoch ${e.epoch} latched at turn ${e.turn}${before}`;
      if (e.span !== undefined) {
        const s = e.span;
        return [`${latched}: shed ${s.messages} messages (${s.first}..${s.last}, ${num(s.bytes)} bytes) -> ${s.path}`];
      }
      return [`${latched}: elided ${e.toolResults} tool results (${num(e.bytes)} bytes) -> ${e.elidedDir}/`];
    }
    case 'read-back': {
      const r = event.readBack;
      if (r.answeredAtTurn === undefined) return [`${INDENT}the model found a stub and asks the client to Read ${r.path}`];
      const verdict = r.matched ? 'matches the stub: the text came back intact' : `does NOT match the stub's ${r.expectedSha256.slice(0, 12)}…`;
      return [
        `${INDENT}the client read it from disk and sent it back: ${num(r.receivedBytes ?? 0)} bytes, sha256 ${(r.receivedSha256 ?? '').slice(0, 12)}… ${verdict}`,
      ];
    }
  }
}

/** The summary and the commands to look further. */
export function formatDemoSummary(report: DemoReport): string[] {
  const s = report.summary;
  const latchTurns = report.epochs.map((e) => e.turn);
  const v = report.verify;
  return [
    '',
    'summary',
    `  requests      ${s.requests}, every one through the proxy, logged in ${report.state}/wire.jsonl`,
    `  epochs        ${s.epochs}${latchTurns.length === 0 ? '' : ` (latched at turn${latchTurns.length === 1 ? '' : 's'} ${latchTurns.join(', ')})`}`,
    `  last request  the client sent ${num(s.lastBytesIn)} bytes, the model got ${num(s.lastBytesOut)}: ${num(s.bytesSaved)} bytes kept out of the window`,
    `  fullness      ${pct(s.lastFullness)} of the window at the end; about ${pct(s.fullnessWithout)} without ctxshed` +
      (s.fullnessWithout >= 1 ? ' (past the window: the agent would have compacted long before)' : ''),
    `  prompt cache  ${pct(s.cacheHitRatio)} hit ratio (cache reads over reads + writes); ${num(s.cacheWriteTokens)} tokens written in all`,
    `  read-back     ${readBackLine(report)}`,
    `  verify        ${v.ok ? 'ok' : 'FAILED'}: ${count(v.checked.conversations, 'conversation')}, ${count(v.checked.epochs, 'epoch')}, ` +
      `${count(v.checked.blocks, 'block')}, ${count(v.checked.elided, 'elided file')}, ` +
      `${v.checked.spans > 0 ? `${count(v.checked.spans, 'span')}, ` : ''}${count(v.problems.length, 'problem')}`,
    ...v.problems.map((p) => `                problem: ${p}`),
    '',
    `look further (the state directory stays until you remove it):`,
    ...report.commands.map((c) => `  ${c}`),
  ];
}

function readBackLine(report: DemoReport): string {
  const r = report.readBack;
  if (r === undefined && spansOf(report.mode))
    return 'none: the demo model reads tool-result stubs back, not spans (read a span at the path its epoch line gives)';
  if (r === undefined) return 'no stub was read back (no epoch latched early enough; try more --turns)';
  if (r.answeredAtTurn === undefined) return `asked at turn ${r.askedAtTurn}, not answered before the last turn`;
  return `asked at turn ${r.askedAtTurn}, read back at turn ${r.answeredAtTurn}: ${r.path}: ${r.matched ? 'sha256 matches, intact' : 'sha256 MISMATCH'}`;
}

function turnLine(t: TurnReport, threshold: number): string {
  const filled = Math.min(BAR_CELLS, Math.round(t.fullness * BAR_CELLS));
  const mark = Math.min(BAR_CELLS - 1, Math.round(threshold * BAR_CELLS));
  let bar = '';
  for (let i = 0; i < BAR_CELLS; i++) bar += i === mark ? '|' : i < filled ? '#' : '.';
  return (
    `${String(t.turn).padStart(5)}  [${bar}]  ${pct(t.fullness).padStart(6)}  ` +
    `${num(t.bytesIn).padStart(11)} -> ${num(t.bytesOut).padEnd(11)}  ${String(t.rescued).padStart(7)}  ${num(t.cacheRead).padStart(10)} / ${num(t.cacheWrite)}`
  );
}

function count(n: number, noun: string): string {
  return `${num(n)} ${noun}${n === 1 ? '' : 's'}`;
}

function pct(fraction: number): string {
  return `${(Math.round(fraction * 1000) / 10).toFixed(1)}%`;
}

function num(n: number): string {
  return n.toLocaleString('en-US');
}
