/** The terminal text of the cache-TTL back-test. Pure: report in, text out. */
import type { BandCount, TtlReport } from './ttl-backtest.js';

/** Renders the back-test, within 100 columns. */
export function renderTtl(report: TtlReport): string {
  const c = report.confusion;
  const n = (x: number): string => x.toLocaleString('en-US');
  const agreed = c.predictedWarm.billedWarm + c.predictedCold.billedCold;
  const cells = [c.predictedWarm.billedWarm, c.predictedWarm.billedCold, c.predictedCold.billedWarm, c.predictedCold.billedCold].map(n);
  const w = Math.max(11, ...cells.map((s) => s.length));
  const lines = [
    `cache-TTL back-test: ${n(report.sessions)} ${plural(report.sessions, 'session')}, ${n(report.conversations)} ${plural(report.conversations, 'conversation')}, ` +
      `${n(report.requests)} ${plural(report.requests, 'request')}, ${n(report.pairs)} back-to-back ${plural(report.pairs, 'pair')} judged`,
    `  predicted cold: the gap since the prefix was last written or read passes its TTL (5 min, or 1 h)`,
    `  billed warm: the next request read at least ${pct(report.rule.warmReadShare)} of the prefix the previous one left cached`,
    '',
    `  agreement ${pct(report.agreement, 1)} (${n(agreed)} of ${n(report.pairs)}; ${n(report.byTtl.ttl5m)} on a 5-minute TTL, ${n(report.byTtl.ttl1h)} on a 1-hour one)`,
    '',
    `  ${''.padEnd(14)}  ${'billed warm'.padStart(w)}  ${'billed cold'.padStart(w)}`,
    `  ${'predicted warm'.padEnd(14)}  ${cells[0]!.padStart(w)}  ${cells[1]!.padStart(w)}`,
    `  ${'predicted cold'.padEnd(14)}  ${cells[2]!.padStart(w)}  ${cells[3]!.padStart(w)}`,
    '',
    `  ${report.band.fromMinutes}-${report.band.toMinutes} min gaps: 5-minute TTL ${band(report.band.ttl5m)}; 1-hour TTL ${band(report.band.ttl1h)}`,
    `  unforeseeable: ${n(report.unforeseeable.pairs)} ${plural(report.unforeseeable.pairs, 'pair')} predicted warm billed cold ` +
      `(${n(report.unforeseeable.cacheWriteTokens)} tokens written again)`,
    ...resumeLines(report),
    `  not judged: ${n(report.skipped.modelChanged)} across a model change, ${n(report.skipped.nothingCached)} after nothing cached, ` +
      `${n(report.skipped.noTime)} without a time`,
    `  left out: ${n(report.skipped.copy)} ${plural(report.skipped.copy, 'copy', 'copies')} of another file's requests (a resume's carried records)`,
  ];
  return `${lines.join('\n')}\n`;
}

function resumeLines(report: TtlReport): string[] {
  const r = report.resumes;
  if (r.turns === 0) return ['  resumes: none (no file continues another, no gap over the TTL followed by a re-write)'];
  const lines = [`  resumes: ${r.turns} (${r.newFile} in a file continuing another, ${r.afterGap} after a gap over the TTL); ${r.billedWarm} opened warm`];
  if (r.cold.turns > 0) {
    lines.push(
      `    ${r.cold.turns} cold: of ${r.cold.contextTokens.toLocaleString('en-US')} prompt tokens, ${pct(r.cold.cacheWriteShare)} re-cached, ` +
        `${pct(r.cold.inputShare)} sent as plain input, ${pct(r.cold.cacheReadShare)} read`,
    );
  }
  return lines;
}

function band(b: BandCount): string {
  return b.pairs === 0 ? 'none' : `${b.pairs} ${plural(b.pairs, 'pair')}, ${b.billedWarm} billed warm`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

function pct(x: number, digits = 0): string {
  return `${(x * 100).toFixed(digits)}%`;
}
