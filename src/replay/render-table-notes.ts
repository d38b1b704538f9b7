/** The notes under a replay's table (render-table.ts): shed mode's epochs and holds, refaults, pass-throughs, and the cache misses billed. Pure. */
import { GATE_CEILING } from '../core/index.js';
import type { MissTally } from './miss-counter.js';
import type { SessionReport } from './session-report.js';
import type { ShedEpochFigure } from './shed-epochs.js';
import { workingSetNote } from './working-set-tally.js';

/** The runway legend, shed mode's epochs and holds, refaults, and what passed through or failed. */
export function footLines(report: SessionReport): string[] {
  const lines: string[] = [];
  lines.push(...shedLines(report.shedEpochs), ...heldLines(report.shedHeld), ...workingSetNote(report.workingSet));
  const r = report.refaults;
  if (r.rate !== null) {
    lines.push(
      `  rescue refaults: ${r.blocksRefaulted} of ${r.blocksElided} elided blocks were files the session read again later (${pct(r.rate, 1)}), ${r.refaults} read(s)`,
    );
  }
  const sr = report.shedRefaults;
  if (sr.rate !== null) {
    lines.push(
      `  shed refaults: ${sr.blocksRefaulted} of ${sr.blocksElided} shed tool results were files the session read again later (${pct(sr.rate, 1)}), ${sr.refaults} read(s)`,
    );
  }
  const notes = Object.entries(report.passthrough).map(([k, v]) => `${k} x${v}`);
  if (notes.length > 0) lines.push(`  pass-throughs: ${notes.join(', ')}`);
  if (report.stateFailures.length > 0) lines.push(`  state failures: ${report.stateFailures.join('; ')}`);
  return lines;
}

/**
 * Shed mode's epochs, one line each (never a sum): the span, the gate, and what the epoch is worth
 * per later turn at the provider's own prices, its basis stamped, against the re-write it cost.
 */
function shedLines(epochs: readonly ShedEpochFigure[]): string[] {
  if (epochs.length === 0) return ['  shed epochs: none latched'];
  return [
    '  shed epochs (each on its own: never summed, never set against cache reads):',
    ...epochs.map((e) => {
      const g = e.gate;
      const against =
        g === undefined
          ? ''
          : `${g.forcedAt === undefined ? '<=' : '>'} ${g.expectedRemainingTurns} expected (${g.horizonFrom === 'horizon' ? '--horizon' : 'turns so far'})`;
      const forced = g?.forcedAt === undefined ? '' : `, forced at the ${pct(GATE_CEILING)} ceiling`;
      const gate = g === undefined ? 'no gate' : `gate: break-even ${g.breakEvenTurns ?? 'never'} turns ${against}${forced}; ran ${e.turnsAfter} more`;
      const t = e.perLaterTurn;
      return (
        `    #${e.epoch} ${shortId(e.conversation)} request ${e.request + 1} at ${pct(e.fullness)}: messages ${e.span.first}..${e.span.last} (${e.span.messages}, ${(e.span.bytes / 1024).toFixed(0)} KiB); ${gate}\n` +
        `       per later turn ${t.shedTokens.toLocaleString('en-US')} tokens not sent (${t.warmTokens.toLocaleString('en-US')} warm, ${t.coldTokens.toLocaleString('en-US')} cold) = ` +
        `${t.inputTokenEquivalent.toLocaleString('en-US')} input tokens, $${t.usd.toFixed(4)} [${t.basis}]; re-write at the latch ${e.rewrite.cacheWriteTokens.toLocaleString('en-US')} tokens, $${e.rewrite.usd.toFixed(4)} [${e.rewrite.basis}]; ` +
        `${e.payback.turnsNeeded === null ? 'never pays back' : `pays back in ${e.payback.turnsNeeded} turn(s): ${e.payback.paidBack ? 'did' : 'did not'}`}`
      );
    }),
  ];
}

/** Requests over the threshold where shed latched nothing, and why; the gate's figures the first time it held. */
function heldLines(held: SessionReport['shedHeld']): string[] {
  const counts = Object.entries(held.requests).map(([why, n]) => `${why} x${n}`);
  if (counts.length === 0) return [];
  const lines = [`  shed held back on requests over the threshold: ${counts.join(', ')}`];
  const g = held.firstGate;
  if (g !== undefined) {
    lines.push(
      `    first gate refusal, ${shortId(g.conversation)} request ${g.request + 1}: break-even ${g.gate.breakEvenTurns ?? 'never'} turns > ${g.gate.expectedRemainingTurns} expected; ` +
        `span ${(g.spanBytes / 1024).toFixed(0)} KiB, ${g.gate.droppedCachedTokens.toLocaleString('en-US')} tokens dropped, against ${g.gate.invalidatedSuffixTokens.toLocaleString('en-US')} tokens after it to write again (${(g.windowBytes / 1024).toFixed(0)} KiB)`,
    );
  }
  return lines;
}

/** `<file>#<n>` without the folder. */
function shortId(id: string): string {
  return id.slice(id.lastIndexOf('/') + 1);
}

/** The billed misses the model foresaw (a gap over the TTL, a change of model) and those it could not. */
export function missLines(m: MissTally): string[] {
  const billedCold = m.explained.requests + m.unforeseeable.requests;
  const lines = [
    `  cache misses billed (the previous prefix written again): ${billedCold} of ${m.judged}; the model foresaw ${m.explained.requests} ` +
      `(${m.explained.afterTtl} after a gap over the TTL, ${m.explained.modelChange} on a change of model, ${m.explained.other} otherwise)`,
  ];
  if (m.unforeseeable.requests > 0) {
    lines.push(
      `  ${m.unforeseeable.requests} unforeseeable: the model read the prefix (${m.unforeseeable.cacheWriteTokens.toLocaleString('en-US')} tokens written that it cannot see coming)`,
    );
  }
  if (m.modelColdBilledWarm.requests > 0) {
    lines.push(
      `  ${m.modelColdBilledWarm.requests} billed warm where the model was cold (${m.modelColdBilledWarm.afterTtl} after a gap over the TTL: the cache outlived it)`,
    );
  }
  return lines;
}

function pct(x: number, digits = 0): string {
  return `${(x * 100).toFixed(digits)}%`;
}
